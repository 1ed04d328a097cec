import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// One gate for every billed call: priced before it is sent, refused in words when it could take
/// the day past `budget_per_day`, counted as refused; calls outside the panes included.
@Suite struct BudgetGateTests {
    @Test func callsOutsideThePanesStopAtTheBudget() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let ledger = UsageLedger(fileURL: nil, budgetPerDay: 0.02)
        let (_, client, _, me) = try await V2SyncTests.engine(sim, ledger: ledger)
        // The mute list: a page of up to 1,000 users, priced at $10 before it is sent.
        do {
            _ = try await client.mutedUserIDs(me: me.id)
            Issue.record("a mute-list read past the budget was sent")
        } catch let e as BudgetRefusal {
            #expect(e.description.hasPrefix("Not sent: it could cost up to $10.00"), "\(e)")
        }
        // Followers pages, profiles, lookups: whatever is asked, the day never passes $0.02.
        var refused = 0
        for _ in 0..<20 {
            do {
                _ = try await client.people(of: me, followers: true)
                _ = try await client.profile(screenName: "linnet_demo", me: me)
            } catch is BudgetRefusal { refused += 1 }
        }
        #expect(refused > 0)
        #expect(ledger.todayCost <= 0.02 + 1e-9, "spent \(ledger.todayCost)")
        #expect((ledger.today.refusedCalls ?? 0) >= refused + 1)
        // What the simulator billed is what the ledger counted: nothing refused was sent.
        var billed = ledger.today
        billed.refusedCalls = nil
        #expect(try await V2CostTests.simUsage(sim) == billed)
    }

    @Test func pricesBeforeSending() {
        let me = UserID(7)
        let home = Billable.worstCase(
            method: "GET", path: "/2/users/7/timelines/reverse_chronological",
            params: [("max_results", "20"), ("expansions", "author_id")],
            json: nil)
        #expect(home?.posts.count == 20 && home?.users.count == 20 && home?.owner == nil)
        #expect(TwitterClient.V2Query.perPost.posts.count == 1 && TwitterClient.V2Query.perPost.includedPosts.count == 1)
        #expect(TwitterClient.V2Query.perPost.users.count == 4)
        let mentions = Billable.worstCase(method: "GET", path: "/2/users/7/mentions", params: [], json: nil)
        #expect(mentions?.posts.count == 100 && mentions?.owner == me)
        #expect(Billable.worstCase(method: "GET", path: "/2/users/me", params: [], json: nil)?.users.count == 1)
        #expect(Billable.worstCase(method: "GET", path: "/2/tweets", params: [("ids", "1,2,3")], json: nil)?.posts.count == 3)
        #expect(Billable.worstCase(method: "POST", path: "/2/tweets", params: [], json: Data(#"{"text":"hi"}"#.utf8))?.creates == 1)
        #expect(
            Billable.worstCase(method: "POST", path: "/2/tweets", params: [], json: Data(#"{"text":"see example.com"}"#.utf8))?
                .createsWithURL
                == 1)
        #expect(Billable.worstCase(method: "POST", path: "/2/users/7/likes", params: [], json: nil)?.interactions == 1)
        #expect(Billable.worstCase(method: "POST", path: "/2/oauth2/token", params: [], json: nil) == nil)
        #expect(Billable.worstCase(method: "GET", path: "/1.1/statuses/home_timeline.json", params: [], json: nil) == nil)
        #expect(Billable.worstCase(method: "POST", path: "/2/dm_conversations/with/9/messages", params: [], json: nil)?.interactions == 1)
        // Priced from the post's text, not the JSON around it (where a line end is "\n").
        let body = try! JSONSerialization.data(withJSONObject: ["text": "hi\nhttps://example.com"])
        #expect(Billable.worstCase(method: "POST", path: "/2/tweets", params: [], json: body)?.createsWithURL == 1)
        let ledger = UsageLedger(fileURL: nil, budgetPerDay: 1)
        ledger.identify(me)
        #expect(abs(ledger.price(mentions!) - 0.1) < 1e-9, "owned reads at their price")
    }

    @Test func callsInFlightHoldTheirWorstCase() {
        let ledger = UsageLedger(fileURL: nil, budgetPerDay: 0.02)
        var like = Billable()
        like.interactions = 1
        // Two at once: the second would pass the budget with the first's worst case held.
        #expect(ledger.admit(like) == nil)
        #expect(ledger.admit(like) != nil)
        ledger.settle(like)
        #expect(ledger.admit(like) == nil)
        // Tiny prices and endless budgets give a bounded page, never a trap.
        var prices = UsagePrices()
        prices.postRead = 1e-300
        prices.userRead = 1e-300
        #expect(UsageLedger(fileURL: nil, prices: prices, budgetPerDay: 1e6).affordablePosts(TwitterClient.V2Query.perPost) == 1_000)
    }
}
