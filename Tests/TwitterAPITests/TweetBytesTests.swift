import Testing

@testable import TwitterAPI

/// A tweet keeps its text, entities and what it replies to in one block of bytes it owns:
/// every field comes back as given, at every length where the block's numbers grow.
@Suite struct TweetBytesTests {
    static let ann = User(id: UserID(2), screenName: "ann", name: "Ann")

    @Test func aReplyKeepsWhatItAnswers() {
        let names: [String?] = [nil, "", "bo", String(repeating: "n", count: 127), String(repeating: "é", count: 200), "👩‍👩‍👧"]
        let ids: [UInt64?] = [nil, 1, 127, 128, UInt64.max]
        for name in names {
            for status in ids {
                for user in [nil, UInt64(5), UInt64.max] {
                    let t = Tweet(
                        id: TweetID(9), createdAt: 1, user: Self.ann, text: "@bo hi",
                        entities: Entities(mentions: [Entities.Mention(screenName: "bo", userID: UserID(5), range: 0..<3)]),
                        inReplyToStatusID: status.map(TweetID.init), inReplyToUserID: user.map(UserID.init), inReplyToScreenName: name)
                    #expect(t.inReplyToStatusID == status.map(TweetID.init))
                    #expect(t.inReplyToUserID == user.map(UserID.init))
                    #expect(t.inReplyToScreenName == name)
                    #expect(t.text == "@bo hi")
                    #expect(t.entities.mentions.map(\.screenName) == ["bo"])
                }
            }
        }
    }

    @Test func emptyTweetsKeepNoBytesAndCompareByContent() {
        let empty = Tweet(id: TweetID(1), createdAt: 0, user: Self.ann, text: "")
        #expect(empty.text.isEmpty && empty.entities.isEmpty && empty.inReplyToScreenName == nil)
        #expect(empty.entityBytes.isEmpty && empty.textBytes.isEmpty)
        let a = Tweet(id: TweetID(3), createdAt: 0, user: Self.ann, text: "same", inReplyToScreenName: "bo")
        let b = Tweet(id: TweetID(3), createdAt: 0, user: Self.ann, text: "same", inReplyToScreenName: "bo")
        let c = Tweet(id: TweetID(3), createdAt: 0, user: Self.ann, text: "same", inReplyToScreenName: "bob")
        let d = Tweet(id: TweetID(3), createdAt: 0, user: Self.ann, text: "sane", inReplyToScreenName: "bo")
        #expect(a == b)
        #expect(a != c)
        #expect(a != d)
    }

    /// The cache hands over the text's bytes as they are, even when they are not UTF-8: they
    /// are kept so, and made valid only when read.
    @Test func textBytesAreKeptAsGiven() {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xC3]
        let t = bytes.withUnsafeBufferPointer {
            Tweet(
                id: TweetID(4), createdAt: 0, user: Self.ann, textBytes: $0,
                entities: .compacted(UnsafeBufferPointer(start: nil, count: 0)),
                displayRange: nil, inReplyToStatusID: TweetID(8), inReplyToUserID: nil, inReplyToScreenName: "x", retweetedStatus: nil,
                quotedStatus: nil, quotedStatusID: nil, retweetCount: 0, favoriteCount: 0, isFavorited: false, isRetweeted: false,
                isTruncated: false, lang: nil, extras: nil)
        }
        #expect(t.textBytes == bytes)
        #expect(t.text == "a\u{FFFD}b\u{FFFD}")
        #expect(t.inReplyToStatusID == TweetID(8))
        #expect(t.inReplyToScreenName == "x")
    }

    /// A language tag of one to eight ASCII bytes is kept in a word and read back as given;
    /// anything else is kept as none.
    @Test func languageTagsUpToEightASCIIBytesAreKept() {
        let cases: [(String?, String?)] = [
            ("en", "en"), ("und", "und"), ("zh-Hant", "zh-Hant"), ("12345678", "12345678"), ("123456789", nil), ("é", nil),
            ("", nil), (nil, nil), ("a\u{0}b", nil),
        ]
        for (given, kept) in cases {
            let t = Tweet(id: TweetID(5), createdAt: 0, user: Self.ann, text: "x", lang: given)
            #expect(t.lang == kept, "\(String(describing: given))")
        }
    }
}
