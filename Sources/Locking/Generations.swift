/// A cache of at most `limit` entries in two generations (kept behind a lock by its owner):
/// when the newer fills, the older is dropped and the newer takes its place, and a hit in the
/// older moves the entry back. What is asked for again within half the limit's stores stays;
/// a full cache never drops everything at once, which cost the next frame all its work again.
/// Inlinable so that its users' keys are hashed by specialized code (through the generic entry
/// points a key's work cost 7% more).
public struct Generations<Key: Hashable, Value> {
    @usableFromInline var newer: [Key: Value] = [:]
    @usableFromInline var older: [Key: Value] = [:]
    @usableFromInline let half: Int
    /// Times the older generation was dropped.
    public private(set) var turns = 0

    public init(limit: Int) {
        precondition(limit >= 2, "two generations hold at least one entry each")
        half = limit / 2
    }

    public var count: Int { newer.count + older.count }

    @inlinable public mutating func find(_ key: Key) -> Value? {
        if let v = newer[key] { return v }
        guard let v = older.removeValue(forKey: key) else { return nil }
        keep(key, v)
        return v
    }

    /// A key kept again replaces its value; a copy in the older half goes (never found, since
    /// the newer is looked in first, it would hold a place until the next turn).
    @inlinable public mutating func keep(_ key: Key, _ value: Value) {
        if newer[key] == nil {
            if newer.count >= half { turn() } else { older.removeValue(forKey: key) }
        }
        newer[key] = value
    }

    @usableFromInline mutating func turn() {
        // The older goes whole: what of it was asked for since is in the newer already.
        swap(&newer, &older)
        newer.removeAll(keepingCapacity: true)
        turns += 1
    }
}

extension Generations: Sendable where Key: Sendable, Value: Sendable {}
