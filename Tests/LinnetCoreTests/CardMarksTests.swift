import Foundation
import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

/// What only some v2 posts carry shows on their cards: an edit, withholding, a quote X could not
/// include; and survives the cache. The payload is written from X's documented fields
/// (docs/PROTOCOL-V2.md §3: `edit_history_tweet_ids`, `withheld`, `referenced_tweets` with an
/// error beside the data for a quote that is gone).
@Suite struct CardMarksTests {
    static let page = """
        {"data":[
          {"id":"1800000000000000003","text":"fixed the typo","author_id":"7","created_at":"2026-11-20T10:00:00.000Z",
           "edit_history_tweet_ids":["1800000000000000001","1800000000000000003"]},
          {"id":"1800000000000000004","text":"not for everyone","author_id":"7","created_at":"2026-11-20T10:01:00.000Z",
           "edit_history_tweet_ids":["1800000000000000004"],"withheld":{"copyright":false,"country_codes":["DE","FR"]}},
          {"id":"1800000000000000005","text":"look at this","author_id":"7","created_at":"2026-11-20T10:02:00.000Z",
           "edit_history_tweet_ids":["1800000000000000005"],
           "referenced_tweets":[{"type":"quoted","id":"1800000000000000002"}],"reply_settings":"mentionedUsers"}
        ],
        "includes":{"users":[{"id":"7","name":"Ada Byron","username":"ada"}]},
        "errors":[{"value":"1800000000000000002","detail":"Could not find tweet with referenced_tweets.id: [1800000000000000002].",
          "title":"Not Found Error","resource_type":"tweet","parameter":"referenced_tweets.id","resource_id":"1800000000000000002",
          "type":"https://api.twitter.com/2/problems/resource-not-found"}]}
        """

    static func text(_ t: Tweet) -> String {
        TweetCard.lines(t, width: 80, theme: .fallback, now: 1_795_000_000).map { $0.spans.map(\.text).joined() }.joined(separator: "\n")
    }

    @Test func editsWithholdingAndMissingQuotesAreMarked() throws {
        let p = try V2Decoder().posts(from: Data(Self.page.utf8))
        try #require(p.tweets.count == 3)
        let (edited, withheld, quoting) = (p.tweets[0], p.tweets[1], p.tweets[2])
        let header = Self.text(edited).split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.hasPrefix("Ada Byron @ada · ") && header.hasSuffix(" · edited"), "\(header)")
        #expect(!Self.text(withheld).contains("edited"))
        #expect(Self.text(withheld).contains("⊘ Withheld in DE, FR."))
        #expect(Self.text(quoting).contains("┃ The quoted post is unavailable (deleted, or not visible to you)."))
        #expect(p.errors.first?.kind == "resource-not-found")
        #expect(quoting.extras?.replySettings == "mentionedUsers")
    }

    @Test func theMarksSurviveTheCache() throws {
        let p = try V2Decoder().posts(from: Data(Self.page.utf8))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-marks-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = TimelineCache(directory: dir)
        var tweets = TweetTable()
        for t in p.tweets { tweets[t.id] = t }
        try cache.save(
            TimelineSnapshot(version: 1, tweets: tweets, timelines: [.home: TimelineView(ids: p.tweets.map(\.id).sorted(by: >))]))
        guard case .loaded(let back) = cache.load() else {
            Issue.record("the cache did not load")
            return
        }
        for t in p.tweets {
            let again = try #require(back.tweets[t.id])
            #expect(again.extras == t.extras)
            #expect(Self.text(again) == Self.text(t))
        }
    }
}

/// Photos, GIFs and videos are listed on the card with their kind, place, size and alt text,
/// and their link is not shown in the text, on both APIs (payloads written from the documented
/// fields: v1.1 `extended_entities` with `ext_alt_text` and `sizes`, v2 `includes.media`).
@Suite struct MediaLabelTests {
    static let v1 = """
        {"id_str":"20","created_at":"Wed Nov 18 10:00:00 +0000 2026","full_text":"two birds https://t.co/AbCdEfGhIj",
         "display_text_range":[0,9],"user":{"id_str":"7","screen_name":"ada","name":"Ada"},
         "entities":{"urls":[],"media":[{"id_str":"1","type":"photo","url":"https://t.co/AbCdEfGhIj","display_url":"pic.x.com/AbCdEfGhIj",
           "expanded_url":"https://x.com/ada/status/20/photo/1","media_url_https":"https://pbs.twimg.com/media/a.jpg","indices":[10,33]}]},
         "extended_entities":{"media":[
           {"id_str":"1","type":"photo","url":"https://t.co/AbCdEfGhIj","display_url":"pic.x.com/AbCdEfGhIj",
            "expanded_url":"https://x.com/ada/status/20/photo/1","media_url_https":"https://pbs.twimg.com/media/a.jpg","indices":[10,33],
            "ext_alt_text":"a linnet on a wire","sizes":{"large":{"w":1200,"h":800,"resize":"fit"}}},
           {"id_str":"2","type":"animated_gif","url":"https://t.co/AbCdEfGhIj","display_url":"pic.x.com/AbCdEfGhIj",
            "expanded_url":"https://x.com/ada/status/20/photo/2","media_url_https":"https://pbs.twimg.com/media/b.jpg","indices":[10,33],
            "ext_alt_text":null,"sizes":{"large":{"w":480,"h":270,"resize":"fit"}}}]}}
        """
    static let v2 = """
        {"data":{"id":"21","text":"a clip https://t.co/XyZ0123456","author_id":"7","edit_history_tweet_ids":["21"],
          "attachments":{"media_keys":["7_9"]},
          "entities":{"urls":[{"start":7,"end":30,"url":"https://t.co/XyZ0123456","expanded_url":"https://x.com/ada/status/21/video/1",
            "display_url":"pic.x.com/XyZ0123456","media_key":"7_9"}]}},
         "includes":{"users":[{"id":"7","name":"Ada","username":"ada"}],
           "media":[{"media_key":"7_9","type":"video","width":1920,"height":1080,"alt_text":"rain on a window","preview_image_url":"https://pbs.twimg.com/p.jpg","duration_ms":3725000}]}}
        """

    static func text(_ t: Tweet) -> String {
        TweetCard.lines(t, width: 80, theme: .fallback, now: 1_795_000_000).map { $0.spans.map(\.text).joined() }.joined(separator: "\n")
    }

    @Test func mediaAreListedAndTheirLinkHidden() throws {
        let t1 = try V1Decoder().tweet(from: Data(Self.v1.utf8))
        let card1 = Self.text(t1)
        #expect(card1.contains("▣ photo 1/2 1200×800 \"a linnet on a wire\""), "\(card1)")
        #expect(card1.contains("▣ GIF 2/2 480×270") && !card1.contains("pic.x.com"), "\(card1)")
        let t2 = try #require(try V2Decoder().posts(from: Data(Self.v2.utf8)).tweets.first)
        let card2 = Self.text(t2)
        #expect(card2.contains("▣ video 1/1 1920×1080 1:02:05 \"rain on a window\""), "\(card2)")
        #expect(card2.contains("a clip") && !card2.contains("pic.x.com"), "\(card2)")
        // The cache keeps sizes, lengths and alt text.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-media-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var table = TweetTable()
        table[t1.id] = t1
        table[t2.id] = t2
        try TimelineCache(directory: dir).save(
            TimelineSnapshot(version: 1, tweets: table, timelines: [.home: TimelineView(ids: [t2.id, t1.id])]))
        guard case .loaded(let back) = TimelineCache(directory: dir).load() else {
            Issue.record("the cache did not load")
            return
        }
        #expect(back.tweets[t1.id].map(Self.text) == card1 && back.tweets[t2.id].map(Self.text) == card2)
    }
}
