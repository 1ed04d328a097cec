import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// A user's likes as a pane on both faces: liked through the client, read by the engine into
/// the store; v2's endpoint takes no ids to page by, and the simulator holds it to that.
@Suite struct LikesSyncTests {
    @Test(arguments: TwitterClient.API.allCases) func likedTweetsFillTheLikesPane(api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = api == .v2 ? V2SyncTests.v2Client(sim) : sim.client
        let me = try await sim.client.verifyCredentials()
        let home = try await sim.client.homeTimeline().tweets.map(\.content.id)
        let liked = Array(Set(home)).sorted(by: >).prefix(3)
        try #require(liked.count == 3)
        for id in liked {
            if api == .v2 { try await client.v2Like(userID: me.id, id) } else { _ = try await client.favorite(id) }
        }
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        let store = TimelineStore()
        let engine = SyncEngine(client: client, store: store, account: me, options: o)
        await engine.open(.likes(me.screenName))
        let settled = await V2CostTests.eventually { await store.view(.likes(me.screenName)).ids == Array(liked) }
        #expect(settled)
        await engine.stop()
        #expect(await store.view(.home).ids.isEmpty, "only the likes pane was filled")
        if api == .v1 {
            // Paged by id like any v1.1 timeline.
            let older = try await client.favoritesList(
                screenName: me.screenName, TwitterClient.Page(count: 5, maxID: liked[liked.startIndex + 1]))
            #expect(older.tweets.map(\.id) == Array(liked.dropFirst()))
        } else {
            await #expect(throws: APIError.self) {
                _ = try await client.call("GET", "/2/users/\(me.id)/liked_tweets", [("since_id", liked[liked.startIndex].description)])
            }
        }
    }
}

/// v2 sends no "you liked this" flag: the engine lays this session's likes on later pages,
/// whose counts already hold them.
@Suite struct V2LikeCountTests {
    @Test func aLikeCountsOnceAfterTheNextPoll() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let (engine, _, store, _) = try await V2SyncTests.engine(sim)
        defer { Task { await engine.stop() } }
        await engine.open(.home)
        var target: Tweet?
        for _ in 0..<300 where target == nil {
            let snap = await store.snapshot()
            target = snap.timelines[.home]?.ids.compactMap { snap.tweets[$0] }.first {
                !$0.content.isFavorited && $0.retweetedStatus == nil
            }
            if target == nil { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        let t = try #require(target)
        let before = t.content.favoriteCount
        _ = try (await engine.perform(.like(t.id))).get()
        #expect(await store.tweet(t.id)?.content.favoriteCount == before + 1)
        // The next polls bring the server's count (which holds the like): still one more.
        let asked = try await V2CostTests.requests(sim, path: "/timelines/reverse_chronological").count
        _ = await engine.refresh(.home)
        #expect(
            try await V2CostTests.eventually { try await V2CostTests.requests(sim, path: "/timelines/reverse_chronological").count > asked }
        )
        try await Task.sleep(nanoseconds: 200_000_000)
        let after = await store.tweet(t.id)?.content
        #expect(
            after?.favoriteCount == before + 1 && after?.isFavorited == true, "\(String(describing: after?.favoriteCount)) after \(before)")
        _ = try (await engine.perform(.unlike(t.id))).get()
        let asked2 = try await V2CostTests.requests(sim, path: "/timelines/reverse_chronological").count
        _ = await engine.refresh(.home)
        #expect(
            try await V2CostTests.eventually {
                try await V2CostTests.requests(sim, path: "/timelines/reverse_chronological").count > asked2
            })
        try await Task.sleep(nanoseconds: 200_000_000)
        let undone = await store.tweet(t.id)?.content
        #expect(undone?.favoriteCount == before && undone?.isFavorited == false)
    }
}
