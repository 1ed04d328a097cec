import Foundation
import LinnetTestSupport
import Testing

@testable import TwitterAPI

/// Bad input: a broken tweet costs only itself; broken JSON is an error, never a crash.
@Suite struct RobustDecodingTests {
    static let user = #"{"id_str":"7","screen_name":"ann","name":"Ann"}"#

    static func tweetJSON(_ id: String, text: String = "hi", extra: String = "") -> String {
        #"{"id_str":"\#(id)","text":"\#(text)","user":\#(user)\#(extra)}"#
    }

    @Test func malformedTweetInAPageIsSkippedAndReported() throws {
        let page =
            "["
            + [
                Self.tweetJSON("3"), #"{"id_str":"2","text":"no user"}"#, #""a string""#, Self.tweetJSON("1"),
            ].joined(separator: ",") + "]"
        let result = try V1Decoder().timeline(from: Data(page.utf8))
        #expect(result.tweets.map(\.id) == [TweetID(3), TweetID(1)])
        #expect(result.problems.map(\.index) == [1, 2])
        #expect(result.problems[0].reason.contains("no user"))
    }

    @Test func realPageWithOneBrokenTweetKeepsTheOthers() throws {
        let real = try Fixtures.data("api/get_home_timeline.json")
        var text = String(decoding: real, as: UTF8.self)
        text.insert(contentsOf: #"{"id_str":"99","user":"not an object"},"#, at: text.index(after: text.startIndex))
        let result = try V1Decoder().timeline(from: Data(text.utf8))
        #expect(result.tweets.count == 20)
        #expect(result.problems.count == 1)
    }

    @Test func unknownFieldsAndOddTypesAreIgnored() throws {
        let json = Self.tweetJSON(
            "5",
            extra:
                #","new_field":{"deep":[1,2,{"x":null}]},"retweet_count":"many","favorited":null,"entities":{"hashtags":[{"text":"ok","indices":[0,2]},{"text":"bad","indices":[9,1]}],"urls":"oops"}"#
        )
        let t = try V1Decoder().tweet(from: Data(json.utf8))
        #expect(t.retweetCount == 0)
        #expect(!t.isFavorited)
        #expect(t.entities.hashtags.map(\.text) == ["ok"])
        #expect(t.entities.urls.isEmpty)
    }

    @Test func idsBeyondDoublePrecisionSurvive() throws {
        let json = Self.tweetJSON("583754843887570945", extra: #","id":583754843887571000"#)
        let t = try V1Decoder().tweet(from: Data(json.utf8))
        #expect(t.id.rawValue == 583_754_843_887_570_945)
        #expect(t.createdAt == 1_428_012_975)  // from the snowflake when created_at is missing
    }

    /// A tweet's time: `created_at` when it came, else the stream's `timestamp_ms` (a string
    /// of milliseconds), else the id's snowflake; a `timestamp_ms` that is not such a string
    /// counts as absent, and a malformed one still fails the tweet.
    @Test func theTimeComesFromCreatedAtThenTheStreamsTimestampThenTheID() throws {
        func time(_ extra: String) throws -> Int64 {
            try V1Decoder().tweet(from: Data(Self.tweetJSON("583754843887570945", extra: extra).utf8)).createdAt
        }
        let created = #","created_at":"Wed Oct 10 20:19:24 +0000 2018""#
        #expect(try time(created + #","timestamp_ms":"1520690595660""#) == 1_539_202_764)
        #expect(try time(#","timestamp_ms":"1520690595660""# + created) == 1_539_202_764)
        #expect(try time(#","timestamp_ms":"1520690595660""#) == 1_520_690_595)
        #expect(try time(#","timestamp_ms":"\u0031520690595660""#) == 1_520_690_595)
        #expect(try time(#","timestamp_ms":1520690595660"#) == 1_428_012_975)
        #expect(try time(#","timestamp_ms":"soon""#) == 1_428_012_975)
        #expect(try time(#","timestamp_ms":"1520690595660","timestamp_ms":null"#) == 1_428_012_975)
        // A bad escape fails the tweet whether or not the value is needed.
        #expect(throws: JSONError.self) { try time(#","timestamp_ms":"\q""#) }
        #expect(throws: JSONError.self) { try time(created + #","timestamp_ms":"\q""#) }
    }

    @Test func invalidUTF8BecomesReplacementCharacter() throws {
        var bytes = Array(Self.tweetJSON("6", text: "ab").utf8)
        let at = try #require(bytes.firstIndex(of: UInt8(ascii: "b")))
        bytes.insert(0xFF, at: at)
        let t = try V1Decoder().tweet(from: Data(bytes))
        #expect(t.text == "a\u{FFFD}b")
    }

    /// The texts a tweet is made of (`text`, `full_text`, `extended_tweet.full_text`) are kept
    /// as the bytes a `String` of them holds: each invalid sequence one U+FFFD, in the bytes too.
    @Test(arguments: ["text", "full_text", "extended"])
    func invalidUTF8IsReplacedInEveryText(_ field: String) throws {
        let marker = "XY"
        let extra =
            switch field {
            case "full_text": #","full_text":"\#(marker)""#
            case "extended": #","truncated":true,"extended_tweet":{"full_text":"\#(marker)"}"#
            default: ""
            }
        var bytes = Array(Self.tweetJSON("6", text: field == "text" ? marker : "cut", extra: extra).utf8)
        let at = try #require(bytes.firstIndex(of: UInt8(ascii: "Y")))
        bytes.replaceSubrange(at..<at + 1, with: [0xED, 0xA0, 0x80, 0x59, 0xE3, 0x81])
        let t = try V1Decoder().tweet(from: Data(bytes))
        #expect(t.text == "X\u{FFFD}\u{FFFD}\u{FFFD}Y\u{FFFD}")
        #expect(t.textBytes == Array(t.text.utf8), "the bytes kept are valid UTF-8")
    }

    @Test func escapesAndSurrogates() throws {
        let json = Self.tweetJSON("8", text: #"\ud83d\udc26 \u00e9\n\"q\" \ud800x"#)
        let t = try V1Decoder().tweet(from: Data(json.utf8))
        #expect(t.text == "🐦 é\n\"q\" \u{FFFD}x")
    }

    @Test(arguments: [
        "", "[", #"[{"id_str":"1""#, #"{"id_str":"1",}"#, #"{"id_str" "1"}"#, "[1,]", "nul", #"{"a":tru}"#,
        #"{"id_str":"1","text":"x","user":{"id_str":"2","screen_name":"s"}} trailing"#,
    ])
    func malformedJSONIsAnErrorNotACrash(input: String) {
        #expect(throws: (any Error).self) { try V1Decoder().timeline(from: Data(input.utf8)) }
        #expect(throws: (any Error).self) { try V1Decoder().tweet(from: Data(input.utf8)) }
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONError.self) { try JSONValue.parse(Data(deep.utf8)) }
        let skipped = #"{"id_str":"1","text":"x","user":\#(Self.user),"junk":"# + deep + "}"
        #expect(throws: JSONError.self) { try V1Decoder().tweet(from: Data(skipped.utf8)) }
    }

    @Test func streamEnvelopes() throws {
        let d = V1Decoder()
        func decode(_ s: String) throws -> StreamMessage { try d.streamMessage(from: Data(s.utf8)) }
        guard
            case .delete(let id, let user) = try decode(
                #"{"delete":{"status":{"id":1234,"id_str":"1234","user_id":3,"user_id_str":"3"},"timestamp_ms":"1"}}"#)
        else {
            Issue.record("delete")
            return
        }
        #expect(id == TweetID(1234) && user == UserID(3))
        guard case .limit(let track) = try decode(#"{"limit":{"track":1,"timestamp_ms":"1526148056161"}}"#)
        else {
            Issue.record("limit")
            return
        }
        #expect(track == 1)
        guard
            case .disconnect(let code, let name, let reason) = try decode(#"{"disconnect":{"code":4,"stream_name":"s","reason":"stall"}}"#)
        else {
            Issue.record("disconnect")
            return
        }
        #expect(code == 4 && name == "s" && reason == "stall")
        #expect(StreamMessage.disconnectMeaning(4).contains("stalled"))
        guard
            case .warning(let wcode, _, let percent) = try decode(
                #"{"warning":{"code":"FALLING_BEHIND","message":"Your connection is falling behind","percent_full":60}}"#)
        else {
            Issue.record("warning")
            return
        }
        #expect(wcode == "FALLING_BEHIND" && percent == 60)
        guard case .friends(let ids) = try decode(#"{"friends":[1,2,3]}"#) else {
            Issue.record("friends")
            return
        }
        #expect(ids == [UserID(1), UserID(2), UserID(3)])
        guard
            case .scrubGeo(let u, let upTo) = try decode(
                #"{"scrub_geo":{"user_id":14090452,"user_id_str":"14090452","up_to_status_id":23260136625,"up_to_status_id_str":"23260136625"}}"#
            )
        else {
            Issue.record("scrub_geo")
            return
        }
        #expect(u == UserID(14_090_452) && upTo == TweetID(23_260_136_625))
        guard
            case .statusWithheld(let wid, let countries) = try decode(
                #"{"status_withheld":{"id":1234567890,"user_id":123456,"withheld_in_countries":["DE","AR"]}}"#)
        else {
            Issue.record("withheld")
            return
        }
        #expect(wid == TweetID(1_234_567_890) && countries == ["DE", "AR"])
        guard
            case .event(let name2, let source, _, let target) = try decode(
                #"{"event":"favorite","source":\#(Self.user),"target":\#(Self.user),"target_object":\#(Self.tweetJSON("9"))}"#)
        else {
            Issue.record("event")
            return
        }
        #expect(name2 == "favorite" && source == UserID(7) && target?.id == TweetID(9))
        guard case .unknown(let keys) = try decode(#"{"something_new":{}}"#) else {
            Issue.record("unknown")
            return
        }
        #expect(keys == ["something_new"])
    }

    @Test func apiErrorsFromBodies() {
        let e = APIError(httpStatus: 401, body: Data(#"{"errors":[{"code":89,"message":"Invalid or expired token."}]}"#.utf8))
        #expect(e.code == 89 && e.message == "Invalid or expired token.")
        #expect(e.explanation.contains("log in again"))
        let calm = APIError(httpStatus: 420, body: Data("Easy there, Turbo. Too many requests recently. Enhance your calm.".utf8))
        #expect(calm.code == nil && calm.message.hasPrefix("Easy there"))
        #expect(calm.explanation.contains("Rate limited"))
        let empty = APIError(httpStatus: 503, body: Data())
        #expect(empty.message == "Service Unavailable")
        for code in [32, 34, 64, 88, 89, 130, 131, 135, 144, 179, 185, 186, 187, 215, 226, 261, 326] {
            #expect(APIError.meanings[code] != nil, "no words for code \(code)")
        }
    }

    @Test func twitterDatesRoundTrip() {
        #expect(TwitterDate.parse("Wed Jun 06 20:07:10 +0000 2012") == 1_339_013_230)
        #expect(TwitterDate.format(1_339_013_230) == "Wed Jun 06 20:07:10 +0000 2012")
        #expect(TwitterDate.format(1_428_012_975) == "Thu Apr 02 22:16:15 +0000 2015")
        let behindUTC: Int64 = 1_428_012_975 + 5400
        #expect(TwitterDate.parse("Thu Apr 02 22:16:15 -0130 2015") == behindUTC)
        #expect(TwitterDate.parse("2015-04-02T22:16:15Z") == nil)
        #expect(Snowflake.milliseconds(of: 210_462_857_140_252_672) == 1_339_013_230_010)
        #expect(Snowflake.milliseconds(of: 583_754_843_887_570_945) == 1_428_012_975_080)
    }

    @Test func displayTextDecodesEntitiesAndMovesRanges() throws {
        // Indices refer to the escaped text: "&amp;" is five code points before the mention.
        let json =
            #"{"id_str":"1","full_text":"a &amp; b @bob #tag https://t.co/x \u001b[31m!","user":\#(Self.user),"entities":{"user_mentions":[{"screen_name":"bob","indices":[10,14]}],"hashtags":[{"text":"tag","indices":[15,19]}],"urls":[{"url":"https://t.co/x","expanded_url":"https://example.com/long","display_url":"example.com/long","indices":[20,34]}]}}"#
        let t = try V1Decoder().tweet(from: Data(json.utf8))
        let shown = t.displayText
        #expect(shown.text == "a & b @bob #tag example.com/long !")
        let s = Array(shown.text.unicodeScalars)
        func text(_ r: Range<Int>) -> String { String(String.UnicodeScalarView(s[r])) }
        #expect(shown.highlights.map { text($0.range) } == ["@bob", "#tag", "example.com/long"])
        #expect(
            shown.highlights.map(\.kind) == [
                .mention(screenName: "bob"), .hashtag("tag"), .url(target: "https://example.com/long"),
            ])
    }
}
