import Testing

@testable import TwitterAPI

/// A tweet keeps its entities packed in one byte array; what is read back must be what was given.
@Suite struct PackedEntitiesTests {
    static let everyKind = Entities(
        urls: [
            Entities.Link(target: "https://example.com/a?b=c#d", display: "example.com/a?b=c…", range: 0..<23),
            Entities.Link(target: "", display: "", range: 200_000..<300_000),
        ],
        media: [
            Entities.Media(
                type: "photo", target: "https://x.com/i/1/photo/1", display: "pic.x.com/abc", mediaURL: nil, range: 24..<47,
                width: 4096, height: 3072, altText: "a cat 🐈‍⬛ on a mat"),
            Entities.Media(
                type: "video", target: "t", display: "d", mediaURL: "", range: 48..<48, altText: nil),
        ],
        mentions: [
            Entities.Mention(screenName: "ann", userID: UserID(UInt64.max), range: 1..<5),
            Entities.Mention(screenName: "a_very_long_name_past_fifteen", userID: nil, range: 6..<36),
        ],
        hashtags: [
            Entities.Hashtag(text: "日本語", range: 37..<41), Entities.Hashtag(text: "TSLA", isSymbol: true, range: 42..<47),
        ])

    @Test func everyKindAndEdgeComesBackAsGiven() {
        let e = Self.everyKind
        let packed = e.packed()
        #expect(Entities(packed: packed) == e)
        // An empty media URL stays empty, an absent one absent.
        #expect(Entities(packed: packed).media.map(\.mediaURL) == [nil, ""])
        let t = Tweet(id: TweetID(1), createdAt: 0, user: User(id: UserID(2), screenName: "ann", name: "Ann"), text: "x", entities: e)
        #expect(t.entities == e)
    }

    /// The cache hands a tweet packed bytes read from a file: they are checked first.
    @Test func onlyWellFormedPackingsPassTheCheck() {
        let packed = Self.everyKind.packed()
        #expect(Entities.isWellFormedPacking(packed))
        #expect(Entities.isWellFormedPacking([]))
        for n in 1..<packed.count { #expect(!Entities.isWellFormedPacking(Array(packed.prefix(n))), "cut at \(n)") }
        #expect(!Entities.isWellFormedPacking(packed + [0]))
        // One hashtag, span 3 to 5, not a symbol, text "a"; then the same with the span reversed,
        // a count past the end, and a number that never ends.
        #expect(Entities.isWellFormedPacking([0, 0, 0, 1, 3, 5, 0, 1, 0x61]))
        #expect(!Entities.isWellFormedPacking([0, 0, 0, 1, 5, 3, 0, 1, 0x61]))
        #expect(!Entities.isWellFormedPacking([0, 0, 0, 200, 3, 5, 0, 1, 0x61]))
        #expect(!Entities.isWellFormedPacking([0, 0, 0, 1] + [UInt8](repeating: 0xFF, count: 12)))
    }

    /// A video's length follows the rest only when one is known: a packing without it (as
    /// cache format 6 kept them) still reads, with lengths unknown.
    @Test func videoLengthsFollowTheRest() {
        var e = Self.everyKind
        let without = e.packed()
        e.media[1].durationMs = 62_996
        let with = e.packed()
        #expect(Entities(packed: with) == e)
        #expect(Entities.isWellFormedPacking(with))
        // The trailer: the media count (2), 0 for the photo, 62,996 as LEB128.
        #expect(Array(with.dropFirst(without.count)) == [2, 0, 0x94, 0xEC, 0x03])
        #expect(Entities(packed: without).media.map(\.durationMs) == [0, 0])
        for n in without.count + 1..<with.count { #expect(!Entities.isWellFormedPacking(Array(with.prefix(n))), "cut at \(n)") }
        // A trailer counting other media than there are is refused.
        #expect(!Entities.isWellFormedPacking(without + [1, 5]))
        #expect(!Entities.isWellFormedPacking(without + [3, 0, 0, 0]))
    }

    @Test func noEntitiesTakeNoBytes() {
        #expect(Entities().packed().isEmpty)
        #expect(Entities(packed: []) == Entities())
    }

    @Test func equalTweetsCompareEqualThroughTheirPackedEntities() {
        let user = User(id: UserID(2), screenName: "ann", name: "Ann")
        let e = Entities(hashtags: [Entities.Hashtag(text: "a", range: 0..<2)])
        let a = Tweet(id: TweetID(1), createdAt: 0, user: user, text: "#a", entities: e)
        let b = Tweet(id: TweetID(1), createdAt: 0, user: user, text: "#a", entities: e)
        let c = Tweet(
            id: TweetID(1), createdAt: 0, user: user, text: "#a", entities: Entities(hashtags: [Entities.Hashtag(text: "b", range: 0..<2)]))
        #expect(a == b)
        #expect(a != c)
    }
}
