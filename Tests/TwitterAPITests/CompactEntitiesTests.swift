import Foundation
import LinnetTestSupport
import Testing
import TwitterSimulator

@testable import TwitterAPI

/// A held tweet writes a string its text or id already says as a code: what is read back
/// must be what was given, byte for byte, whether or not a code was written.
@Suite struct CompactEntitiesTests {
    static let text = "@ada ＠Bo #té $FAR https://t.co/abc https://t.co/Pic1 https://t.co/Vid2 end"
    static let author = User(id: UserID(2), screenName: "ada", name: "Ada")

    /// Every field in a form a code covers (`shrinks`), and near it in forms none covers.
    static func battery(id: UInt64) -> [(Entities, shrinks: Bool)] {
        let page = "https://twitter.com/ada/status/\(id)/photo/1"
        let link = Entities.Link(target: "https://www.example.com/a/long/path?q=1", display: "example.com/a/long/pa…", range: 18..<34)
        let photo = Entities.Media(
            type: "photo", target: page, display: "pic.twitter.com/Pic1", mediaURL: "https://pbs.twimg.com/media/Abc.jpg",
            range: 35..<52, width: 640, height: 480, altText: "a cat 🐈‍⬛")
        var video = Entities.Media(
            type: "video", target: "https://x.com/Bo/status/77/video/2", display: "pic.x.com/Vid2",
            mediaURL: "https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/x.jpg", range: 53..<70)
        video.durationMs = 5000
        let said = [
            Entities.Mention(screenName: "ada", userID: UserID(5), range: 0..<4),
            Entities.Mention(screenName: "Bo", userID: nil, range: 5..<8),
        ]
        let tags = [Entities.Hashtag(text: "té", range: 9..<12), Entities.Hashtag(text: "FAR", isSymbol: true, range: 13..<17)]
        var near: [Entities] = [
            // Names and tags unlike the text there, or past it.
            Entities(mentions: [Entities.Mention(screenName: "Ada", userID: UserID(5), range: 0..<4)]),
            Entities(mentions: [Entities.Mention(screenName: "ada", userID: UserID(5), range: 1..<4)]),
            Entities(mentions: [Entities.Mention(screenName: "", userID: nil, range: 4..<4)]),
            Entities(hashtags: [Entities.Hashtag(text: "té", range: 9..<200)]),
            Entities(hashtags: [Entities.Hashtag(text: "t", range: 9..<12)]),
            // Displays: another site, the target whole, cut inside a character, longer than it.
            Entities(urls: [Entities.Link(target: "https://example.com/", display: "elsewhere.org", range: 18..<35)]),
            Entities(urls: [Entities.Link(target: "example.com/é", display: "example.com/é", range: 18..<35)]),
            Entities(urls: [Entities.Link(target: "http://www.é.org/x", display: "é.org/…", range: 0..<1)]),
            Entities(urls: [Entities.Link(target: "https://a.b", display: "a.b/more…", range: 18..<35)]),
            Entities(urls: [Entities.Link(target: "", display: "", range: 0..<0)]),
        ]
        // Pages no code writes back alike: leading zeros, no name, a zero id, one too large,
        // another kind, a part more.
        for target in [
            "https://twitter.com/ada/status/0\(id)/photo/1", "https://twitter.com//status/\(id)/photo/1",
            "https://twitter.com/ada/status/0/photo/1", "https://twitter.com/ada/status/18446744073709551616/photo/1",
            "https://twitter.com/ada/status/\(id)/gif/1", "https://twitter.com/ada/status/\(id)/photo/1/",
            "https://x.com/ada/status/\(id)/photo/01",
            "https://twitter.com/a/b/status/\(id)/photo/1",
        ] {
            near.append(
                Entities(media: [
                    Entities.Media(type: "photo", target: target, display: "pic.twitter.com/Pic1", mediaURL: nil, range: 35..<52)
                ]))
        }
        // Displays unlike the t.co link at the range, types no code names, files of no known start.
        near.append(
            Entities(media: [Entities.Media(type: "gif", target: page, display: "pic.twitter.com/Pic2", mediaURL: "", range: 35..<52)]))
        near.append(
            Entities(media: [
                Entities.Media(type: "photo", target: page, display: "pic.twitter.com/Pic1", mediaURL: "ftp://a", range: 18..<35)
            ]))
        near.append(Entities(media: [Entities.Media(type: "", target: "", display: "", mediaURL: nil, range: 500..<600)]))
        return [(Entities(urls: [link], media: [photo, video], mentions: said, hashtags: tags), true)] + near.map { ($0, false) }
    }

    @Test func whatIsReadBackIsWhatWasGiven() {
        for id: UInt64 in [1, 972_472_152_447_438_859, UInt64.max] {
            for (e, shrinks) in Self.battery(id: id) {
                let t = Tweet(id: TweetID(id), createdAt: 0, user: Self.author, text: Self.text, entities: e)
                #expect(t.entities == e, "\(e)")
                #expect(t.entities.packed() == e.packed(), "byte for byte: \(e)")
                #expect(t.text == Self.text)
                if shrinks { #expect(t.entityBytes.count * 2 < e.packed().count, "written as codes: \(t.entityBytes.count) bytes") }
                #expect(Entities.isWellFormedCompaction(t.entityBytes[...]))
            }
        }
    }

    /// Codes point into the text and id: the same bytes under another text or id read as
    /// other strings, never out of bounds.
    @Test func codesReadUnderAnyTextStayInBounds() {
        let (e, _) = Self.battery(id: 9)[0]
        let kept = Tweet(id: TweetID(9), createdAt: 0, user: Self.author, text: Self.text, entities: e).entityBytes
        for text in ["", "@", "é", String(repeating: "🐈‍⬛", count: 40)] {
            let read = kept.withUnsafeBufferPointer { k in
                Array(text.utf8).withUnsafeBufferPointer { Entities(compacted: k, text: $0, id: TweetID(3)) }
            }
            #expect(read.mentions.map(\.userID) == e.mentions.map(\.userID))
            #expect(read.urls == e.urls, "a link's display says nothing of the text")
        }
    }

    @Test func onlyWellFormedCompactionsPassTheCheck() {
        for (e, _) in Self.battery(id: 42) {
            let kept = Tweet(id: TweetID(42), createdAt: 0, user: Self.author, text: Self.text, entities: e).entityBytes
            // Without its videos' lengths (the trailer) the rest stands alone.
            var plain = e
            for i in plain.media.indices { plain.media[i].durationMs = 0 }
            let alone = Tweet(id: TweetID(42), createdAt: 0, user: Self.author, text: Self.text, entities: plain).entityBytes.count
            for n in 1..<kept.count where n != alone {
                #expect(!Entities.isWellFormedCompaction(kept.prefix(n)), "cut at \(n) of \(e)")
            }
            #expect(!Entities.isWellFormedCompaction((kept + [0])[...]))
        }
        #expect(Entities.isWellFormedCompaction([][...]))
        // The last page code passes; a link's display cut past 2^31 bytes does not.
        #expect(Entities.isWellFormedCompaction([0, 1, 0, 0, 0, 1, 0, 0, 0, 4, 1, 0x61, 0, 1, 0, 0, 0][...]))
        #expect(!Entities.isWellFormedCompaction([1, 0, 0, 0, 0, 1, 0, 1] + [UInt8](repeating: 0xFF, count: 9) + [1]))
        // A page's code past the four hosts and kinds.
        #expect(!Entities.isWellFormedCompaction([0, 1, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0][...]))
    }

    /// Bytes a damaged file could hold: whatever passes the check reads without a trap.
    @Test func changedBytesThatPassTheCheckRead() {
        var rng = SimRandom(state: 29)
        let text = Array(Self.text.utf8)
        var passed = 0
        for (e, _) in Self.battery(id: 42) {
            let kept = Tweet(id: TweetID(42), createdAt: 0, user: Self.author, text: Self.text, entities: e).entityBytes
            for _ in 0..<400 {
                var b = kept
                for _ in 0...(rng.next() % 3) { b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next()) }
                guard Entities.isWellFormedCompaction(b[...]) else { continue }
                passed += 1
                let read = b.withUnsafeBufferPointer { k in
                    text.withUnsafeBufferPointer { Entities(compacted: k, text: $0, id: TweetID(42)) }
                }
                // What was read is kept alike again.
                let again = Tweet(id: TweetID(42), createdAt: 0, user: Self.author, text: Self.text, entities: read)
                #expect(again.entities == read)
            }
        }
        #expect(passed > 100, "changes that pass the check: \(passed)")
    }

    /// Ranges made through the API that begin before the text, and a packing from an earlier
    /// cache that ends with an empty list of videos' lengths, are kept alike and pass the check.
    @Test func oddRangesAndAnEmptyTrailerAreKeptAlike() {
        let e = Entities(
            urls: [Entities.Link(target: "https://a.b", display: "a.b", range: -3..<(-1))],
            media: [Entities.Media(type: "photo", target: "t", display: "pic.twitter.com/x", mediaURL: nil, range: -5..<2)],
            mentions: [Entities.Mention(screenName: "ada", userID: nil, range: -4..<0)],
            hashtags: [Entities.Hashtag(text: "a", range: -1..<1)])
        let t = Tweet(id: TweetID(1), createdAt: 0, user: Self.author, text: "@ada", entities: e)
        #expect(t.entities == e)
        let trailed = Entities(mentions: [Entities.Mention(screenName: "ada", userID: nil, range: 0..<4)]).packed() + [0]
        #expect(Entities.isWellFormedPacking(trailed))
        let kept = Tweet(
            id: TweetID(1), createdAt: 0, user: Self.author, text: "@ada", displayRange: nil, packedEntities: trailed,
            inReplyToStatusID: nil, inReplyToUserID: nil, inReplyToScreenName: nil, retweetedStatus: nil, quotedStatus: nil,
            quotedStatusID: nil, retweetCount: 0, favoriteCount: 0, isFavorited: false, isRetweeted: false, isTruncated: false,
            lang: nil, extras: nil)
        #expect(Entities.isWellFormedCompaction(kept.entityBytes[...]))
        #expect(kept.entities.mentions.map(\.screenName) == ["ada"])
    }

    /// Strings at the lengths where a length's bytes grow: the room a compaction is given holds.
    @Test func longStringsFitTheRoomGiven() {
        for n in [0, 1, 15, 16, 120, 124, 125, 126, 127, 128, 1023, 1024, 20_000] {
            let s = String(repeating: "a", count: n)
            let e = Entities(
                urls: [Entities.Link(target: s, display: s, range: 0..<1)],
                media: [Entities.Media(type: s, target: s, display: s, mediaURL: s, range: 0..<1, altText: s)],
                mentions: [Entities.Mention(screenName: s, userID: nil, range: 0..<1)], hashtags: [Entities.Hashtag(text: s, range: 0..<1)])
            let t = Tweet(id: TweetID(1), createdAt: 0, user: Self.author, text: "x", entities: e)
            #expect(t.entities == e, "strings of \(n) bytes")
        }
    }

    /// Every tweet of the recorded stream, against its JSON read by Foundation: what a held
    /// tweet gives back is what X sent, and it keeps well under half the bytes.
    @Test func theRecordedStreamComesBackAsSent() throws {
        let decoder = V1Decoder()
        var kept = 0
        var packed = 0
        var checked = 0
        for line in try Fixtures.data("api/streaming/lines.json").split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            guard case .tweet(let t) = try decoder.streamMessage(from: Data(line)),
                let json = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            else { continue }
            var pairs: [(Tweet, [String: Any])] = [(t, json)]
            if let q = t.quotedStatus, let j = json["quoted_status"] as? [String: Any] { pairs.append((q, j)) }
            if let r = t.retweetedStatus, let j = json["retweeted_status"] as? [String: Any] { pairs.append((r, j)) }
            for (tweet, j) in pairs {
                let sent = ((j["extended_tweet"] as? [String: Any])?["entities"] ?? j["entities"]) as? [String: Any] ?? [:]
                let e = tweet.entities
                let mentions = (sent["user_mentions"] as? [[String: Any]] ?? []).map { $0["screen_name"] as? String }
                #expect(e.mentions.map(\.screenName) == mentions)
                let tags = (sent["hashtags"] as? [[String: Any]] ?? []) + (sent["symbols"] as? [[String: Any]] ?? [])
                #expect(Set(e.hashtags.map(\.text)) == Set(tags.compactMap { $0["text"] as? String }))
                let urls = sent["urls"] as? [[String: Any]] ?? []
                #expect(e.urls.map(\.display) == urls.map { $0["display_url"] as? String ?? "" })
                #expect(e.urls.map(\.target) == urls.map { ($0["expanded_url"] as? String) ?? ($0["url"] as? String ?? "") })
                let media = (j["extended_entities"] as? [String: Any])?["media"] ?? sent["media"]
                let files = media as? [[String: Any]] ?? []
                #expect(e.media.map(\.type) == files.map { $0["type"] as? String ?? "" })
                #expect(e.media.map(\.target) == files.map { $0["expanded_url"] as? String ?? "" })
                #expect(e.media.map(\.display) == files.map { $0["display_url"] as? String ?? "" })
                #expect(e.media.map(\.mediaURL) == files.map { $0["media_url_https"] as? String })
                kept += tweet.entityBytes.count
                packed += e.packed().count
                checked += 1
            }
        }
        #expect(checked >= 72)
        #expect(kept * 2 < packed, "kept \(kept) bytes of \(packed)")
    }
}
