import TwitterAPI

/// Tweets by id, split into shards that snapshots share. A change after a snapshot copies one
/// shard (1/256 of the table) instead of the whole table: at 100k tweets that is a few hundred
/// entries, not 100k (DECISIONS.md, `make bench`).
public struct TweetTable: Sendable, Sequence {
    /// One shard; copied before a write whenever anything else (a snapshot) still holds it.
    final class Shard: @unchecked Sendable {
        /// Unchecked: written only while no snapshot shares the shard (checked accesses were
        /// about a tenth of adding a post to the store).
        @exclusivity(unchecked) var items: [TweetID: Tweet]
        init(_ items: [TweetID: Tweet] = [:]) { self.items = items }
    }

    static let shardCount = 256
    private var shards: [Shard]
    public private(set) var count = 0

    public init() { shards = (0..<Self.shardCount).map { _ in Shard() } }

    /// Room for `capacity` tweets from the start: a store fills to its cap within hours, and
    /// growing there rehashed every entry each time a shard doubled (a quarter of adding a
    /// post to the store).
    public init(minimumCapacity capacity: Int) {
        let each = Self.room(forSharing: capacity)
        shards = (0..<Self.shardCount).map { _ in Shard(Dictionary(minimumCapacity: each)) }
    }

    /// A shard's room when `count` tweets spread over the shards: its share and two standard
    /// deviations of a uniform spread (a shard past its room rehashed all it held).
    static func room(forSharing count: Int) -> Int {
        let each = Swift.max(0, count) / shardCount
        return each == 0 ? 0 : each + 2 * Int(Double(each).squareRoot()) + 4
    }

    /// Snowflake ids carry a timestamp, worker and sequence; a multiplicative hash spreads
    /// neighbours across shards.
    @inline(__always) static func shard(_ id: TweetID) -> Int {
        Int(truncatingIfNeeded: (id.rawValue &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    public var isEmpty: Bool { count == 0 }

    /// Whether both tables are one storage, so hold the same posts by the same ids, said
    /// without reading any: a write to either copies the shards' list first (each table
    /// holds it), so one list is one content for as long as both are held.
    public func isSameStorage(as other: TweetTable) -> Bool {
        count == other.count
            && shards.withUnsafeBufferPointer { a in other.shards.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress } }
    }

    public subscript(id: TweetID) -> Tweet? {
        get { shards[Self.shard(id)].items[id] }
        set {
            guard let newValue else {
                removeValue(forKey: id)
                return
            }
            let i = Self.shard(id)
            own(i)
            if shards[i].items.updateValue(newValue, forKey: id) == nil { count += 1 }
        }
    }

    /// Shard `i` made this table's alone before a write: copied while a snapshot holds it.
    private mutating func own(_ i: Int) {
        if !isKnownUniquelyReferenced(&shards[i]) { shards[i] = Shard(shards[i].items) }
    }

    /// Room for `more` tweets than are held, shard by shard, as a cache being read knows how
    /// many follow: a shard grown one doubling at a time rehashed its entries each time.
    mutating func reserveCapacity(adding more: Int) {
        let room = Self.room(forSharing: more)
        guard room > 0 else { return }
        for i in shards.indices {
            own(i)
            shards[i].items.reserveCapacity(shards[i].items.count + room)
        }
    }

    /// Whether a tweet is held; its object is not read (taking it touched each one's count, most
    /// of restoring 100k from a cache).
    func contains(_ id: TweetID) -> Bool { shards[Self.shard(id)].items.index(forKey: id) != nil }

    /// Removes a tweet; what was there.
    @discardableResult
    public mutating func removeValue(forKey id: TweetID) -> Tweet? {
        let i = Self.shard(id)
        if !isKnownUniquelyReferenced(&shards[i]) {
            guard shards[i].items.index(forKey: id) != nil else { return nil }
            shards[i] = Shard(shards[i].items)
        }
        let old = shards[i].items.removeValue(forKey: id)
        if old != nil { count -= 1 }
        return old
    }

    public struct Iterator: IteratorProtocol {
        var shards: IndexingIterator<[Shard]>
        var current: Dictionary<TweetID, Tweet>.Iterator?
        public mutating func next() -> (key: TweetID, value: Tweet)? {
            while true {
                if let e = current?.next() { return e }
                guard let s = shards.next() else { return nil }
                current = s.items.makeIterator()
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(shards: shards.makeIterator(), current: nil) }
}
