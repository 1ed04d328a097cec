import Foundation
import LinnetTestSupport
import Locking
import Testing
import Timeline
import TwitterAPI

/// A server that answers a burst of 5xx, 429 and 420 in a row. The engine, on a clock the test
/// moves, backs off by its rules (never a request between two deadlines), says each failure in
/// plain words (not the HTML of an error page), and reads again once the server recovers.
@Suite struct HostileBurstTests {
    static let html = "<html><head><title>502 Bad Gateway</title></head><body>\u{1B}[31mnginx</body></html>"

    /// The answer to the n-th request (from 1).
    static func answer(_ n: Int) -> [HostileServer.Step] {
        switch n {
        case 1...3: return HostileServer.answer(status: 503, body: #"{"errors":[{"code":130,"message":"Over capacity"}]}"#)
        case 4: return HostileServer.answer(status: 502, headers: ["Content-Type: text/html"], body: html)
        case 5: return HostileServer.answer(status: 500, body: "")
        case 6:
            return HostileServer.answer(
                status: 429, headers: ["Retry-After: 120"], body: #"{"errors":[{"code":88,"message":"Rate limit exceeded"}]}"#)
        case 7: return HostileServer.answer(status: 420, body: #"{"errors":[{"code":420,"message":"Enhance Your Calm"}]}"#)
        default:
            return HostileServer.answer(
                headers: ["x-rate-limit-limit: 900", "x-rate-limit-remaining: 899", "x-rate-limit-reset: 1900000000"],
                body:
                    #"[{"id_str":"20","id":20,"text":"back","created_at":"Wed Oct 10 20:19:24 +0000 2018","user":{"id_str":"5","id":5,"screen_name":"ann","name":"Ann"}}]"#
            )
        }
    }

    @Test func aBurstOfFailuresIsWaitedOutByTheRules() async throws {
        let count = Locked(0)
        let server = try HostileServer { _ in
            Self.answer(
                count.withLock {
                    $0 += 1
                    return $0
                })
        }
        defer { server.stop() }
        let clock = ManualClock(now: 1_800_000_000)
        var options = SyncOptions()
        options.clock = clock
        let store = TimelineStore()
        let client = TwitterClient(endpoints: .single(server.base), auth: .user(HostileHeaderTests.credentials), clock: clock)
        let engine = SyncEngine(
            client: client, store: store, account: User(id: UserID(1), screenName: "me", name: "Me"),
            options: options)
        let id = TimelineID.user("ann")
        await engine.open(id)
        var waits: [Double] = []
        var said: [String] = []
        // Each failure: the engine sleeps until its retry; nothing goes out before the clock
        // reaches it.
        for n in 1...7 {
            #expect(await clock.waitForSleepers(1), "no wait after answer \(n)")
            #expect(server.requests == n, "requests sent before the wait was over")
            let st = engine.board.status(id)
            said.append(st.lastError ?? "")
            waits.append((clock.deadlines.first ?? 0) - clock.now())
            clock.advanceToNextDeadline()
        }
        #expect(await clock.waitForSleepers(1))
        await engine.stop()
        // 5xx: 5, 10, 20, 40, 80 s; the 429's Retry-After (120 s); 420: the engine's own 60 s.
        #expect(waits == [5, 10, 20, 40, 80, 120, 60], "\(waits)")
        #expect(await store.view(id).ids == [TweetID(20)])
        // Words, not markup or escapes; each names what happened.
        for s in said {
            #expect(!s.isEmpty)
            #expect(!s.contains("<") && !s.contains("\u{1B}"), "\(said)")
        }
        #expect(said[0].lowercased().contains("capacity"), "\(said[0])")
        #expect(said[5].lowercased().contains("rate limit"), "\(said[5])")
        #expect(said[3].contains("502 Bad Gateway"), "\(said[3])")
    }

    /// A body that is not Twitter's JSON becomes a few words: an HTML page's title, a plain
    /// text's first line with escapes spelled out, or the status's name.
    @Test func errorPagesBecomeWords() {
        #expect(APIError(httpStatus: 502, body: Data(Self.html.utf8)).message == "502 Bad Gateway")
        #expect(APIError(httpStatus: 503, body: Data("<html><body>down</body></html>".utf8)).message == "Service Unavailable")
        let text = APIError(httpStatus: 420, body: Data("Easy there, Turbo.\u{1B}[2J\nSecond line".utf8)).message
        #expect(text.hasPrefix("Easy there, Turbo.") && !text.contains("\u{1B}") && !text.contains("Second line"), "\(text)")
        #expect(APIError(httpStatus: 500, body: Data()).message == "Internal Server Error")
    }
}
