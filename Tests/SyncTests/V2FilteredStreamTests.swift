import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// With the app's bearer token, v2 search panes are fed by the filtered stream: a rule per
/// pane (Linnet's tag, nobody else's rules touched), one connection for all of them, and a
/// catch-up by recent search after every reconnect so nothing posted meanwhile is missed.
@Suite(.serialized) struct V2FilteredStreamTests {
    @Test func searchPanesShareOneStreamWithARuleEach() async throws {
        let sim = try await ClientHarness.start { $0.keepAliveSeconds = 1 }
        defer { Task { await sim.stop() } }
        let c = sim.server.credentials
        let bearer = try await AppOnlyFlow(http: sim.client.http, apiBase: sim.server.baseURL).obtain(
            consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        let app = TwitterClient(endpoints: .single(sim.server.baseURL), auth: .bearer(bearer), http: sim.client.http, api: .v2)
        // Another program's rule on the same app.
        _ = try await app.v2AddRules([("from:ada", "other-program")])
        let (engine, _, store, _) = try await V2SyncTests.engine(sim, streamClient: app)
        defer { Task { await engine.stop() } }
        func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
            for _ in 0..<300 {
                if try await condition() { return true }
                try? await Task.sleep(nanoseconds: 20_000_000)
            }
            return try await condition()
        }
        func held(_ q: String) async -> [String] {
            var out: [String] = []
            for id in await store.view(.search(q)).ids { if let t = await store.tweet(id) { out.append(t.text) } }
            return out
        }
        func streaming(_ q: String) -> Bool { engine.board.status(.search(q)).state == .streaming }

        await engine.open(.search("linnet"))
        await engine.open(.search("wire"))
        #expect(try await eventually { streaming("linnet") && streaming("wire") }, "\(engine.board.statuses)")
        let tags = Set(try await app.v2Rules().map(\.tag))
        #expect(tags == ["other-program", "linnet:search:linnet", "linnet:search:wire"])
        let open = try JSONValue.parse(try await sim.control("GET", "/_sim/streams").body)["open"]?.intValue
        #expect(open == 1, "one connection for every search pane")

        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=a+linnet+on+a+wire")
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=just+a+linnet")
        let both = await eventually {
            let (l, w) = (await held("linnet"), await held("wire"))
            return l.contains("just a linnet") && w.contains("a linnet on a wire")
        }
        #expect(both)
        let wire = await held("wire")
        #expect(!wire.contains("just a linnet"), "a post goes to the panes whose rule it matched")

        // Closing a pane removes its rule and no other.
        await engine.close(.search("wire"))
        #expect(try await eventually { Set(try await app.v2Rules().map(\.tag)) == ["other-program", "linnet:search:linnet"] })

        // The stream is cut; what is posted before it is back arrives by the catch-up.
        let connects = engine.board.counters.connects
        let searchesBefore = try await V2CostTests.requests(sim, path: "/2/tweets/search/recent").count
        _ = try await sim.control("POST", "/_sim/notice", body: "kind=disconnect")
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=a+linnet+while+away")
        #expect(try await eventually { engine.board.counters.connects > connects && streaming("linnet") })
        let caught = await eventually { await held("linnet").contains("a linnet while away") }
        #expect(caught)
        let caughtUp = try await eventually { try await V2CostTests.requests(sim, path: "/2/tweets/search/recent").count > searchesBefore }
        #expect(caughtUp, "a catch-up by recent search after the reconnect")
    }
}
