import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// Lists on both faces: the account's own and the ones it follows, named `owner/slug`; a
/// list pane holds its members' tweets only. v2 names lists by id and pages them by token.
@Suite struct ListsSyncTests {
    @Test(arguments: TwitterClient.API.allCases) func listsAndAListPane(api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = api == .v2 ? V2SyncTests.v2Client(sim) : sim.client
        let me = try await sim.client.verifyCredentials()
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        let store = TimelineStore()
        let engine = SyncEngine(client: client, store: store, account: me, options: o)
        let lists = try await engine.lists()
        #expect(lists.map(\.name) == ["Friends", "Birds", "Reading"], "\(lists)")
        #expect(lists[0].reference == "\(me.screenName)/friends" && lists[0].memberCount == 3)
        #expect(lists[2].owner != me.screenName && !lists[2].owner.isEmpty, "a followed list names its owner")
        // Someone else's lists: what they own and follow, read the same way.
        let owner = try await client.profile(screenName: lists[2].owner, me: me).user
        let theirs = try await engine.lists(of: owner)
        #expect(theirs.contains { $0.id == lists[2].id } && !theirs.contains { $0.id == lists[0].id }, "\(theirs)")
        // Both faces name the same lists by the same ids.
        let other = try await (api == .v2 ? sim.client : V2SyncTests.v2Client(sim)).lists(me: me)
        #expect(other.map(\.id) == lists.map(\.id) && other.map(\.reference) == lists.map(\.reference))

        await engine.open(.list(lists[0].reference))
        let settled = await V2CostTests.eventually { !(await store.view(.list(lists[0].reference)).ids.isEmpty) }
        #expect(settled)
        await engine.stop()
        let snapshot = await store.snapshot()
        let authors = Set(snapshot.tweets(in: .list(lists[0].reference)).map(\.user.screenName))
        #expect(!authors.isEmpty && authors.count <= 3, "the list has three members: \(authors)")
        // What the pane holds is what the server says the list holds.
        let truth = try await sim.client.listStatuses(owner: me.screenName, slug: "friends", TwitterClient.Page(count: 200)).tweets
        let held = snapshot.timelines[.list(lists[0].reference)]?.ids ?? []
        #expect(Set(held).isSubset(of: Set(truth.map(\.id))) && Set(truth.map(\.user.screenName)) == authors)
        #expect(
            try await sim.client.listStatuses(owner: me.screenName, slug: "birds").tweets.allSatisfy {
                !authors.contains($0.user.screenName)
            })
        if api == .v2 {
            await #expect(throws: APIError.self) {
                _ = try await client.call("GET", "/2/lists/\(lists[0].id)/tweets", [("since_id", "1")])
            }
        }
        // A list that is not there is a 404 in words on either face.
        let missing = SyncEngine(client: client, store: TimelineStore(), account: me, options: o)
        await missing.open(.list("\(me.screenName)/nosuch"))
        var said = ""
        let failed = await V2CostTests.eventually {
            said = missing.board.statuses[.list("\(me.screenName)/nosuch")]?.lastError ?? ""
            return !said.isEmpty
        }
        #expect(failed)
        #expect(said.contains("404") || said.lowercased().contains("not") || said.contains("no list"), "\(said)")
        await missing.stop()
    }
}
