import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI

@testable import TwitterSimulator

/// REST endpoints, paging and shapes (read back with Linnet's own decoder).
@Suite(.serialized) struct SimEndpointTests {
    @Test func homePagingFollowsSinceAndMaxRules() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let truth = try await sim.truth("home")
        #expect(truth.count > 40)
        let d = V1Decoder()
        let first = try d.timeline(from: try await sim.call("GET", "/1.1/statuses/home_timeline.json", [("count", "10")]).body)
        #expect(first.tweets.map(\.id.description) == Array(truth.prefix(10)))
        let lowest = try #require(first.tweets.last).id.rawValue
        let second = try d.timeline(
            from: try await sim.call(
                "GET", "/1.1/statuses/home_timeline.json", [("count", "10"), ("max_id", String(lowest - 1))]
            ).body)
        #expect(second.tweets.map(\.id.description) == Array(truth[10..<20]))
        // max_id is inclusive, since_id exclusive.
        let inclusive = try d.timeline(
            from: try await sim.call(
                "GET", "/1.1/statuses/home_timeline.json", [("count", "1"), ("max_id", String(lowest))]
            ).body)
        #expect(inclusive.tweets.first?.id.rawValue == lowest)
        let newer = try d.timeline(
            from: try await sim.call(
                "GET", "/1.1/statuses/home_timeline.json", [("since_id", truth[3]), ("count", "200")]
            ).body)
        #expect(newer.tweets.map(\.id.description) == Array(truth.prefix(3)))
        let bad = try await sim.call("GET", "/1.1/statuses/home_timeline.json", [("max_id", "abc")])
        #expect(bad.status == 400)
    }

    @Test func mentionsAndUserTimelines() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let mentions = try V1Decoder().timeline(
            from: try await sim.call("GET", "/1.1/statuses/mentions_timeline.json", [("count", "200")]).body)
        #expect(!mentions.tweets.isEmpty)
        #expect(mentions.tweets.allSatisfy { $0.text.lowercased().contains("@linnet_demo") })
        #expect(mentions.tweets.map(\.id.description) == Array(try await sim.truth("mentions").prefix(200)))
        let ada = try V1Decoder().timeline(
            from: try await sim.call(
                "GET", "/1.1/statuses/user_timeline.json", [("screen_name", "ada"), ("count", "200")]
            ).body)
        #expect(!ada.tweets.isEmpty && ada.tweets.allSatisfy { $0.user.screenName == "ada" })
        let missing = try await sim.call("GET", "/1.1/statuses/user_timeline.json", [("screen_name", "nobody_here")])
        #expect(missing.status == 404)
    }

    @Test func shapesDecodeWithEntitiesAndEscaping() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let page = try V1Decoder().timeline(
            from: try await sim.call(
                "GET", "/1.1/statuses/user_timeline.json", [("screen_name", "ada"), ("count", "200"), ("tweet_mode", "extended")]
            ).body)
        let all = try V1Decoder().search(
            from: try await sim.call("GET", "/1.1/search/tweets.json", [("q", "the OR a OR with OR reading OR shipped"), ("count", "100")])
                .body)
        let tweets = page.tweets + all.statuses
        #expect(!tweets.isEmpty)
        for t in tweets {
            let scalars = Array(t.text.unicodeScalars)
            for link in t.entities.urls {
                #expect(String(String.UnicodeScalarView(scalars[link.range])).hasPrefix("https://t.co/"))
            }
            for m in t.entities.mentions {
                #expect(String(String.UnicodeScalarView(scalars[m.range])).lowercased() == "@" + m.screenName.lowercased())
            }
            #expect(!t.text.contains("<") && !t.text.contains(">"), "text must be HTML-escaped")
        }
        #expect(tweets.contains { !$0.entities.urls.isEmpty })
    }

    @Test func longTweetsAreCutInCompatibilityModeOnly() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let long = String(repeating: "word ", count: 50) + "end"
        let posted = try await sim.call("POST", "/1.1/statuses/update.json", [("status", long)])
        #expect(posted.status == 200)
        let id = try #require(try sim.json(posted)["id_str"]?.stringValue)
        let compat = try V1Decoder().tweet(from: try await sim.call("GET", "/1.1/statuses/show/\(id).json").body)
        #expect(compat.isTruncated)
        #expect(compat.text.unicodeScalars.count == 140)
        #expect(compat.text.contains("… https://t.co/"))
        #expect(compat.entities.urls.last?.target == "https://twitter.com/i/web/status/\(id)")
        let extended = try V1Decoder().tweet(
            from: try await sim.call("GET", "/1.1/statuses/show.json", [("id", id), ("tweet_mode", "extended")]).body)
        #expect(!extended.isTruncated && extended.text == long)
    }

    @Test func updateRulesAndReplies() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let tooLong = try await sim.call("POST", "/1.1/statuses/update.json", [("status", String(repeating: "漢", count: 141))])
        #expect(tooLong.status == 403 && sim.errorCode(tooLong) == 186)
        let fits = try await sim.call("POST", "/1.1/statuses/update.json", [("status", String(repeating: "漢", count: 140))])
        #expect(fits.status == 200)
        let once = try await sim.call("POST", "/1.1/statuses/update.json", [("status", "same words")])
        let twice = try await sim.call("POST", "/1.1/statuses/update.json", [("status", "same words")])
        #expect(once.status == 200 && twice.status == 403 && sim.errorCode(twice) == 187)
        let missing = try await sim.call("POST", "/1.1/statuses/update.json")
        #expect(missing.status == 400)

        let parentID = try #require(try await sim.truth("mentions").first)
        let reply = try await sim.call(
            "POST", "/1.1/statuses/update.json",
            [
                ("status", "thanks!"), ("in_reply_to_status_id", parentID), ("auto_populate_reply_metadata", "true"),
                ("tweet_mode", "extended"),
            ])
        let t = try V1Decoder().tweet(from: reply.body)
        #expect(t.inReplyToStatusID?.description == parentID)
        #expect(t.text.hasPrefix("@") && t.text.hasSuffix("thanks!"))
        #expect(t.displayText.text == "thanks!")
        let ignored = try await sim.call(
            "POST", "/1.1/statuses/update.json", [("status", "no mention"), ("in_reply_to_status_id", parentID)])
        #expect(try V1Decoder().tweet(from: ignored.body).inReplyToStatusID == nil)
        #expect(try await sim.truth("user").contains(t.id.description))
    }

    @Test func retweetLikeDeleteCycle() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let target = try #require(try await sim.truth("mentions").first)
        let rt = try await sim.call("POST", "/1.1/statuses/retweet/\(target).json")
        #expect(rt.status == 200)
        let rtTweet = try V1Decoder().tweet(from: rt.body)
        #expect(rtTweet.retweetedStatus?.id.description == target && rtTweet.retweetedStatus?.isRetweeted == true)
        let again = try await sim.call("POST", "/1.1/statuses/retweet/\(target).json")
        #expect(again.status == 403 && sim.errorCode(again) == 327)
        #expect(try await sim.call("POST", "/1.1/statuses/unretweet/\(target).json").status == 200)
        #expect(try await sim.truth("deleted").contains(rtTweet.id.description))

        let fav = try await sim.call("POST", "/1.1/favorites/create.json", [("id", target)])
        let favTweet = try V1Decoder().tweet(from: fav.body)
        #expect(fav.status == 200 && favTweet.isFavorited)
        let favAgain = try await sim.call("POST", "/1.1/favorites/create.json", [("id", target)])
        #expect(favAgain.status == 403 && sim.errorCode(favAgain) == 139)
        let unfav = try await sim.call("POST", "/1.1/favorites/destroy.json", [("id", target)])
        let unfavTweet = try V1Decoder().tweet(from: unfav.body)
        #expect(unfav.status == 200 && !unfavTweet.isFavorited)

        let othersDelete = try await sim.call("POST", "/1.1/statuses/destroy/\(target).json")
        #expect(othersDelete.status == 403)
        let mine =
            try sim.json(try await sim.call("POST", "/1.1/statuses/update.json", [("status", "delete me")]))["id_str"]?.stringValue ?? ""
        #expect(try await sim.call("POST", "/1.1/statuses/destroy/\(mine).json").status == 200)
        let gone = try await sim.call("GET", "/1.1/statuses/show/\(mine).json")
        #expect(gone.status == 404 && sim.errorCode(gone) == 144)
        #expect(try await sim.call("POST", "/1.1/statuses/retweet/notanumber.json").status == 404)
    }

    @Test func searchOperatorsAndPaging() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        func search(_ q: String, _ extra: [(String, String)] = []) async throws -> SearchResponse {
            try V1Decoder().search(from: try await sim.call("GET", "/1.1/search/tweets.json", [("q", q)] + extra).body)
        }
        let fromAda = try await search("from:ada", [("count", "100")])
        #expect(!fromAda.statuses.isEmpty && fromAda.statuses.allSatisfy { $0.user.screenName == "ada" })
        let mention = try await search("@linnet_demo", [("count", "100")])
        #expect(!mention.statuses.isEmpty && mention.statuses.allSatisfy { $0.text.lowercased().contains("@linnet_demo") })
        let phrase = try await search("\"Just shipped\"", [("count", "100")])
        #expect(!phrase.statuses.isEmpty && phrase.statuses.allSatisfy { $0.text.contains("Just shipped") })
        let negated = try await search("shipped -tests", [("count", "100")])
        #expect(negated.statuses.allSatisfy { !$0.text.lowercased().contains(" tests ") })
        let either = try await search("from:ada OR from:hanako", [("count", "100")])
        #expect(Set(either.statuses.map(\.user.screenName)).isSubset(of: ["ada", "hanako"]))

        let firstPage = try await search("shipped", [("count", "3")])
        #expect(firstPage.statuses.count == 3)
        let next = try #require(firstPage.metadata?.nextResults)
        let nextParams = PercentEncoding.parseForm(String(next.dropFirst()))
        let secondPage = try V1Decoder().search(from: try await sim.call("GET", "/1.1/search/tweets.json", nextParams).body)
        #expect(Set(secondPage.statuses.map(\.id)).isDisjoint(with: firstPage.statuses.map(\.id)))
        #expect(secondPage.statuses.first.map { $0.id < firstPage.statuses.last!.id } == true)
        #expect(firstPage.metadata?.refreshURL?.hasPrefix("?since_id=") == true)
        let missing = try await sim.call("GET", "/1.1/search/tweets.json")
        #expect(missing.status == 400)
    }
}
