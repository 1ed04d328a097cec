import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// Numbers in response headers that once trapped the client (a SIGILL that left the terminal in
/// the alternate screen): every one is now clamped to a day at most.
@Suite struct HostileHeaderTests {
    static let now = Int64(Date().timeIntervalSince1970)
    static let credentials = OAuthCredentials(consumerKey: "ck", consumerSecret: "cs", token: "1-t", tokenSecret: "ts")

    static func client(_ server: HostileServer) -> TwitterClient {
        TwitterClient(endpoints: .single(server.base), auth: .user(credentials))
    }

    @Test(arguments: ["9223372036854775807", "99999999999999999999999", "-9223372036854775808", "Fri, 31 Dec 9999 23:59:59 GMT"])
    func retryAfterIsClampedToADay(_ value: String) async throws {
        let server = try HostileServer { _ in
            HostileServer.answer(
                status: 429, headers: ["Retry-After: \(value)"], body: #"{"errors":[{"code":88,"message":"Rate limit exceeded"}]}"#)
        }
        defer { server.stop() }
        let error = await #expect(throws: APIError.self) {
            _ = try await Self.client(server).call("GET", "/1.1/statuses/home_timeline.json")
        }
        let retry = try #require(error?.retryAt)
        #expect(retry >= Self.now && retry <= Int64(Date().timeIntervalSince1970) + Checked.longestWait)
        #expect(error?.code == 88)
    }

    @Test(arguments: ["99999999999", "9223372036854775807", "-9223372036854775808", "184467440737095516150"])
    func aResetFarAwayIsKeptWithinADay(_ reset: String) async throws {
        let server = try HostileServer { _ in
            HostileServer.answer(
                headers: ["x-rate-limit-limit: 15", "x-rate-limit-remaining: 0", "x-rate-limit-reset: \(reset)"], body: "[]")
        }
        defer { server.stop() }
        let client = Self.client(server)
        let before = Int64(Date().timeIntervalSince1970)
        _ = try await client.call("GET", "/1.1/statuses/user_timeline.json")
        let after = Int64(Date().timeIntervalSince1970)
        let w = try #require(client.rateLimits.window(for: "/statuses/user_timeline"))
        #expect(w.reset >= before - Checked.longestWait && w.reset <= after + Checked.longestWait)
        #expect(w.remaining == 0)
    }

    @Test func plannerAndWaitsSurviveExtremeTimes() {
        for reset in [Int64.max, Int64.min, 0, 99_999_999_999] {
            for remaining in [0, 1, Int.max] {
                let w = RateLimit(limit: 15, remaining: remaining, reset: reset)
                let interval = RateSchedule.interval(window: w, now: Self.now)
                #expect(interval.isFinite && interval >= 0 && interval <= Double(Checked.longestWait) * 2)
                if case .wait(let s, _) = RateSchedule.manualRefresh(window: w, now: Self.now) {
                    #expect(s > 0 && Int64(s) <= Checked.longestWait)
                }
            }
        }
        #expect(Checked.nanoseconds(.infinity) == UInt64(Checked.longestWait) * 1_000_000_000)
        #expect(Checked.nanoseconds(.nan) == 0)
        #expect(Checked.nanoseconds(-5) == 0)
        #expect(Checked.nanoseconds(1e11) == UInt64(Checked.longestWait) * 1_000_000_000)
        #expect(Checked.count("-3") == 0)
        #expect(Checked.count("99999999999999999999999") == Int(Int32.max))
        #expect(Checked.count("12abc") == nil)
    }

    @Test func createdAtAtTheEndsOfTimeIsFormatted() {
        #expect(TwitterDate.format(.min).hasSuffix(" 1"))
        #expect(TwitterDate.format(.max).hasSuffix(" 9999"))
    }

    /// The reader's path: a user timeline polled against a server whose window resets in the
    /// year 5138. The engine plans its next poll within a day and says so, instead of trapping
    /// on the conversion of 10^11 seconds to nanoseconds.
    @Test func theSyncEngineWaitsADayAtMost() async throws {
        let server = try HostileServer { _ in
            HostileServer.answer(
                headers: ["x-rate-limit-limit: 900", "x-rate-limit-remaining: 0", "x-rate-limit-reset: 99999999999"], body: "[]")
        }
        defer { server.stop() }
        let me = User(id: UserID(1), screenName: "me", name: "Me")
        let engine = SyncEngine(client: Self.client(server), store: TimelineStore(), account: me, options: SyncOptions())
        let id = TimelineID.user("someone")
        await engine.open(id)
        // The first poll may be planned before the window is known; the one after it is not.
        var next: Double?
        for _ in 0..<500 where next == nil {
            if case .polling(let n) = engine.board.status(id).state, n > Date().timeIntervalSince1970 + 3600 { next = n }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let refresh = await engine.refresh(id)
        await engine.stop()
        let n = try #require(next, "the engine never planned its next poll")
        let dayAhead = Date().timeIntervalSince1970 + Double(Checked.longestWait)
        #expect(n > Date().timeIntervalSince1970 + 3600 && n <= dayAhead + 5)
        guard case .wait(let seconds, let message) = refresh else {
            Issue.record("a refresh with the window spent was allowed")
            return
        }
        #expect(seconds > 3600 && Int64(seconds) <= Checked.longestWait)
        #expect(message.contains("rate limited"))
    }
}
