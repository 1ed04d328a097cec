import TwitterAPI

/// Format 8 of the cache file:
///
///     magic, version
///     head: length, body, CRC-32C of the body
///     rest: length, body, CRC-32C of the body
///
/// The head's body holds each timeline's newest `headPerTimeline` ids, the gaps among them and
/// its reading state, then those tweets' users and the tweets; the rest's body each timeline's
/// other ids and gaps (in the head's order), then the other users and tweets. Users are
/// numbered across both in the order written. A first frame reads and checks the head alone:
/// its size does not grow with the file's. Format 8 writes a tweet's entities as a held tweet
/// keeps them (`Entities.compact`), 7 as `Entities.packed` writes them, with a video's length
/// after them; 7, 6 and 5 (every id in the head) still read.
extension TimelineCache {
    static func encode(_ snapshot: TimelineSnapshot, keepPerTimeline: Int) -> [UInt8] {
        let timelines = snapshot.timelines.sorted { $0.key.description < $1.key.description }
        var kept: [TweetID: Tweet] = [:]
        var headIDs = Set<TweetID>()
        var lists: [(TimelineID, TimelineView)] = []
        for (id, view) in timelines {
            var v = view
            v.ids = Array(view.ids.prefix(keepPerTimeline))
            let keptIDs = Set(v.ids)
            v.gapsBelow = v.gapsBelow.filter { keptIDs.contains($0) }
            if let last = v.ids.last, view.ids.count > v.ids.count { v.gapsBelow.insert(last) }
            for t in v.ids { kept[t] = snapshot.tweets[t] }
            headIDs.formUnion(v.ids.prefix(headPerTimeline))
            lists.append((id, v))
        }
        let newestFirst = kept.values.sorted { $0.id > $1.id }
        var users = UserTable()
        var w = BinaryWriter()
        w.raw(magic)
        w.varint(formatVersion)
        var head = BinaryWriter()
        head.varint(UInt64(lists.count))
        var rest = BinaryWriter()
        rest.varint(UInt64(lists.count))
        for (id, v) in lists {
            let top = cut(v, to: headPerTimeline)
            TweetCoding.write(id, &head)
            head.varint(UInt64(top.ids.count))
            for t in top.ids { head.varint(t.rawValue) }
            head.varint(UInt64(top.gapsBelow.count))
            for g in top.gapsBelow.sorted(by: >) { head.varint(g.rawValue) }
            head.varint(v.readMarker?.rawValue ?? 0)
            head.varint(v.anchor?.rawValue ?? 0)
            let more = v.ids.dropFirst(top.ids.count)
            rest.varint(UInt64(more.count))
            for t in more { rest.varint(t.rawValue) }
            let lower = v.gapsBelow.subtracting(top.gapsBelow)
            rest.varint(UInt64(lower.count))
            for g in lower.sorted(by: >) { rest.varint(g.rawValue) }
        }
        writeTweets(newestFirst.filter { headIDs.contains($0.id) }, users: &users, to: &head)
        section(head.bytes, into: &w)
        writeTweets(newestFirst.filter { !headIDs.contains($0.id) }, users: &users, to: &rest)
        section(rest.bytes, into: &w)
        return w.bytes
    }

    /// The users these tweets bring that the table lacks, then the tweets.
    private static func writeTweets(_ tweets: [Tweet], users: inout UserTable, to w: inout BinaryWriter) {
        var body = BinaryWriter()
        body.varint(UInt64(tweets.count))
        for t in tweets { TweetCoding.write(t, &body, users: &users, depth: 0) }
        let fresh = users.takeFresh()
        w.varint(UInt64(fresh.count))
        for u in fresh { TweetCoding.write(u, &w) }
        w.raw(body.bytes)
    }

    private static func section(_ body: [UInt8], into w: inout BinaryWriter) {
        w.varint(UInt64(body.count))
        w.raw(body)
        let crc = CRC32.castagnoli(body)
        w.raw([UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
    }

    /// Where the head ends in a file beginning with `prefix`: nil when the prefix does not say
    /// (an older format without a head, or not a cache).
    package static func headEnd(_ prefix: [UInt8]) -> Int? {
        var r = BinaryReader(prefix)
        guard (try? r.raw(magic.count)) == magic, let v = try? r.varint(), v >= 5, v <= formatVersion, let n = try? r.varint(),
            let length = Int(exactly: n), length <= maxFileBytes
        else { return nil }
        return r.offset + length + 4
    }

    /// The snapshot in a cache file's bytes; throws `CacheFormatError` for anything else.
    /// `headOnly`: the head's tweets, each timeline cut to them.
    public static func decode(_ bytes: [UInt8], headOnly: Bool = false) throws -> TimelineSnapshot {
        guard bytes.count >= magic.count + 4, Array(bytes.prefix(magic.count)) == magic else {
            throw CacheFormatError(description: "not a Linnet cache file")
        }
        var r = BinaryReader(bytes)
        _ = try r.raw(magic.count)
        let version = try r.varint()
        guard (2...formatVersion).contains(version) else {
            throw CacheFormatError(description: "written by another version of Linnet (format \(version))")
        }
        guard version >= 5 else { return try decodeLegacy(bytes, version: version, headOnly: headOnly) }
        var head = try section(&r)
        var views: [TimelineID: TimelineView] = [:]
        var order: [TimelineID] = []
        for _ in 0..<(try head.count()) {
            let (id, v) = try readTimeline(&head)
            guard views.updateValue(v, forKey: id) == nil else { throw CacheFormatError(description: "a timeline twice in the head") }
            order.append(id)
        }
        var users: [User] = []
        var tweets = TweetTable()
        try readTweets(&head, users: &users, into: &tweets, version: version)
        guard head.atEnd else { throw CacheFormatError(description: "unexpected data at the end of the head") }
        if headOnly {
            for (id, v) in views { views[id] = cut(v, to: headPerTimeline) }
            return TimelineSnapshot(version: 0, tweets: tweets, timelines: views)
        }
        var rest = try section(&r)
        if version >= 6 {
            // Each timeline's older ids and gaps, in the head's order.
            guard try rest.count() == order.count else { throw CacheFormatError(description: "the rest names other timelines") }
            for id in order {
                guard var v = views.removeValue(forKey: id) else { continue }
                let more = try rest.count()
                v.ids.reserveCapacity(v.ids.count + more)
                for _ in 0..<more { v.ids.append(TweetID(try rest.varint())) }
                for _ in 0..<(try rest.count()) { v.gapsBelow.insert(TweetID(try rest.varint())) }
                views[id] = v
            }
        }
        try readTweets(&rest, users: &users, into: &tweets, version: version)
        guard rest.atEnd, r.atEnd else { throw CacheFormatError(description: "unexpected data at the end") }
        return TimelineSnapshot(version: 0, tweets: tweets, timelines: views)
    }

    /// A section's body, its length and checksum checked; `r` moves past it.
    private static func section(_ r: inout BinaryReader) throws -> BinaryReader {
        let length = try r.count()
        guard length + 4 <= r.remaining else { throw CacheFormatError(description: "the cache file ends early") }
        let start = r.offset
        let body = BinaryReader(r.bytes, start: start, end: start + length)
        try r.skip(length)
        let stored = try (0..<4).reduce(UInt32(0)) { acc, _ in acc << 8 | UInt32(try r.u8()) }
        guard CRC32.castagnoli(r.bytes, from: start, count: length) == stored else {
            throw CacheFormatError(description: "the checksum does not match (damaged or cut short)")
        }
        return body
    }

    static func readTimeline(_ r: inout BinaryReader) throws -> (TimelineID, TimelineView) {
        let id = try TweetCoding.readTimelineID(&r)
        var v = TimelineView()
        let count = try r.count()
        v.ids.reserveCapacity(count)
        for _ in 0..<count { v.ids.append(TweetID(try r.varint())) }
        for _ in 0..<(try r.count()) { v.gapsBelow.insert(TweetID(try r.varint())) }
        let read = try r.varint()
        let anchor = try r.varint()
        v.readMarker = read == 0 ? nil : TweetID(read)
        v.anchor = anchor == 0 ? nil : TweetID(anchor)
        return (id, v)
    }

    private static func readTweets(_ r: inout BinaryReader, users: inout [User], into tweets: inout TweetTable, version: UInt64) throws {
        let fresh = try r.count()
        users.reserveCapacity(users.count + fresh)
        for _ in 0..<fresh { users.append(try TweetCoding.readUser(&r)) }
        let count = try r.count()
        // A tweet takes at least 15 bytes: a damaged count cannot reserve more than the file holds.
        tweets.reserveCapacity(adding: min(count, r.remaining / 15))
        for _ in 0..<count {
            let t = try TweetCoding.readTweet(&r, users: users, depth: 0, version: version)
            tweets[t.id] = t
        }
    }

    /// `bytes` with every checksum made to match, so a fuzzer's changes reach the reader
    /// behind the checksums.
    package static func mendingChecksums(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        func put(_ crc: UInt32, at i: Int) {
            for k in 0..<4 { out[i + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k))) }
        }
        var r = BinaryReader(bytes)
        guard (try? r.raw(magic.count)) == magic, let version = try? r.varint() else { return out }
        guard version >= 5 else {
            if bytes.count >= magic.count + 4 { put(CRC32.of(bytes, count: bytes.count - 4), at: bytes.count - 4) }
            return out
        }
        for _ in 0..<2 {
            guard let length = try? r.count(), length + 4 <= r.remaining else { break }
            put(CRC32.castagnoli(bytes, from: r.offset, count: length), at: r.offset + length)
            try? r.skip(length + 4)
        }
        return out
    }

    /// A timeline's newest `head` tweets, with the gaps among them.
    static func cut(_ view: TimelineView, to head: Int) -> TimelineView {
        var v = view
        v.ids = Array(v.ids.prefix(head))
        if let last = v.ids.last { v.gapsBelow = v.gapsBelow.filter { $0 >= last } }
        return v
    }

    /// Formats 2 to 4: one checksum over the whole file at its end, users with every tweet.
    private static func decodeLegacy(_ bytes: [UInt8], version: UInt64, headOnly: Bool) throws -> TimelineSnapshot {
        let stored = bytes.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard CRC32.of(bytes, count: bytes.count - 4) == stored else {
            throw CacheFormatError(description: "the checksum does not match (damaged or cut short)")
        }
        var r = BinaryReader(bytes, end: bytes.count - 4)
        _ = try r.raw(magic.count)
        _ = try r.varint()
        var views: [TimelineID: TimelineView] = [:]
        for _ in 0..<(try r.count()) {
            let (id, v) = try readTimeline(&r)
            views[id] = headOnly ? cut(v, to: headPerTimeline) : v
        }
        var wanted = Set(views.values.flatMap(\.ids))
        var tweets = TweetTable()
        var users: [UserID: User] = [:]
        for _ in 0..<(try r.count()) {
            if headOnly && wanted.isEmpty { return TimelineSnapshot(version: 0, tweets: tweets, timelines: views) }
            let t = try TweetCoding.readLegacyTweet(&r, users: &users, depth: 0, version: version)
            tweets[t.id] = t
            wanted.remove(t.id)
        }
        guard r.atEnd else { throw CacheFormatError(description: "unexpected data at the end") }
        return TimelineSnapshot(version: 0, tweets: tweets, timelines: views)
    }
}

/// The users a file's tweets name, each written once (the same user object, or an equal one,
/// takes the same place).
struct UserTable {
    private var places: [ObjectIdentifier: Int] = [:]
    private var byID: [UserID: [(user: User, place: Int)]] = [:]
    private var fresh: [User] = []
    private var count = 0

    mutating func place(of u: User) -> Int {
        if let p = places[ObjectIdentifier(u)] { return p }
        let p: Int
        if let same = byID[u.id]?.first(where: { $0.user == u }) {
            p = same.place
        } else {
            p = count
            count += 1
            byID[u.id, default: []].append((u, p))
            fresh.append(u)
        }
        places[ObjectIdentifier(u)] = p
        return p
    }

    /// The users placed since the last call, in order.
    mutating func takeFresh() -> [User] {
        defer { fresh = [] }
        return fresh
    }
}
