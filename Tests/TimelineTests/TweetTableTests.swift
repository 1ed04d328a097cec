import Testing
import Timeline
import TwitterAPI

@Suite struct TweetTableTests {
    /// Snowflake-like ids: close together, as a stream delivers them.
    let ids = (0..<5_000).map { TweetID(1_500_000_000_000_000_000 + UInt64($0) * 4_096) }

    @Test func holdsCountsIteratesAndRemoves() {
        var table = TweetTable()
        for id in ids { table[id] = TimelineStoreTests.tweet(id.rawValue) }
        table[ids[0]] = TimelineStoreTests.tweet(ids[0].rawValue, "replaced")
        #expect(table.count == ids.count)
        #expect(table[ids[0]]?.text.hasPrefix("replaced") == true)
        #expect(Set(table.map(\.key)) == Set(ids))
        #expect(table.removeValue(forKey: ids[1])?.id == ids[1])
        #expect(table.removeValue(forKey: ids[1]) == nil)
        table[ids[2]] = nil
        table[ids[2]] = nil
        #expect(table.count == ids.count - 2)
        #expect(table[ids[2]] == nil && table[ids[3]] != nil)
    }

    @Test func aCopyIsUntouchedByLaterChanges() {
        var table = TweetTable()
        for id in ids { table[id] = TimelineStoreTests.tweet(id.rawValue) }
        let snapshot = table
        for id in ids.prefix(100) { table[id] = nil }
        table[ids[200]] = TimelineStoreTests.tweet(ids[200].rawValue, "changed")
        table[TweetID(7)] = TimelineStoreTests.tweet(7)
        #expect(snapshot.count == ids.count)
        #expect(snapshot[ids[0]] != nil && snapshot[ids[200]]?.text.hasPrefix("t ") == true && snapshot[TweetID(7)] == nil)
        #expect(Set(snapshot.map(\.key)) == Set(ids))
        #expect(table.count == ids.count - 100 + 1)
        // Removing by key, a hit and a miss, from shards the snapshot still shares.
        let again = table
        #expect(table.removeValue(forKey: ids[300])?.id == ids[300])
        #expect(table.removeValue(forKey: ids[300]) == nil)
        #expect(table.removeValue(forKey: TweetID(8)) == nil)
        #expect(table.count == ids.count - 100 && table[ids[300]] == nil)
        #expect(again.count == ids.count - 100 + 1 && again[ids[300]] != nil)
        #expect(snapshot[ids[300]] != nil && snapshot.count == ids.count)
        #expect(Set(again.map(\.key)).count == again.count)
    }

    /// Neighbouring ids spread over the shards (a change after a snapshot copies one small shard).
    @Test func neighbouringIdsSpreadOut() {
        var perShard: [Int: Int] = [:]
        for id in ids { perShard[Int(truncatingIfNeeded: (id.rawValue &* 0x9E37_79B9_7F4A_7C15) >> 56), default: 0] += 1 }
        #expect(perShard.count == 256)
        #expect(perShard.values.max()! < 3 * ids.count / 256, "\(perShard.values.max()!)")
    }
}
