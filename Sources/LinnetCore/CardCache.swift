import Locking
import Screen
import TweetText
import TwitterAPI

/// Laid-out cards by tweet object, width, theme and shown age: a frame mostly redraws the cards
/// of the last one. The entry keeps its tweet alive so an id is never reused for another object.
///
/// Entries are kept in two generations (`Generations`): a card asked for again within half the
/// limit's stores is kept, and a full cache never drops the cards on screen all at once.
final class CardCache: Sendable {
    struct Key: Hashable {
        var tweet: ObjectIdentifier
        var width: Int
        var theme: Int
        var age: Age
        /// A card, a post's every line (the reader), or its text's line count.
        var kind = Kind.card
        /// Widths differ by the terminal's mode: a card laid out in one is not the other's.
        var mode = DisplayWidth.mode

        /// The post, its width and its age: the other fields are the same for nearly every key
        /// of one terminal, and equal keys still compare every field (hashed whole, a key took
        /// nine combines, a card's lookup about 650 instructions).
        func hash(into hasher: inout Hasher) {
            hasher.combine(tweet)
            hasher.combine(UInt64(bitPattern: age.stamp) ^ UInt64(truncatingIfNeeded: width) &* 0x9E37_79B9_7F4A_7C15)
        }
    }

    enum Kind: Hashable { case card, whole, textLines }

    /// What of the time a card shows: its age (`Format.ageStamp`), a poll's time left.
    struct Age: Hashable {
        var stamp: Int64 = 0
        var poll: String?
    }

    static let shared = CardCache()
    /// Heights kept (a few words each), for scrolling far.
    static let limit = 4096
    /// Laid-out cards kept: each keeps its lines' measured graphemes (8 bytes a grapheme, about
    /// 5 KB a card at 200 columns), and a screen shows a few dozen.
    static let linesLimit = 1024
    private let entries: Locked<Generations<Key, (Tweet, [StyledLine])>>
    /// Heights by the same key with `theme` 0: the reducer's scrolling asks without a theme.
    private let heights: Locked<Generations<Key, (Tweet, Int)>>

    init(limit: Int = CardCache.limit, linesLimit: Int = CardCache.linesLimit) {
        entries = Locked(Generations(limit: linesLimit))
        heights = Locked(Generations(limit: limit))
    }

    // An entry keeps its tweet alive, so no other object has its identifier while it is held:
    // the `===` check guards against a mistake, never against a reused key.
    func height(_ key: Key, _ tweet: Tweet) -> Int? { heights.withLock { $0.find(key).flatMap { $0.0 === tweet ? $0.1 : nil } } }

    func storeHeight(_ key: Key, _ tweet: Tweet, _ lines: Int) { heights.withLock { $0.keep(key, (tweet, lines)) } }

    func lookup(_ key: Key, _ tweet: Tweet) -> [StyledLine]? {
        entries.withLock { $0.find(key).flatMap { $0.0 === tweet ? $0.1 : nil } }
    }

    func store(_ key: Key, _ tweet: Tweet, _ lines: [StyledLine]) { entries.withLock { $0.keep(key, (tweet, lines)) } }

    /// Cards and heights held, and how many times each dropped its older generation.
    var counts: (cards: Int, cardTurns: Int, heights: Int, heightTurns: Int) {
        let c = entries.withLock { ($0.count, $0.turns) }
        let h = heights.withLock { ($0.count, $0.turns) }
        return (c.0, c.1, h.0, h.1)
    }

    /// The last long post's text made ready: its card and then its reader need it, and for
    /// 256 KB that takes tens of milliseconds (the rest are made each time, for no memory).
    private let longText = Locked<(Tweet, DisplayText)?>(nil)

    func displayText(_ post: Tweet) -> DisplayText {
        guard post.textByteCount >= 16_384 else { return post.displayText }
        if let hit = longText.withLock({ $0.flatMap { $0.0 === post ? $0.1 : nil } }) { return hit }
        let made = post.displayText
        longText.withLock { $0 = (post, made) }
        return made
    }
}
