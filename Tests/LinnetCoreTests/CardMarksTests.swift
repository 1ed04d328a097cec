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
