import Foundation
import Testing

@testable import TwitterAPI

/// The v2 decoder, on answers written from X's documented shapes (docs/PROTOCOL-V2.md §3 and the
/// examples in the OpenAPI contract), not from Linnet's own output.
@Suite struct V2DecoderTests {
    func posts(_ json: String) throws -> V2PostsPage { try V2Decoder().posts(from: Data(json.utf8)) }

    static let timeline = #"""
        {"data":[
          {"id":"1800000000000000003","text":"RT @ada: the original","author_id":"2","created_at":"2026-11-23T10:00:00.000Z",
           "referenced_tweets":[{"type":"retweeted","id":"1800000000000000001"}],"edit_history_tweet_ids":["1800000000000000003"]},
          {"id":"1800000000000000002","text":"@ada agreed, and see this https://t.co/abc","author_id":"3",
           "created_at":"2026-11-23T09:59:00.000Z","in_reply_to_user_id":"2","conversation_id":"1800000000000000001",
           "referenced_tweets":[{"type":"replied_to","id":"1800000000000000001"},{"type":"quoted","id":"1800000000000000000"}],
           "entities":{"mentions":[{"start":0,"end":4,"username":"ada","id":"2"}],
                       "urls":[{"start":26,"end":42,"url":"https://t.co/abc","expanded_url":"https://example.com/page","display_url":"example.com/page"}]},
           "public_metrics":{"retweet_count":3,"reply_count":1,"like_count":12,"quote_count":0},"lang":"en",
           "attachments":{"media_keys":["3_1"]},"edit_history_tweet_ids":["1800000000000000002"]}],
         "includes":{"users":[{"id":"2","name":"Ada Byron","username":"ada"},{"id":"3","name":"Bo","username":"bo","verified":true}],
                     "tweets":[{"id":"1800000000000000001","text":"the original","author_id":"2","created_at":"2026-11-23T08:00:00Z"},
                               {"id":"1800000000000000000","text":"a quoted post","author_id":"3"}],
                     "media":[{"media_key":"3_1","type":"photo","url":"https://pbs.twimg.com/media/x.jpg","width":1200,"height":800,"alt_text":"a linnet"}]},
         "meta":{"newest_id":"1800000000000000003","oldest_id":"1800000000000000002","result_count":2,"next_token":"7140dibdnow9c7btw423"}}
        """#

    @Test func aTimelinePageIsJoinedWithItsIncludes() throws {
        let page = try posts(Self.timeline)
        #expect(page.tweets.count == 2 && page.problems.isEmpty && page.errors.isEmpty)
        let rt = page.tweets[0]
        #expect(rt.id == TweetID(1_800_000_000_000_000_003))
        #expect(rt.user.screenName == "ada" && rt.user.name == "Ada Byron")
        #expect(rt.createdAt == 1_795_428_000)
        #expect(rt.retweetedStatus?.text == "the original")
        #expect(rt.retweetedStatus?.user.screenName == "ada")
        #expect(rt.content.id == TweetID(1_800_000_000_000_000_001))
        #expect(rt.extras == nil, "one version, its own conversation: nothing extra")

        let reply = page.tweets[1]
        #expect(reply.user.screenName == "bo" && reply.user.isVerified)
        #expect(reply.inReplyToStatusID == TweetID(1_800_000_000_000_000_001))
        #expect(reply.inReplyToUserID == UserID(2) && reply.inReplyToScreenName == "ada")
        #expect(reply.quotedStatus?.text == "a quoted post" && reply.quotedStatusID == TweetID(1_800_000_000_000_000_000))
        #expect(reply.entities.mentions.map(\.screenName) == ["ada"])
        #expect(covered(reply.text, reply.entities.mentions[0].range) == "@ada")
        #expect(reply.entities.urls.first?.target == "https://example.com/page")
        #expect(covered(reply.text, reply.entities.urls[0].range) == "https://t.co/abc")
        #expect(reply.entities.media.first?.type == "photo")
        #expect(reply.entities.media.first?.mediaURL == "https://pbs.twimg.com/media/x.jpg")
        #expect(reply.retweetCount == 3 && reply.favoriteCount == 12 && reply.lang == "en")
        #expect(reply.extras?.conversationID == TweetID(1_800_000_000_000_000_001))

        #expect(page.meta.newestID == TweetID(1_800_000_000_000_000_003))
        #expect(page.meta.resultCount == 2 && page.meta.nextToken == "7140dibdnow9c7btw423")
    }

    /// `includes` may come before `data`; the join does not depend on the order.
    @Test func includesBeforeDataJoinAlike() throws {
        let reordered =
            #"{"includes":{"users":[{"id":"2","name":"Ada","username":"ada"}]},"data":[{"id":"5","text":"hi","author_id":"2"}]}"#
        let page = try posts(reordered)
        #expect(page.tweets.first?.user.screenName == "ada")
    }

    /// Offsets count code points of the text as delivered (HTML-escaped): after a bird outside
    /// the BMP and after `&amp;` they still land on the entity.
    @Test func entityOffsetsAreCodePointsOnTheEscapedText() throws {
        let json = #"""
            {"data":{"id":"9","text":"🐦 &amp; @ada #tag https://t.co/x","entities":{
              "mentions":[{"start":8,"end":12,"username":"ada","id":"2"}],
              "hashtags":[{"start":13,"end":17,"tag":"tag"}],
              "cashtags":[{"start":40,"end":44,"tag":"FAR"}],
              "urls":[{"start":18,"end":32,"url":"https://t.co/x","expanded_url":"https://example.org/","display_url":"example.org"}]}}}
            """#
        let t = try #require(try posts(json).tweets.first)
        #expect(covered(t.text, t.entities.mentions[0].range) == "@ada")
        #expect(covered(t.text, t.entities.hashtags[0].range) == "#tag")
        #expect(covered(t.text, t.entities.urls[0].range) == "https://t.co/x")
        #expect(t.entities.hashtags.count == 1, "an entity past the end of the text is dropped")
    }

    /// A long post: `text` holds the cut, `note_tweet` the whole text with its own entities.
    /// The fast code-point count agrees with Swift's on every kind of text, also past the
    /// 4,080 bytes its byte lanes hold before they are summed.
    @Test(arguments: [
        "", "a", "hello world, plain ASCII text of some length", "🐦 &amp; @ada", "नमस्ते दुनिया हिन्दी", "👨‍👩‍👧‍👦🏳️‍🌈", "e\u{301}te\u{301}",
        String(repeating: "日本語", count: 40), String(repeating: "日本語🐦aé", count: 400),
    ])
    func codePointsAreCounted(_ text: String) {
        #expect(Array(text.utf8).withUnsafeBufferPointer(V2Decoder.codePoints) == text.unicodeScalars.count)
    }

    /// The code points two texts begin with alike, counted on their bytes, agree with Swift's
    /// scalars, also where they part inside a scalar (é and è share their first byte).
    @Test(arguments: [
        ("", ""), ("abc", "abd"), ("abc", "abcdef"), ("café", "cafè"), ("日本語", "日本人"), ("🐦x", "🐧x"), ("a\u{301}", "a"),
        ("same", "same"),
    ])
    func sharedCodePointsAreCounted(_ a: String, _ b: String) {
        var scalars = 0
        for (x, y) in zip(a.unicodeScalars, b.unicodeScalars) {
            guard x == y else { break }
            scalars += 1
        }
        let bytes = Array(a.utf8).withUnsafeBufferPointer { x in
            Array(b.utf8).withUnsafeBufferPointer { V2Decoder.sharedCodePoints(x, $0) }
        }
        #expect(bytes == scalars)
    }

    @Test func aLongPostShowsItsNoteText() throws {
        let long = String(repeating: "word ", count: 80) + "@ada"
        let json = """
            {"data":{"id":"10","text":"\(String(long.prefix(270)))…","note_tweet":{"text":"\(long)",
              "entities":{"mentions":[{"start":400,"end":404,"username":"ada"}]}}}}
            """
        let t = try #require(try posts(json).tweets.first)
        #expect(t.text == long)
        #expect(t.extras?.isLongPost == true)
        #expect(covered(t.text, t.entities.mentions[0].range) == "@ada")
    }

    /// Edits: the history runs oldest first and ends with this version, which replaces the rest.
    @Test func editsNameTheOlderVersions() throws {
        let json =
            #"{"data":{"id":"30","text":"fixed typo","edit_history_tweet_ids":["10","20","30"],"edit_controls":{"edits_remaining":"3","is_edit_eligible":true,"editable_until":"2026-11-23T11:00:00.000Z"}}}"#
        let t = try #require(try posts(json).tweets.first)
        #expect(t.extras?.olderVersions == [TweetID(10), TweetID(20)])
    }

    /// An older version, looked up by its own id, names the newest that replaces it.
    @Test func anOlderVersionNamesTheNewest() throws {
        let json = #"{"data":{"id":"20","text":"almost","edit_history_tweet_ids":["10","20","30"]}}"#
        let t = try #require(try posts(json).tweets.first)
        #expect(t.extras?.olderVersions == [TweetID(10)] && t.extras?.newestVersion == TweetID(30))
    }

    @Test func withheldPostsSayWhere() throws {
        let json = #"{"data":{"id":"40","text":"not here","withheld":{"copyright":false,"country_codes":["DE","FR"]}}}"#
        let t = try #require(try posts(json).tweets.first)
        #expect(t.extras?.withheldIn == ["DE", "FR"] && t.extras?.withheldForCopyright == false)
    }

    /// A deleted id asked for beside a live one: the live post and the error, both kept.
    @Test func partialErrorsBesideData() throws {
        let json = #"""
            {"data":[{"id":"50","text":"still here"}],
             "errors":[{"value":"51","detail":"Could not find tweet with ids: [51].","title":"Not Found Error",
                        "resource_type":"tweet","parameter":"ids","resource_id":"51","type":"https://api.twitter.com/2/problems/resource-not-found"}]}
            """#
        let page = try posts(json)
        #expect(page.tweets.map(\.id) == [TweetID(50)])
        #expect(page.errors.count == 1)
        #expect(page.errors[0].kind == "resource-not-found" && page.errors[0].resourceID == "51")
        #expect(page.errors[0].description == "Could not find tweet with ids: [51].")
    }

    /// The Post spellings of the newer contract read like the Tweet ones.
    @Test func postSpellingsReadLikeTweetSpellings() throws {
        let json = #"""
            {"data":[{"id":"61","text":"RT @ada: x","author_id":"2","referenced_posts":[{"type":"retweeted","id":"60"}],
                      "edit_history_post_ids":["59","61"],"public_metrics":{"repost_count":"7","like_count":"2"}},
                     {"id":"62","text":"cut","note_post":{"text":"the whole long text"}}],
             "includes":{"posts":[{"id":"60","text":"x","author_id":"2"}],"users":[{"id":"2","name":"Ada","username":"ada"}]}}
            """#
        let page = try posts(json)
        #expect(page.tweets[0].retweetedStatus?.id == TweetID(60))
        #expect(page.tweets[0].extras?.olderVersions == [TweetID(59)])
        #expect(page.tweets[0].retweetCount == 7 && page.tweets[0].favoriteCount == 2, "counts as strings are read")
        #expect(page.tweets[1].text == "the whole long text")
    }

    /// The contract's own Tweet example: a `created_at` in the v1.1 form, ids as strings.
    @Test func theContractsTweetExampleDecodes() throws {
        let example =
            #"{"data":{"author_id":"2244994945","created_at":"Wed Jan 06 18:40:40 +0000 2021","id":"1346889436626259968","text":"Learn how to use the user Tweet timeline and user mention timeline endpoints in the X API v2 to explore Tweet\u2026 https:\/\/t.co\/56a0vZUx7i","username":"XDevelopers"}}"#
        let t = try #require(try posts(example).tweets.first)
        #expect(t.createdAt == 1_609_958_440)
        #expect(t.text.hasSuffix("https://t.co/56a0vZUx7i"))
        #expect(t.user.id == UserID(2_244_994_945))
    }

    /// Only `id` is required: without `created_at` the time comes from the Snowflake id (the
    /// same post as the example above, 2021-01-06 18:40:40 UTC).
    @Test func onlyTheIdIsRequired() throws {
        let t = try #require(try posts(#"{"data":{"id":"1346889436626259968"}}"#).tweets.first)
        #expect(t.createdAt == 1_609_958_440)
        #expect(t.text.isEmpty && t.user.screenName.isEmpty)
        let page = try posts(#"{"data":[{"text":"no id"},7,{"id":12345}]}"#)
        #expect(page.tweets.map(\.id) == [TweetID(12345)], "a numeric id is read too")
        #expect(page.problems.count == 2)
    }

    @Test func usersMe() throws {
        let json =
            #"{"data":{"id":"2244994945","name":"X Dev","username":"TwitterDev","protected":false,"created_at":"2013-12-14T04:35:55Z","public_metrics":{"followers_count":513958,"following_count":2039,"tweet_count":3635,"listed_count":1672},"description":"The voice of the X Dev team"}}"#
        let page = try V2Decoder().users(from: Data(json.utf8))
        let u = try #require(page.users.first)
        #expect(u.id == UserID(2_244_994_945) && u.screenName == "TwitterDev" && u.name == "X Dev")
        #expect(u.createdAt == 1_386_995_755)
        #expect(u.followersCount == 513_958 && u.friendsCount == 2039 && u.statusesCount == 3635)
        #expect(u.userDescription == "The voice of the X Dev team")
    }

    @Test func filteredStreamLines() throws {
        let d = V2Decoder()
        let line =
            #"{"data":{"id":"70","text":"linnet spotted","author_id":"2"},"includes":{"users":[{"id":"2","name":"Ada","username":"ada"}]},"matching_rules":[{"id":"1166916266197536768","tag":"linnet:search:linnet"}]}"#
        guard case .post(let t, let rules) = try d.streamMessage(bytes: Array(line.utf8)) else {
            Issue.record("not a post")
            return
        }
        #expect(t.user.screenName == "ada")
        #expect(rules == [V2MatchingRule(id: "1166916266197536768", tag: "linnet:search:linnet")])
        let disconnect =
            #"{"errors":[{"title":"operational-disconnect","disconnect_type":"UpstreamOperationalDisconnect","detail":"This stream has been disconnected upstream for operational reasons.","type":"https://api.twitter.com/2/problems/operational-disconnect"}]}"#
        guard case .disconnect(let p) = try d.streamMessage(bytes: Array(disconnect.utf8)) else {
            Issue.record("not a disconnect")
            return
        }
        #expect(p.disconnectType == "UpstreamOperationalDisconnect")
        let tooMany =
            #"{"title":"ConnectionException","detail":"This stream is currently at the maximum allowed connection limit.","connection_issue":"TooManyConnections","type":"https://api.twitter.com/2/problems/streaming-connection"}"#
        #expect(try d.problems(from: Data(tooMany.utf8)).first?.connectionIssue == "TooManyConnections")
    }

    @Test func errorAnswers() throws {
        let d = V2Decoder()
        let problem = #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#
        let p = try d.problems(from: Data(problem.utf8))
        #expect(p.count == 1 && p[0].status == 401 && p[0].title == "Unauthorized")
        let v1 =
            #"{"errors":[{"message":"You currently have access to a subset of X API V2 endpoints and limited v1.1 endpoints only.","code":453}]}"#
        #expect(try d.problems(from: Data(v1.utf8)).first?.code == 453)
        #expect(throws: (any Error).self) { try d.posts(from: Data("{\"data\":[".utf8)) }
    }
}
