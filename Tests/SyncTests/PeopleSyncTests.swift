import Foundation
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
            p.relationship == TwitterClient.Relationship(following: true, followedBy: p.relationship?.followedBy ?? false, muting: true))
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
}
