import Foundation
import LinnetTestSupport
import Locking
import Testing
import TwitterAPI

/// API v2's filtered stream against the simulator: rules added, checked and deleted with the
/// app's bearer token; posts matching them arrive as lines; one connection per app.
@Suite(.serialized) struct V2StreamTests {
    func app(_ h: ClientHarness) async throws -> TwitterClient {
        let c = h.server.credentials
        let token = try await AppOnlyFlow(http: h.client.http, apiBase: h.server.baseURL).obtain(
            consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        return h.client(auth: .bearer(token))
    }

    @Test func rulesAreManagedWithTheAppToken() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let app = try await app(h)
        let checked = try await app.v2AddRules([("linnet has:links", "linnet:search:1")], dryRun: true)
        let afterDryRun = try await app.v2Rules()
        #expect(checked.count == 1 && afterDryRun.isEmpty, "a dry run keeps nothing")
        let added = try await app.v2AddRules([("linnet", "linnet:search:2"), ("from:ada", "linnet:search:3")])
        #expect(try await app.v2Rules().map(\.value) == ["linnet", "from:ada"])
        await #expect(throws: APIError.self) { _ = try await app.v2AddRules([("linnet", "again")]) }
        await #expect(throws: APIError.self) { _ = try await h.client.v2Rules() }
        #expect(try await app.v2DeleteRules(ids: [added[1].id]) == 1)
        #expect(try await app.v2Rules().map(\.tag) == ["linnet:search:2"])
    }

    @Test func matchingPostsArriveAndASecondConnectionIsRefused() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let app = try await app(h)
        _ = try await app.v2AddRules([("linnet", "linnet:search:linnet")])
        let seen = Locked<[String]>([])
        let stream = app.stream(.v2Filtered, stallTimeout: 20, clock: SystemClock())
        let reader = Task { () -> Bool in
            for await e in stream {
                switch e {
                case .state(.streaming):
                    // Once connected: one post that does not match, then one that does.
                    _ = try? await h.control("POST", "/_sim/tweet", body: "author=ada&text=nothing+to+see")
                    _ = try? await h.control("POST", "/_sim/tweet", body: "author=ada&text=a+linnet+on+a+wire")
                case .message(.matched(let t, let tags)):
                    seen.withLock { $0.append(t.text) }
                    return t.user.screenName == "ada" && tags == ["linnet:search:linnet"]
                default: break
                }
            }
            return false
        }
        let guardTimer = Task {
            try? await Task.sleep(nanoseconds: 15_000_000_000)
            reader.cancel()
        }
        #expect(await reader.value, "no matching post arrived")
        guardTimer.cancel()
        #expect(seen.withLock { $0 } == ["a linnet on a wire"])
        // The first stream is still open: a second connection is refused.
        let second = try await app.send("GET", "/2/tweets/search/stream")
        #expect(second.status == 429)
        let refused = APIError(httpStatus: second.status, body: second.body)
        #expect(refused.problemType == "streaming-connection" && refused.message.contains("maximum allowed connection"))
    }
}

extension V2StreamTests {
    /// Linnet's rules follow its search panes; another program's rules stay as they are.
    @Test func rulesFollowThePanesAndLeaveOthersAlone() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let app = try await app(h)
        _ = try await app.v2AddRules([("from:someone", "other-tool:1")])
        _ = try await app.v2SyncRules([("linnet", "linnet:search:linnet"), ("swift lang", "linnet:search:swift")])
        var rules = try await app.v2Rules()
        #expect(Set(rules.map(\.tag)) == ["other-tool:1", "linnet:search:linnet", "linnet:search:swift"])
        // One pane closed, another opened.
        rules = try await app.v2SyncRules([("linnet", "linnet:search:linnet"), ("birds", "linnet:search:birds")])
        #expect(Set(rules.map(\.tag)) == ["other-tool:1", "linnet:search:linnet", "linnet:search:birds"])
        // Nothing to change: no rule is added or deleted.
        let log = { () async throws -> Int in
            guard case .array(let items) = try JSONValue.parse(try await h.control("GET", "/_sim/requests").body) else { return 0 }
            return items.filter { $0["method"]?.stringValue == "POST" && $0["path"]?.stringValue == "/2/tweets/search/stream/rules" }.count
        }
        let before = try await log()
        _ = try await app.v2SyncRules([("linnet", "linnet:search:linnet"), ("birds", "linnet:search:birds")])
        #expect(try await log() == before)
    }

    /// An operational disconnect on the stream is said, and the client connects again.
    @Test func anOperationalDisconnectIsFollowedByAReconnect() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let app = try await app(h)
        _ = try await app.v2AddRules([("linnet", "linnet:search:linnet")])
        let stream = app.stream(.v2Filtered, stallTimeout: 20, clock: RecordingClock())
        let reader = Task { () -> (disconnects: Int, connects: Int) in
            var disconnects = 0
            var connects = 0
            for await e in stream {
                switch e {
                case .state(.streaming):
                    connects += 1
                    if connects == 1 { _ = try? await h.control("POST", "/_sim/notice", body: "kind=disconnect") }
                    if connects == 2 { return (disconnects, connects) }
                case .message(.disconnect(_, _, let reason)):
                    #expect(reason.contains("operational"))
                    disconnects += 1
                default: break
                }
            }
            return (disconnects, connects)
        }
        let guardTimer = Task {
            try? await Task.sleep(nanoseconds: 15_000_000_000)
            reader.cancel()
        }
        let seen = await reader.value
        guardTimer.cancel()
        #expect(seen.disconnects == 1 && seen.connects == 2)
    }
}
