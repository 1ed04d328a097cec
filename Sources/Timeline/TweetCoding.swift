import TwitterAPI

/// The cache's encoding of tweets, users and timeline ids (formats 5 to 8). A section lists the
/// users its tweets bring first, then the tweets, each naming its user by place in the file's
/// user table; entities are written as a tweet keeps them.
enum TweetCoding {
    /// Flags after the counts: what the tweet carries.
    enum Flag {
        static let favorited: UInt8 = 1, retweeted: UInt8 = 2, truncated: UInt8 = 4, extras: UInt8 = 8
        static let retweetOf: UInt8 = 16, quote: UInt8 = 32
    }

    static func write(_ t: Tweet, _ w: inout BinaryWriter, users: inout UserTable, depth: Int) {
        w.varint(t.id.rawValue)
        w.int(t.createdAt)
        w.varint(UInt64(users.place(of: t.user)))
        // The text's bytes as kept: the entities' codes point into them.
        let text = t.textBytes
        w.varint(UInt64(text.count))
        w.raw(text)
        w.int(t.displayRange.map { Int64($0.lowerBound) } ?? -1)
        w.int(t.displayRange.map { Int64($0.upperBound) } ?? -1)
        let packed = t.entityBytes
        w.varint(UInt64(packed.count))
        w.raw(packed)
        w.varint(t.inReplyToStatusID?.rawValue ?? 0)
        w.varint(t.inReplyToUserID?.rawValue ?? 0)
        w.optionalString(t.inReplyToScreenName)
        w.varint(t.quotedStatusID?.rawValue ?? 0)
        w.int(t.retweetCount)
        w.int(t.favoriteCount)
        let retweetOf = depth < 2 ? t.retweetedStatus : nil
        let quote = depth < 2 ? t.quotedStatus : nil
        var flags: UInt8 = t.isFavorited ? Flag.favorited : 0
        if t.isRetweeted { flags |= Flag.retweeted }
        if t.isTruncated { flags |= Flag.truncated }
        if t.extras != nil { flags |= Flag.extras }
        if retweetOf != nil { flags |= Flag.retweetOf }
        if quote != nil { flags |= Flag.quote }
        w.u8(flags)
        w.optionalString(t.lang)
        if let x = t.extras { write(x, &w) }
        if let retweetOf { write(retweetOf, &w, users: &users, depth: depth + 1) }
        if let quote { write(quote, &w, users: &users, depth: depth + 1) }
    }

    /// `version`: the file's format; before 8, entities as `Entities.packed` writes them.
    static func readTweet(_ r: inout BinaryReader, users: [User], depth: Int, version: UInt64) throws -> Tweet {
        guard depth <= 2 else { throw CacheFormatError(description: "tweets nested too deeply") }
        let id = TweetID(try r.varint())
        let created = try r.int()
        let place = try r.varint()
        guard place < users.count else { throw CacheFormatError(description: "a tweet names a user the cache does not have") }
        let text = try r.slice(Int(clamping: try r.varint()))
        let ds = try r.int()
        let de = try r.int()
        let packed = try r.slice(Int(clamping: try r.varint()))
        let compacted = version >= 8
        guard compacted ? Entities.isWellFormedCompaction(packed[...]) : Entities.isWellFormedPacking(packed) else {
            throw CacheFormatError(description: "a tweet's entities are damaged")
        }
        let x = try readTail(&r)
        let retweeted = x.flags & Flag.retweetOf != 0 ? try readTweet(&r, users: users, depth: depth + 1, version: version) : nil
        let quoted = x.flags & Flag.quote != 0 ? try readTweet(&r, users: users, depth: depth + 1, version: version) : nil
        return text.withUnsafeBufferPointer { t in
            packed.withUnsafeBufferPointer { e in
                Tweet(
                    id: id, createdAt: created, user: users[Int(place)], textBytes: t, entities: compacted ? .compacted(e) : .packed(e),
                    displayRange: displayRange(ds, de), inReplyToStatusID: x.replyStatus, inReplyToUserID: x.replyUser,
                    inReplyToScreenName: x.replyName, retweetedStatus: retweeted, quotedStatus: quoted, quotedStatusID: x.quotedID,
                    retweetCount: x.retweets, favoriteCount: x.favorites, isFavorited: x.flags & Flag.favorited != 0,
                    isRetweeted: x.flags & Flag.retweeted != 0, isTruncated: x.flags & Flag.truncated != 0, lang: x.lang, extras: x.extras)
            }
        }
    }

    /// The fields after the entities, the same in every format (nested tweets follow, marked
    /// in format 5 by the flags, before it by a byte each).
    struct Tail {
        var replyStatus: TweetID?, replyUser: UserID?, replyName: String?, quotedID: TweetID?
        var retweets: Int, favorites: Int
        var flags: UInt8
        var lang: String?
        var extras: TweetExtras?
    }

    static func readTail(_ r: inout BinaryReader) throws -> Tail {
        let replyStatus = try r.varint()
        let replyUser = try r.varint()
        let replyName = try r.optionalString()
        let quotedID = try r.varint()
        let retweets = try r.intValue()
        let favorites = try r.intValue()
        let flags = try r.u8()
        let lang = try r.optionalString()
        return Tail(
            replyStatus: replyStatus == 0 ? nil : TweetID(replyStatus), replyUser: replyUser == 0 ? nil : UserID(replyUser),
            replyName: replyName, quotedID: quotedID == 0 ? nil : TweetID(quotedID), retweets: retweets, favorites: favorites,
            flags: flags, lang: lang, extras: flags & Flag.extras != 0 ? try readExtras(&r) : nil)
    }

    static func displayRange(_ start: Int64, _ end: Int64) -> Range<Int>? {
        start >= 0 && end >= start ? Int(start)..<Int(end) : nil
    }

    static func write(_ x: TweetExtras, _ w: inout BinaryWriter) {
        w.varint(UInt64(x.olderVersions.count))
        for v in x.olderVersions { w.varint(v.rawValue) }
        w.varint(x.newestVersion?.rawValue ?? 0)
        w.varint(x.conversationID?.rawValue ?? 0)
        w.varint(UInt64(x.withheldIn.count))
        for c in x.withheldIn { w.string(c) }
        w.u8((x.withheldForCopyright ? 1 : 0) | (x.isLongPost ? 2 : 0) | (x.poll != nil ? 4 : 0))
        w.optionalString(x.replySettings)
        // A poll follows when its bit is set (older caches have none).
        if let p = x.poll {
            w.varint(UInt64(p.choices.count))
            for c in p.choices {
                w.string(c.label)
                w.varint(UInt64(max(0, c.votes)))
            }
            w.varint(p.endsAt.map { UInt64(bitPattern: $0) &+ 1 } ?? 0)
            w.varint(UInt64(max(0, p.durationMinutes ?? 0)))
            w.u8(p.isClosed ? 1 : 0)
        }
    }

    static func readExtras(_ r: inout BinaryReader) throws -> TweetExtras {
        var older: [TweetID] = []
        for _ in 0..<(try r.count()) { older.append(TweetID(try r.varint())) }
        let newest = try r.varint()
        let conversation = try r.varint()
        var withheld: [String] = []
        for _ in 0..<(try r.count()) { withheld.append(try r.string()) }
        let xflags = try r.u8()
        let reply = try r.optionalString()
        var poll: Poll?
        if xflags & 4 != 0 {
            var choices: [Poll.Choice] = []
            let n = try r.count()
            guard n <= Poll.maxChoices else { throw CacheFormatError(description: "a poll in the cache has too many choices") }
            for _ in 0..<n { choices.append(Poll.Choice(label: try r.string(), votes: Int(clamping: try r.varint()))) }
            let ends = try r.varint()
            let minutes = try r.varint()
            poll = Poll(
                choices: choices, endsAt: ends == 0 ? nil : Int64(bitPattern: ends &- 1),
                durationMinutes: minutes == 0 ? nil : Int(clamping: minutes), isClosed: try r.u8() == 1)
        }
        return TweetExtras(
            olderVersions: older, newestVersion: newest == 0 ? nil : TweetID(newest),
            conversationID: conversation == 0 ? nil : TweetID(conversation), withheldIn: withheld,
            withheldForCopyright: xflags & 1 != 0, isLongPost: xflags & 2 != 0, replySettings: reply, poll: poll)
    }

    static func write(_ u: User, _ w: inout BinaryWriter) {
        w.varint(u.id.rawValue)
        w.string(u.screenName)
        w.string(u.name)
        w.string(u.userDescription)
        w.string(u.location)
        w.optionalString(u.url)
        w.u8((u.isProtected ? 1 : 0) | (u.isVerified ? 2 : 0))
        w.int(u.followersCount)
        w.int(u.friendsCount)
        w.int(u.statusesCount)
        w.int(u.createdAt ?? Int64.min)
    }

    static func readUser(_ r: inout BinaryReader) throws -> User {
        let id = UserID(try r.varint())
        let screenName = try r.string()
        let name = try r.string()
        let description = try r.string()
        let location = try r.string()
        let url = try r.optionalString()
        let flags = try r.u8()
        let followers = try r.intValue()
        let friends = try r.intValue()
        let statuses = try r.intValue()
        let created = try r.int()
        return User(
            id: id, screenName: screenName, name: name, userDescription: description, location: location, url: url,
            isProtected: flags & 1 != 0, isVerified: flags & 2 != 0, followersCount: followers, friendsCount: friends,
            statusesCount: statuses, createdAt: created == Int64.min ? nil : created)
    }

    static func write(_ id: TimelineID, _ w: inout BinaryWriter) {
        switch id {
        case .home: w.u8(0)
        case .mentions: w.u8(1)
        case .search(let q):
            w.u8(2)
            w.string(q)
        case .user(let n):
            w.u8(3)
            w.string(n)
        case .thread(let t):
            w.u8(4)
            w.varint(t.rawValue)
        case .likes(let n):
            w.u8(5)
            w.string(n)
        case .list(let ref):
            w.u8(6)
            w.string(ref)
        case .messages: w.u8(7)
        case .conversation(let c):
            w.u8(8)
            w.string(c)
        }
    }

    static func readTimelineID(_ r: inout BinaryReader) throws -> TimelineID {
        switch try r.u8() {
        case 0: return .home
        case 1: return .mentions
        case 2: return .search(try r.string())
        case 3: return .user(try r.string())
        case 4: return .thread(TweetID(try r.varint()))
        case 5: return .likes(try r.string())
        case 6: return .list(try r.string())
        case 7: return .messages
        case 8: return .conversation(try r.string())
        case let k: throw CacheFormatError(description: "unknown timeline kind \(k)")
        }
    }
}
