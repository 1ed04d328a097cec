import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// A refused sign-in stops the asking and says what to do; a network error from before goes
/// away once the stream is back.
@Suite(.serialized) struct SignInAndRecoveryTests {
    @Test func aRevokedTokenStopsRetryingAndSaysToLogInAgain() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let c = sim.server.credentials
        let client = TwitterClient(
            endpoints: .single(sim.server.baseURL),
            auth: .user(
                OAuthCredentials(consumerKey: c.consumerKey, consumerSecret: c.consumerSecret, token: c.accessToken, tokenSecret: "wrong")),
            http: sim.client.http)
        var o = SyncOptions()
        o.useStreams = false
        o.clock = ScaledClock(scale: 0.001)
        let engine = SyncEngine(
            client: client, store: TimelineStore(), account: User(id: UserID(c.userID), screenName: c.screenName, name: ""), options: o)
        defer { Task { await engine.stop() } }
        await engine.open(.home)
        var words = ""
        for _ in 0..<300 {
            words = engine.board.status(.home).lastError ?? ""
            if !words.isEmpty { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(words.contains("log in again with `linnet login`"), "\(words)")
        #expect(!words.contains(".."))
        // Backoffs are a thousand times shorter here: a retrying engine would have asked again.
        try await Task.sleep(nanoseconds: 300_000_000)
        guard case .array(let log) = try JSONValue.parse(try await sim.control("GET", "/_sim/requests").body) else { return }
        let asked = log.filter { $0["path"]?.stringValue == "/1.1/statuses/home_timeline.json" }.count
        #expect(asked == 1, "asked \(asked) times")
        #expect(engine.board.status(.home).state == .idle)
    }

    @Test func aNetworkErrorClearsWhenTheStreamIsBack() async throws {
        let h = try await SyncHarness.start()
        defer { Task { await h.stop() } }
        // The first two connections fail; the third holds.
        let plan = #"{"statusFaults":[{"path":"/1.1/user.json","status":503,"count":2}]}"#
        _ = try await h.sim.control("POST", "/_sim/faults", body: plan, json: true)
        await h.engine.open(.home)
        #expect(await h.eventually { h.engine.board.status(.home).lastError != nil }, "the failure was not shown")
        #expect(await h.eventually { h.engine.board.status(.home).state == .streaming })
        #expect(h.engine.board.status(.home).lastError == nil, "\(h.engine.board.status(.home))")
    }
}
