import Foundation
import LinnetTestSupport
import Testing

@testable import TwitterAPI

/// Decodes every recorded payload in Tests/Fixtures/api and checks real values.
@Suite struct FixtureDecodingTests {
    enum Shape: Sendable { case tweet, timeline, search, user, rateLimit, error, configuration }

    static let shapes: [String: Shape] = [
        "3.2_extended_tweet_in_compat_mode.json": .tweet, "3.2_extended_tweet_in_extended_mode.json": .tweet,
        "get_help_configuration.json": .configuration, "get_home_timeline.json": .timeline,
        "get_mentions.json": .timeline, "get_search.json": .search, "get_search_geocode.json": .search,
        "get_status.json": .tweet, "get_status_ext_alt.json": .tweet, "get_status_promoted_video_tweet.json": .tweet,
        "get_status_with_place.json": .tweet, "get_user.json": .user, "get_user_timeline.json": .timeline,
        "models_status_quoted_tweet.json": .tweet, "models_status_quoted_tweet_with_media.json": .tweet,
        "post_create_favorite.json": .tweet, "post_destroy_favorite.json": .tweet, "post_destroy_status.json": .tweet,
        "post_retweet.json": .tweet, "post_update.json": .tweet, "public_timeline_error.json": .error,
        "ratelimit.json": .rateLimit, "verify_credentials.json": .user,
    ]

    static func load(_ name: String) throws -> Data { try Fixtures.data("api/\(name)") }

    @Test func everyFixtureFileDecodes() throws {
        let files = try Fixtures.files(in: "api", withExtension: "json").map(\.lastPathComponent)
        #expect(Set(files) == Set(Self.shapes.keys), "a fixture was added or removed; give it a shape here")
        let d = V1Decoder()
        for name in files {
            let data = try Self.load(name)
            switch Self.shapes[name] {
            case .tweet: #expect(try d.tweet(from: data).id.rawValue > 0, "\(name)")
            case .timeline:
                let page = try d.timeline(from: data)
                #expect(!page.tweets.isEmpty && page.problems.isEmpty, "\(name)")
            case .search: #expect(try d.search(from: data).problems.isEmpty, "\(name)")
            case .user: #expect(!(try d.user(from: data).screenName.isEmpty), "\(name)")
            case .rateLimit: #expect(!(try d.rateLimitStatus(from: data).resources.isEmpty))
            case .error: #expect(APIError(httpStatus: 400, body: data).message == "test error")
            case .configuration: #expect(try JSONValue.parse(data)["characters_reserved_per_media"]?.intValue != nil)
            case nil: Issue.record("no shape for \(name)")
            }
        }
    }

    /// A video's length as recorded (`video_info.duration_millis`); a GIF has none.
    @Test func videoLengthsAreKept() throws {
        let d = V1Decoder()
        let promoted = try d.tweet(from: try Self.load("get_status_promoted_video_tweet.json")).entities.media
        #expect(promoted.map(\.type) == ["video"] && promoted.map(\.durationMs) == [62_996])
        let home = try d.timeline(from: try Self.load("get_home_timeline.json")).tweets
        #expect(home[7].content.entities.media.map(\.durationMs) == [20_203])
        #expect(home[0].content.entities.media.map(\.type) == ["animated_gif"] && home[0].content.entities.media[0].durationMs == 0)
        // Kept through a packing and back.
        let packed = Entities(packed: home[7].content.entities.packed())
        #expect(packed.media.map(\.durationMs) == [20_203])
        #expect(Entities.isWellFormedPacking(home[7].content.entities.packed()))
    }

    @Test func homeTimelineValues() throws {
        let page = try V1Decoder().timeline(from: try Self.load("get_home_timeline.json"))
        #expect(page.tweets.count == 20)
        let first = page.tweets[0]
        #expect(first.id == TweetID(674_674_925_823_787_008))
        #expect(first.user.screenName == "__jcbl__")
        #expect(first.createdAt == TwitterDate.parse("Wed Dec 09 19:40:11 +0000 2015"))
        let original = try #require(first.retweetedStatus)
        #expect(original.id == TweetID(674_659_346_127_679_488))
        #expect(original.user.screenName == "pattymo")
        #expect(original.text == "I could watch this for hours and I might https://t.co/rIgO3E2mqI")
        #expect(first.content === original)
        #expect(first.retweetCount == 2358)
    }

    @Test func usersAreInterned() throws {
        let d = V1Decoder()
        let page = try d.timeline(from: try Self.load("get_user_timeline.json"))
        #expect(page.tweets.count == 20)
        #expect(page.tweets.allSatisfy { $0.user === page.tweets[0].user })
        #expect(page.tweets[0].user.screenName == "dewitt")
        let again = try d.timeline(from: try Self.load("get_user_timeline.json"))
        #expect(again.tweets[0].user === page.tweets[0].user)
    }

    /// A user is taken from the cache only when its whole object is the same byte for byte:
    /// objects alike in their first bytes (where the cache looks first) but not after are
    /// parsed on their own.
    @Test func usersAlikeInTheirFirstBytesAreParsedApart() throws {
        func tweet(_ id: Int, followers: String) -> Data {
            let user =
                #"{"id_str":"12","screen_name":"ann","name":"Ann, with a name long enough to pass the first bytes","followers_count":"#
                + followers + "}"
            return Data(#"{"id_str":"\#(id)","created_at":"Wed Oct 10 20:19:24 +0000 2018","text":"hi","user":\#(user)}"#.utf8)
        }
        let d = V1Decoder()
        let a = try d.tweet(from: tweet(1, followers: "10"))
        let b = try d.tweet(from: tweet(2, followers: "10"))
        let c = try d.tweet(from: tweet(3, followers: "11"))
        let e = try d.tweet(from: tweet(4, followers: "100"))
        #expect(b.user === a.user)
        #expect(c.user !== a.user && c.user.followersCount == 11)
        #expect(e.user.followersCount == 100)
        #expect(try d.tweet(from: tweet(5, followers: "11")).user === c.user)
        #expect(try d.tweet(from: tweet(6, followers: "10")).user === a.user)
    }

    @Test func mentionsCarryReplyIds() throws {
        let page = try V1Decoder().timeline(from: try Self.load("get_mentions.json"))
        #expect(page.tweets.count == 19)
        #expect(page.tweets[0].id == TweetID(676_148_312_349_609_985))
        #expect(page.tweets[0].inReplyToStatusID == TweetID(676_147_040_917_790_724))
        #expect(page.tweets[1].inReplyToStatusID == nil)
    }

    @Test func extendedModeGivesFullTextAndHidesMediaLink() throws {
        let t = try V1Decoder().tweet(from: try Self.load("3.2_extended_tweet_in_extended_mode.json"))
        #expect(t.text.hasSuffix("python_twitter.egg-info/SOURCE https://t.co/JWSPztfoyt"))
        #expect(t.displayRange == 0..<140)
        #expect(!t.isTruncated)
        #expect(t.entities.media.first?.range == 141..<164)
        #expect(t.entities.media.first?.display == "pic.twitter.com/JWSPztfoyt")
        let shown = t.displayText
        #expect(shown.text.hasSuffix("python_twitter.egg-info/SOURCE"))
        #expect(!shown.text.contains("t.co"))
    }

    @Test func compatModeIsMarkedTruncatedAndShowsDisplayURL() throws {
        let t = try V1Decoder().tweet(from: try Self.load("3.2_extended_tweet_in_compat_mode.json"))
        #expect(t.isTruncated)
        #expect(t.entities.urls.first?.range == 117..<140)
        let shown = t.displayText
        #expect(shown.text.hasSuffix("pytho… twitter.com/i/web/status/7…"))
        let link = try #require(shown.highlights.first)
        #expect(link.kind == .url(target: "https://twitter.com/i/web/status/782737772490600448"))
        let scalars = Array(shown.text.unicodeScalars)
        #expect(String(String.UnicodeScalarView(scalars[link.range])) == "twitter.com/i/web/status/7…")
    }

    @Test func quotedTweet() throws {
        let t = try V1Decoder().tweet(from: try Self.load("models_status_quoted_tweet.json"))
        #expect(t.id == TweetID(849_424_628_401_541_121))
        let q = try #require(t.quotedStatus)
        #expect(q.id == TweetID(849_412_806_835_351_552))
        #expect(t.quotedStatusID == q.id)
        #expect(q.user.screenName == "kylesethgray")
        #expect(t.entities.urls.map(\.display) == ["wbr.ec/emperorofsand", "twitter.com/i/web/status/8…"])
        #expect(t.displayText.text.hasPrefix("1) Make album wbr.ec/emperorofsand\n2) Release album"))
    }

    @Test func retweetResponse() throws {
        let t = try V1Decoder().tweet(from: try Self.load("post_retweet.json"))
        #expect(t.id == TweetID(967_465_567_773_839_360))
        #expect(t.user.screenName == "__jcbl__")
        #expect(t.text.hasPrefix("RT @xodanix3: "))
        #expect(t.retweetedStatus?.user.screenName == "xodanix3")
    }

    @Test func searchMetadataAndStatuses() throws {
        let r = try V1Decoder().search(from: try Self.load("get_search_geocode.json"))
        #expect(r.statuses.count == 15)
        #expect(r.statuses[0].id == TweetID(676_518_074_279_788_544))
        let m = try #require(r.metadata)
        #expect(m.maxID == TweetID(676_518_074_279_788_544))
        #expect(m.sinceID == TweetID(0))
        #expect(m.count == 15)
        #expect(m.completedIn == 0.042)
        #expect(m.query == "python")
        #expect(m.nextResults == "?max_id=675109065039749119&q=python&geocode=37.781157%2C-122.398720%2C100mi&include_entities=1")
        let plain = try V1Decoder().search(from: try Self.load("get_search.json"))
        #expect(plain.statuses.count == 1 && plain.metadata == nil)
        #expect(plain.statuses[0].text.contains("C++, Java, Python &amp; Ruby"))
        #expect(plain.statuses[0].displayText.text.contains("C++, Java, Python & Ruby"))
    }

    @Test func usersAndRateLimits() throws {
        let d = V1Decoder()
        let me = try d.user(from: try Self.load("verify_credentials.json"))
        #expect(me.id == UserID(4_012_966_701) && me.screenName == "notinourselves")
        let kesuke = try d.user(from: try Self.load("get_user.json"))
        #expect(kesuke.id == UserID(718_443) && kesuke.name == "Kesuke Miyagi")
        let limits = try d.rateLimitStatus(from: try Self.load("ratelimit.json"))
        #expect(limits.context == .user)
        #expect(limits.limit(for: "/statuses/home_timeline") == RateLimit(limit: 15, remaining: 15, reset: 1_452_254_278))
        #expect(limits.resources["search"]?["/search/tweets"]?.limit == 180)
    }

    @Test func everyStreamLineDecodesToTheTweetItNames() throws {
        let data = try Fixtures.data("api/streaming/lines.json")
        let lines = data.split(separator: UInt8(ascii: "\n")).filter { !$0.isEmpty }
        #expect(lines.count == 72)
        let d = V1Decoder()
        for line in lines {
            let raw = Data(line)
            let generic = try JSONValue.parse(raw)
            guard case .tweet(let t) = try d.streamMessage(from: raw) else {
                Issue.record("line did not decode as a tweet")
                continue
            }
            #expect(t.id.description == generic["id_str"]?.stringValue)
            #expect(t.user.screenName == generic["user"]?["screen_name"]?.stringValue)
            let full = generic["extended_tweet"]?["full_text"]?.stringValue ?? generic["text"]?.stringValue
            #expect(t.text == full)
            #expect(!t.isTruncated)
        }
        guard case .tweet(let first) = try d.streamMessage(from: Data(lines[0])) else { return }
        #expect(first.id == TweetID(972_472_958_596_866_048))
        #expect(first.user.screenName == "Ali_Dokhikh")
        #expect(first.displayRange == 0..<237)
        #expect(first.entities.hashtags.first?.text == "Quran")
        #expect(first.entities.hashtags.first?.range == 231..<237)
        #expect(first.lang == "ar")
        #expect(first.displayText.highlights.last?.kind == .hashtag("Quran"))
    }
}
