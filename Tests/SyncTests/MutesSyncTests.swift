import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// The account's mutes on the server, on both faces: muted and unmuted through the client,
/// read by the engine into the store's snapshot, where the panes hide them.
@Suite struct MutesSyncTests {
    @Test(arguments: TwitterClient.API.allCases) func mutesAreReadIntoTheSnapshot(api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = api == .v2 ? V2SyncTests.v2Client(sim) : sim.client
        let me = try await sim.client.verifyCredentials()
        let authors = try await sim.client.homeTimeline().tweets.map(\.user.id).filter { $0 != me.id }
        let people = Array(Set(authors)).sorted().prefix(2)
        try #require(people.count == 2, "the simulator's home has too few people")
        for p in people { try await client.setMuted(true, user: p, me: me.id) }
        #expect(try await client.mutedUserIDs(me: me.id) == Set(people))

        // The engine reads them as soon as a pane opens.
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        o.readMutes = true
        let store = TimelineStore()
        let engine = SyncEngine(client: client, store: store, account: me, options: o)
        await engine.open(.mentions)
        let settled = await V2CostTests.eventually { await store.snapshot().mutedUsers == Set(people) }
        #expect(settled)
        // Unmuted on the server: gone at the next read.
        try await client.setMuted(false, user: people[people.startIndex], me: me.id)
        await engine.readMutes()
        #expect(await store.snapshot().mutedUsers == [people[people.startIndex + 1]])
        await engine.stop()

        // What the server refuses is said in its words.
        await #expect(throws: APIError.self) { try await client.setMuted(true, user: me.id, me: me.id) }
        if api == .v1 {
            do {
                try await client.setMuted(false, user: people[people.startIndex], me: me.id)
                Issue.record("unmuting someone not muted was accepted")
            } catch let e as APIError {
                #expect(e.code == 272, "\(e)")
            }
        }
    }

    /// Both faces page the list as X does: v1.1 by cursor, v2 by token within 1–1000.
    @Test func theSimulatorPagesTheList() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = V2SyncTests.v2Client(sim)
        let me = try await sim.client.verifyCredentials()
        let people = Array(Set(try await sim.client.homeTimeline().tweets.map(\.user.id).filter { $0 != me.id })).sorted().prefix(3)
        for p in people { try await client.setMuted(true, user: p, me: me.id) }
        let first = try JSONValue.parse(try await client.call("GET", "/2/users/\(me.id)/muting", [("max_results", "2")]))
        guard case .array(let page1)? = first["data"], let token = first["meta"]?["next_token"]?.stringValue else {
            Issue.record("no first page: \(first.serialized)")
            return
        }
        let second = try JSONValue.parse(
            try await client.call("GET", "/2/users/\(me.id)/muting", [("max_results", "2"), ("pagination_token", token)]))
        guard case .array(let page2)? = second["data"] else {
            Issue.record("no second page: \(second.serialized)")
            return
        }
        #expect(page1.count == 2 && page2.count == 1 && second["meta"]?["next_token"] == nil)
        let names = (page1 + page2).compactMap { $0["username"]?.stringValue }
        #expect(names.count == 3, "v2 lists users with their names: \(names)")
        await #expect(throws: APIError.self) { _ = try await client.call("GET", "/2/users/\(me.id)/muting", [("max_results", "1001")]) }
        let v1 = try JSONValue.parse(try await sim.client.call("GET", "mutes/users/ids", [("cursor", "-1")]))
        guard case .array(let ids)? = v1["ids"] else {
            Issue.record("no ids: \(v1.serialized)")
            return
        }
        #expect(Set(ids.compactMap(\.intValue).map { UserID(UInt64($0)) }) == Set(people))
        #expect(v1["next_cursor_str"]?.stringValue == "0" && v1["next_cursor"]?.intValue == 0)
    }
}
