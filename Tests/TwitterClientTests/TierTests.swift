import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI
import TwitterSimulator

/// The simulator's access levels with X's errors, named by the client; and the usage ledger
/// that counts what X would bill.
@Suite(.serialized) struct TierTests {
    @Test func selfServeRestrictionsAreNamed() async throws {
        let h = try await ClientHarness.start { $0.tier = .selfServe }
        defer { Task { await h.stop() } }
        do {
            _ = try await h.client.homeTimeline()
            Issue.record("v1.1 home was served on self-serve")
        } catch let e as APIError {
            #expect(e.code == 453 && e.tierRestriction == .v1NotOnTier)
        }
        let me = try await h.client.v2Me()
        let home = try await h.client.v2Home(userID: me.id, .init(maxResults: 20))
        #expect(!home.tweets.isEmpty)
        let stranger = try #require(
            home.tweets.first { t in t.retweetedStatus == nil && t.user.id != me.id && !t.entities.mentions.contains { $0.userID == me.id }
            })
        do {
            try await h.client.v2Like(userID: me.id, stranger.id)
            Issue.record("a like was accepted on self-serve")
        } catch let e as APIError {
            #expect(e.tierRestriction == .notEnrolled)
        }
        do {
            _ = try await h.client.v2Create(text: "quoting", quote: stranger.id)
            Issue.record("a quote was accepted on self-serve")
        } catch let e as APIError {
            #expect(e.tierRestriction == .notEnrolled)
        }
        do {
            _ = try await h.client.v2Create(text: "hello there", replyTo: stranger.id)
            Issue.record("a reply to a post that does not mention us was accepted")
        } catch let e as APIError {
            #expect(e.tierRestriction == .replyNotAllowed)
            #expect(e.explanation.contains("mentioned or quoted"))
        }
        let mention = try #require(try await h.client.v2Mentions(userID: me.id, .init(maxResults: 10)).tweets.first)
        let reply = try await h.client.v2Create(text: "thanks for the mention", replyTo: mention.id)
        #expect(try await h.client.v2Lookup([reply]).tweets.first?.inReplyToStatusID == mention.id)
    }

    @Test func theLedgerCountsAsXBills() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        func usage() async throws -> JSONValue { try JSONValue.parse(try await h.control("GET", "/_sim/usage").body) }
        let me = try await h.client.v2Me()
        let page = try await h.client.v2Home(userID: me.id, .init(maxResults: 10))
        let first = try await usage()
        let reads = Int(first["post_reads"]?.intValue ?? 0)
        #expect(reads >= 10, "ten posts and what they reference")
        // The same page again on the same day costs nothing more.
        _ = try await h.client.v2Home(userID: me.id, .init(maxResults: 10))
        #expect(try await usage()["post_reads"]?.intValue == first["post_reads"]?.intValue)
        // Mentions of the token's own user are owned reads, at a fifth of the price.
        let mentions = try await h.client.v2Mentions(userID: me.id, .init(maxResults: 5))
        #expect(try await usage()["owned_reads"]?.intValue == Int64(mentions.tweets.count))
        _ = try await h.client.v2Create(text: "with a link https://example.com/a")
        _ = try await h.client.v2Create(text: "without one")
        let u = try await usage()
        #expect(u["posts_created_with_url"]?.intValue == 1 && u["posts_created"]?.intValue == 1)
        let expected =
            Double(u["post_reads"]?.intValue ?? 0) * 0.005 + Double(u["owned_reads"]?.intValue ?? 0) * 0.001
            + Double(u["user_reads"]?.intValue ?? 0) * 0.010 + 0.20 + 0.015
        guard case .number(let text)? = u["cost_usd"], let cost = Double(text) else {
            Issue.record("no cost in \(u)")
            return
        }
        #expect(abs(cost - expected) < 0.001, "cost \(cost), expected \(expected)")
        #expect(!page.tweets.isEmpty)
    }
}
