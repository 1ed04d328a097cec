import Foundation
import LinnetCore
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// People on both faces: a profile and how the account stands to it, follows made and undone,
/// a block (v1.1 only; v2 has no call for it), and who follows whom a page at a time.
@Suite struct PeopleSyncTests {
    @Test(arguments: TwitterClient.API.allCases) func profilesFollowsAndBlocks(api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = api == .v2 ? V2SyncTests.v2Client(sim) : sim.client
        let me = try await sim.client.verifyCredentials()
        let following = try await client.people(of: me, followers: false)
        let friend = try #require(following.users.first, "the demo user follows nobody")
        var p = try await client.profile(screenName: friend.screenName, me: me)
        #expect(p.user.id == friend.id && p.user.screenName == friend.screenName)
        #expect(p.relationship?.following == true)
        #expect(p.user.followersCount >= 1 && p.user.createdAt != nil)
        try await client.setFollowing(false, user: friend.id, me: me.id)
        p = try await client.profile(screenName: friend.screenName, me: me)
        #expect(p.relationship?.following == false)
        #expect(try await client.people(of: me, followers: false).users.map(\.id).contains(friend.id) == false)
        try await client.setFollowing(true, user: friend.id, me: me.id)
        try await client.setMuted(true, user: friend.id, me: me.id)
        p = try await client.profile(screenName: friend.screenName, me: me)
        #expect(
            p.relationship == Relationship(following: true, followedBy: p.relationship?.followedBy ?? false, muting: true))
        // One's own profile has no relationship.
        #expect(try await client.profile(screenName: me.screenName, me: me).relationship == nil)
        if api == .v1 {
            try await client.setBlocked(true, user: friend.id)
            p = try await client.profile(screenName: friend.screenName, me: me)
            #expect(p.relationship?.blocking == true && p.relationship?.following == false, "a block ends the follow")
            try await client.setBlocked(false, user: friend.id)
            #expect(try await client.profile(screenName: friend.screenName, me: me).relationship?.blocking == false)
            try await client.setFollowing(true, user: friend.id, me: me.id)
        } else {
            do {
                try await client.setBlocked(true, user: friend.id)
                Issue.record("a block was sent on v2")
            } catch let e as APIError {
                #expect(e.message == TwitterClient.noBlockOnV2)
            }
        }
        // Followers: all of them, page after page, each once.
        var seen: [UserID] = []
        var next: String?
        repeat {
            let page = try await client.people(of: friend, followers: true, next: next)
            seen += page.users.map(\.id)
            next = page.next
        } while next != nil
        #expect(seen.contains(me.id) && Set(seen).count == seen.count)
    }

    /// The engine's follow, mute and block: each answered with the profile as it now stands,
    /// a mute hiding the person at once, and every refusal said before anything is sent.
    @Test(arguments: TwitterClient.API.allCases) func theEngineActsAndAnswersWithTheProfile(api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = api == .v2 ? V2SyncTests.v2Client(sim) : sim.client
        let me = try await sim.client.verifyCredentials()
        let friend = try #require(try await client.people(of: me, followers: false).users.first)
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        let store = TimelineStore()
        let engine = SyncEngine(client: client, store: store, account: me, options: o)
        #expect(try await engine.profile(me.screenName).relationship == nil, "no relationship with oneself")
        guard case .success(let unfollowed) = await engine.perform(.follow(friend, false)) else {
            Issue.record("the unfollow failed")
            return
        }
        #expect(unfollowed.user.id == friend.id && unfollowed.relationship?.following == false)
        #expect(try await client.profile(screenName: friend.screenName, me: me).relationship?.following == false, "the server agrees")
        guard case .success(let muted) = await engine.perform(.mute(friend, true)) else {
            Issue.record("the mute failed")
            return
        }
        #expect(muted.relationship?.muting == true && muted.relationship?.following == false)
        #expect(await store.snapshot().mutedUsers.contains(friend.id), "a mute hides them at once")
        _ = await engine.perform(.mute(friend, false))
        #expect(await store.snapshot().mutedUsers.contains(friend.id) == false)
        let sent = try await sim.requestCount()
        switch await engine.perform(.block(friend, true)) {
        case .success(let p) where api == .v1: #expect(p.relationship?.blocking == true)
        case .failure(let e) where api == .v2:
            #expect(e.message.contains(TwitterClient.noBlockOnV2) && e.message.contains("Nothing was sent"), "\(e.message)")
            #expect(try await sim.requestCount() == sent, "a block was sent on v2")
        case let other: Issue.record("block on \(api): \(other)")
        }
        // What the server refuses is said in its words, the action named.
        guard case .failure(let e) = await engine.perform(.follow(me, true)) else {
            Issue.record("following oneself was accepted")
            return
        }
        #expect(e.message.hasPrefix("Could not follow @\(me.screenName): "), "\(e.message)")
    }

    @Test func selfServeFollowsAndAppOnlyWritesAreRefusedBeforeSending() async throws {
        let sim = try await ClientHarness.start { $0.tier = .selfServe }
        defer { Task { await sim.stop() } }
        let client = V2SyncTests.v2Client(sim)
        let me = try await client.v2Me()
        let friend = try #require(try await client.people(of: me, followers: false).users.first)
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        // Not told the access level: X's refusal is shown, and the next press is refused on the key.
        let engine = SyncEngine(client: client, store: TimelineStore(), account: me, options: o)
        guard case .failure(let first) = await engine.perform(.follow(friend, false)) else {
            Issue.record("an unfollow was accepted on self-serve")
            return
        }
        #expect(first.message.hasPrefix("Could not unfollow @\(friend.screenName): ") && !first.message.contains("Nothing was sent"))
        var sent = try await sim.requestCount()
        guard case .failure(let second) = await engine.perform(.follow(friend, false)) else { return }
        var now = try await sim.requestCount()
        #expect(second.message.contains("Nothing was sent") && now == sent, "\(second.message)")
        // Told it: refused from the first press. A mute is still open to self-serve.
        o.selfServe = true
        let told = SyncEngine(client: client, store: TimelineStore(), account: me, options: o)
        sent = try await sim.requestCount()
        guard case .failure(let e) = await told.perform(.follow(friend, true)) else { return }
        now = try await sim.requestCount()
        #expect(e.message.contains(SyncEngine.notOnSelfServe) && now == sent)
        guard case .success = await told.perform(.mute(friend, true)) else {
            Issue.record("a mute was refused on self-serve")
            return
        }
        // A bearer token reads profiles but acts for nobody.
        let c = sim.server.credentials
        let token = try await AppOnlyFlow(http: sim.client.http, apiBase: sim.server.baseURL).obtain(
            consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        let reader = SyncEngine(
            client: TwitterClient(endpoints: .single(sim.server.baseURL), auth: .bearer(token), http: sim.client.http, api: .v2),
            store: TimelineStore(), account: User(id: UserID(0), screenName: "reader", name: "reader"), options: o)
        #expect(try await reader.profile(friend.screenName).relationship == nil)
        sent = try await sim.requestCount()
        guard case .failure(let r) = await reader.perform(.block(friend, true)) else { return }
        now = try await sim.requestCount()
        #expect(r.message == SyncEngine.appOnlyWrites && now == sent)
    }
}
