import TwitterAPI

/// Tweets by id, split into shards that snapshots share. A change after a snapshot copies one
/// shard (1/256 of the table) instead of the whole table: at 100k tweets that is a few hundred
/// entries, not 100k (DECISIONS.md, `make bench`). Each entry also counts the timelines that
/// hold its tweet, so the store needs no second table for that.
public struct TweetTable: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One shard; copied before a write whenever anything else (a snapshot) still holds it.
    final class Shard: @unchecked Sendable {
        var items: [TweetID: Entry]
        init(_ items: [TweetID: Entry] = [:]) { self.items = items }
    }

    struct Entry {
        var tweet: Tweet
        var references: Int32
    }

    static let shardCount = 256
    private var shards: [Shard]
    public private(set) var count = 0

    public init() { shards = (0..<Self.shardCount).map { _ in Shard() } }

    public init(_ tweets: [TweetID: Tweet]) {
        self.init()
        for (id, t) in tweets { self[id] = t }
    }

    public init(dictionaryLiteral elements: (TweetID, Tweet)...) {
        self.init()
        for (id, t) in elements { self[id] = t }
    }

    /// Snowflake ids carry a timestamp, worker and sequence; a multiplicative hash spreads
    /// neighbours across shards.
    @inline(__always) static func shard(_ id: TweetID) -> Int {
        Int(truncatingIfNeeded: (id.rawValue &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    public var isEmpty: Bool { count == 0 }

    /// The tweet; setting one keeps its count of timelines, setting nil removes it.
    public subscript(id: TweetID) -> Tweet? {
        get { shards[Self.shard(id)].items[id]?.tweet }
        set {
            if let newValue { put(newValue, addingReference: false) } else { removeValue(forKey: id) }
        }
    }

    /// The shard of `id`, copied first if a snapshot shares it.
    private mutating func writable(_ id: TweetID) -> Shard {
        let i = Self.shard(id)
        if !isKnownUniquelyReferenced(&shards[i]) { shards[i] = Shard(shards[i].items) }
        return shards[i]
    }

    /// Stores a tweet; `addingReference` when one more timeline now holds it.
    public mutating func put(_ t: Tweet, addingReference: Bool) {
        let shard = writable(t.id)
        let add: Int32 = addingReference ? 1 : 0
        if let old = shard.items[t.id] {
            shard.items[t.id] = Entry(tweet: t, references: old.references + add)
        } else {
            shard.items[t.id] = Entry(tweet: t, references: add)
            count += 1
        }
    }

    /// One timeline fewer holds the tweet; it goes when none does.
    public mutating func release(_ id: TweetID) {
        guard let e = self.entry(id) else { return }
        if e.references <= 1 {
            removeValue(forKey: id)
        } else {
            writable(id).items[id]?.references -= 1
        }
    }

    func entry(_ id: TweetID) -> Entry? { shards[Self.shard(id)].items[id] }

    /// Removes a tweet; what was there.
    @discardableResult
    public mutating func removeValue(forKey id: TweetID) -> Tweet? {
        guard entry(id) != nil else { return nil }
        count -= 1
        return writable(id).items.removeValue(forKey: id)?.tweet
    }

    public struct Iterator: IteratorProtocol {
        var shards: IndexingIterator<[Shard]>
        var current: Dictionary<TweetID, Entry>.Iterator?
        public mutating func next() -> (key: TweetID, value: Tweet)? {
            while true {
                if let e = current?.next() { return (e.key, e.value.tweet) }
                guard let s = shards.next() else { return nil }
                current = s.items.makeIterator()
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(shards: shards.makeIterator(), current: nil) }

    public var values: [Tweet] { map(\.value) }
}
