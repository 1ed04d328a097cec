import Foundation
import LinnetCore
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI
import TwitterSimulator

/// A quote names the quoted post by id (v2's quote_tweet_id, v1.1's attachment_url), so no link
/// is spent from the 280 or billed as one; a key whose access level has no quotes is told so
/// once by X, then by Linnet.
@Suite(.serialized) struct QuoteTests {
    @Test(arguments: [TwitterClient.API.v2, .v1])
    func aQuoteCarriesThePostItQuotes(_ api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let (engine, _) = try await MediaPostTests.engine(sim, api: api)
        let third = try #require(try await sim.truth("home").dropFirst(3).first)
        let target = try #require(TweetID(third))
        guard case .success(let posted) = await engine.perform(.post("worth reading", inReplyTo: nil, quote: target)) else {
            Issue.record("the quote failed")
            return
        }
        #expect(posted.quotedStatusID == target, "\(posted)")
        #expect(!posted.text.contains("http"), "no link in the text: \(posted.text)")
        #expect(posted.entities.urls.isEmpty)
    }

    @Test func quotesRefusedByTheAccessLevelAreRefusedOnTheKeyAfterward() async throws {
        let sim = try await ClientHarness.start { $0.tier = .selfServe }
        defer { Task { await sim.stop() } }
        let (engine, client) = try await MediaPostTests.engine(sim, api: .v2)
        let home = try await client.v2Home(userID: try await client.v2Me().id, .init(maxResults: 10)).tweets.map(\.id)
        try #require(home.count >= 2)
        guard case .failure(let first) = await engine.perform(.post("", inReplyTo: nil, quote: home[0])) else {
            Issue.record("a quote was accepted on self-serve")
            return
        }
        #expect(first.status == 403, "\(first)")
        guard case .failure(let second) = await engine.perform(.post("again", inReplyTo: nil, quote: home[1])) else {
            Issue.record("the second quote was accepted")
            return
        }
        #expect(second.message.contains("Could not post the quote") && second.message.contains("Nothing was sent"), "\(second)")
        guard case .array(let log) = try JSONValue.parse(try await sim.control("GET", "/_sim/requests").body) else {
            Issue.record("the simulator's request log is not a list")
            return
        }
        #expect(log.filter { $0["method"]?.stringValue == "POST" && $0["path"]?.stringValue == "/2/tweets" }.count == 1)
        // Plain posts still go.
        guard case .success = await engine.perform(.post("a plain post", inReplyTo: nil)) else {
            Issue.record("a plain post was refused after a quote was")
            return
        }
    }

    @Test func aKeyKnownToBeSelfServeIsRefusedOnTheKeyFromTheStart() async throws {
        let sim = try await ClientHarness.start { $0.tier = .selfServe }
        defer { Task { await sim.stop() } }
        let client = V2SyncTests.v2Client(sim)
        let me = try await client.v2Me()
        let home = try await client.v2Home(userID: me.id, .init(maxResults: 10)).tweets
        let store = TimelineStore()
        for t in home { await store.add(t, to: [.home]) }
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        o.selfServe = true
        let engine = SyncEngine(client: client, store: store, account: me, options: o)
        let stranger = try #require(
            home.first {
                $0.user.id != me.id && $0.retweetedStatus == nil && !$0.entities.mentions.contains { $0.screenName == me.screenName }
            })
        for action in [WriteAction.like(stranger.id), .post("q", inReplyTo: nil, quote: stranger.id), .post("r", inReplyTo: stranger.id)] {
            guard case .failure(let e) = await engine.perform(action) else {
                Issue.record("\(action) was sent on a key known to be self-serve")
                continue
            }
            #expect(e.message.contains("Nothing was sent"), "\(e.message)")
        }
        guard case .array(let log) = try JSONValue.parse(try await sim.control("GET", "/_sim/requests").body) else {
            Issue.record("the simulator's request log is not a list")
            return
        }
        #expect(!log.contains { $0["method"]?.stringValue == "POST" }, "nothing was sent")
    }
}
