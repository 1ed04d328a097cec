import Foundation
import LinnetCore
import LinnetTestSupport
import Testing
import TwitterAPI

@testable import Timeline

/// A bearer token reads searches and user timelines by polling; Home, Mentions, streams and
/// writes are refused before any request is made.
@Suite(.serialized) struct AppOnlySyncTests {
    @Test func searchPollsAndTheRestIsRefusedWithoutARequest() async throws {
        let sim = try await ClientHarness.start()
        let c = sim.server.credentials
        let token = try await AppOnlyFlow(http: sim.client.http, apiBase: sim.server.baseURL).obtain(
            consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        let store = TimelineStore()
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.02)
        let engine = SyncEngine(
            client: sim.client(auth: .bearer(token)), store: store, account: User(id: UserID(0), screenName: "reader", name: "reader"),
            options: o)
        defer {
            Task {
                await engine.stop()
                await sim.stop()
            }
        }
        #expect(engine.isAppOnly)

        await engine.open(.search("linnet"))
        await engine.open(.home)
        let deadline = Date().addingTimeInterval(30)
        var held: [String] = []
        while Date() < deadline {
            held = await store.view(.search("linnet")).ids.map(\.description)
            if !held.isEmpty, case .polling = engine.board.status(.search("linnet")).state { break }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        guard case .polling = engine.board.status(.search("linnet")).state else {
            Issue.record("a search on a bearer token should poll: \(engine.board.status(.search("linnet")))")
            return
        }
        let home = engine.board.status(.home)
        #expect(home.lastError == SyncEngine.appOnlyTimelines && home.refused)

        let selected = try #require(TweetID(held[0]))
        guard case .failure(let e) = await engine.perform(.like(selected)) else {
            Issue.record("a like on a bearer token must be refused")
            return
        }
        #expect(e.message == SyncEngine.appOnlyWrites)

        let log = try await sim.control("GET", "/_sim/requests")
        guard case .array(let requests) = try JSONValue.parse(log.body) else {
            Issue.record("the request log is not a list")
            return
        }
        let asked = requests.compactMap { r -> String? in
            guard let p = r["path"]?.stringValue, p.hasPrefix("/1.1") || p.contains("stream") else { return nil }
            return (r["auth"]?.stringValue ?? "") + " " + p
        }
        #expect(!asked.isEmpty && asked.allSatisfy { $0.hasPrefix("bearer /1.1/search/tweets") }, "\(asked)")

        // What the same search answers a user: the same tweets.
        let truth = try await sim.client.search("linnet", count: 100).statuses.map(\.id.description)
        #expect(!held.isEmpty && Array(truth.prefix(held.count)) == held, "held \(held), truth \(truth)")
    }
}
