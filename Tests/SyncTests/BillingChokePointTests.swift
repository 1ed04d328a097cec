import Foundation
import LinnetCore
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// Every billed call is counted in one place (the client's `send`, and the stream): walking
/// every operation of the v2 face and the client against the simulator, the ledger agrees with
/// the simulator's own bill after each call, whichever call it was.
@Suite(.serialized) struct BillingChokePointTests {
    @Test func theLedgerMatchesTheSimulatorCallByCall() async throws {
        let sim = try await ClientHarness.start { $0.users = 30 }
        defer { Task { await sim.stop() } }
        let ledger = UsageLedger(fileURL: nil)
        let client = V2CostTests.client(sim, ledger: ledger)
        let face = client.face()
        #expect(face.billsReads)
        var checked: [String] = []
        func step(_ name: String, _ body: () async throws -> Void) async throws {
            try await body()
            let billed = try await V2CostTests.simUsage(sim)
            #expect(ledger.today == billed, "after \(name): Linnet counted \(ledger.today), the simulator billed \(billed)")
            checked.append(name)
        }

        var me = User(id: UserID(0), screenName: "", name: "")
        try await step("me") { me = try await client.me() }
        ledger.identify(me.id)
        face.know(reader: me)
        var home: [Tweet] = []
        try await step("home") { home = try await face.page(.home, PageAsk(count: 30), me: me.id).tweets }
        let other = try #require(home.first { $0.user.id != me.id }?.user)
        try await step("home again (read today: not billed again)") { _ = try await face.page(.home, PageAsk(count: 30), me: me.id) }
        try await step("mentions (owned reads)") { _ = try await face.page(.mentions, PageAsk(count: 10), me: me.id) }
        try await step("own posts (owned reads)") { _ = try await face.page(.user(me.screenName), PageAsk(count: 10), me: me.id) }
        try await step("a user's posts") { _ = try await face.page(.user(other.screenName), PageAsk(count: 10), me: me.id) }
        try await step("older posts") {
            _ = try await face.page(.home, PageAsk(count: 10, maxID: home.last.map { TweetID($0.id.rawValue - 1) }), me: me.id)
        }
        try await step("own likes") { _ = try await face.page(.likes(""), PageAsk(count: 10), me: me.id) }
        try await step("search") { _ = try await face.page(.search("the"), PageAsk(count: 10), me: nil) }
        try await step("raw items") { _ = try await face.rawItems(.mentions, PageAsk(count: 5), me: me.id) }
        let lists = try await client.lists(me: me)
        try await step("lists (their owners)") { _ = try await client.lists(me: me) }
        if let list = lists.first {
            try await step("a list's posts") { _ = try await face.page(.list(list.reference), PageAsk(count: 10), me: me.id) }
        }
        let target = try #require(home.first { $0.user.id != me.id && $0.retweetedStatus == nil })
        try await step("one post") { _ = try await face.post(target.id) }
        try await step("a thread's replies") { _ = try await face.replies(to: target) }
        var posted: [TweetID] = []
        try await step("a post") { posted.append(try await face.publish(Draft(text: "billed once")).id) }
        try await step("a post with a link") { posted.append(try await face.publish(Draft(text: "see linnet.dev/cost")).id) }
        try await step("a reply") {
            posted.append(try await face.publish(Draft(text: "@\(target.user.screenName) yes", replyTo: target.id)).id)
        }
        try await step("a like") { _ = try await face.setLiked(true, target.id, me: me.id) }
        try await step("a like undone") { _ = try await face.setLiked(false, target.id, me: me.id) }
        try await step("a repost") { _ = try await face.setRetweeted(true, target.id, me: me.id) }
        try await step("a repost undone") { _ = try await face.setRetweeted(false, target.id, me: me.id) }
        try await step("a delete") { _ = try await face.delete(posted[0]) }
        try await step("a profile") { _ = try await client.profile(screenName: other.screenName, me: me) }
        try await step("followers") { _ = try await client.people(of: other, followers: true) }
        try await step("following") { _ = try await client.people(of: other, followers: false) }
        try await step("users by id") { _ = try await client.users(ids: [other.id]) }
        try await step("a follow") { try await client.setFollowing(true, user: other.id, me: me.id) }
        try await step("a follow undone") { try await client.setFollowing(false, user: other.id, me: me.id) }
        try await step("a mute") { try await client.setMuted(true, user: other.id, me: me.id) }
        try await step("mutes") { _ = try await client.mutedUserIDs(me: me.id) }
        try await step("a mute undone") { try await client.setMuted(false, user: other.id, me: me.id) }
        var messages: MessagePage?
        try await step("messages") { messages = try await client.messages(me: me) }
        if let peer = messages?.users.first(where: { $0.id != me.id }) {
            try await step("a message sent") { _ = try await client.sendMessage("billed as one", to: peer.id, me: me) }
        }
        // Every kind of bill came up, and the money agrees too.
        let total = ledger.today
        #expect(total.postReads > 0 && total.ownedReads > 0 && total.userReads > 0)
        #expect(total.postsCreated == 2 && total.postsCreatedWithURL == 1 && total.postsDeleted == 1 && total.interactions >= 6)
        #expect(checked.count == 33 && checked.contains("a list's posts") && checked.contains("a message sent"), "\(checked)")
    }
}
