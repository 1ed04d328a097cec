import TwitterAPI

/// The cache's encoding of tweets, users and timeline ids.
enum TweetCoding {
    static func write(_ t: Tweet, _ w: inout BinaryWriter, depth: Int) {
        w.varint(t.id.rawValue)
        w.int(t.createdAt)
        write(t.user, &w)
        w.string(t.text)
        w.int(t.displayRange.map { Int64($0.lowerBound) } ?? -1)
        w.int(t.displayRange.map { Int64($0.upperBound) } ?? -1)
        let e = t.entities
        w.varint(UInt64(e.urls.count))
        for u in e.urls {
            w.string(u.target)
            w.string(u.display)
            range(u.range, &w)
        }
        w.varint(UInt64(e.media.count))
        for m in e.media {
            w.string(m.type)
            w.string(m.target)
            w.string(m.display)
            w.optionalString(m.mediaURL)
            range(m.range, &w)
            w.varint(UInt64(max(0, m.width)))
            w.varint(UInt64(max(0, m.height)))
            w.optionalString(m.altText)
        }
        w.varint(UInt64(e.mentions.count))
        for m in e.mentions {
            w.string(m.screenName)
            w.varint(m.userID?.rawValue ?? 0)
            range(m.range, &w)
        }
        w.varint(UInt64(e.hashtags.count))
        for h in e.hashtags {
            w.string(h.text)
            w.bool(h.isSymbol)
            range(h.range, &w)
        }
        w.varint(t.inReplyToStatusID?.rawValue ?? 0)
        w.varint(t.inReplyToUserID?.rawValue ?? 0)
        w.optionalString(t.inReplyToScreenName)
        w.varint(t.quotedStatusID?.rawValue ?? 0)
        w.int(t.retweetCount)
        w.int(t.favoriteCount)
        w.u8((t.isFavorited ? 1 : 0) | (t.isRetweeted ? 2 : 0) | (t.isTruncated ? 4 : 0) | (t.extras != nil ? 8 : 0))
        w.optionalString(t.lang)
        if let x = t.extras {
            w.varint(UInt64(x.olderVersions.count))
            for v in x.olderVersions { w.varint(v.rawValue) }
            w.varint(x.newestVersion?.rawValue ?? 0)
            w.varint(x.conversationID?.rawValue ?? 0)
            w.varint(UInt64(x.withheldIn.count))
            for c in x.withheldIn { w.string(c) }
            w.u8((x.withheldForCopyright ? 1 : 0) | (x.isLongPost ? 2 : 0))
            w.optionalString(x.replySettings)
        }
        for nested in [t.retweetedStatus, t.quotedStatus] {
            if let n = nested, depth < 2 {
                w.bool(true)
                write(n, &w, depth: depth + 1)
            } else {
                w.bool(false)
            }
        }
    }

    /// `version`: the file's format; media sizes and alt text came with format 4.
    static func readTweet(_ r: inout BinaryReader, users: inout [UserID: User], depth: Int, version: UInt64 = TimelineCache.formatVersion)
        throws -> Tweet
    {
        guard depth <= 2 else { throw CacheFormatError(description: "tweets nested too deeply") }
        let id = TweetID(try r.varint())
        let created = try r.int()
        let user = try readUser(&r, users: &users)
        let text = try r.string()
        let ds = try r.int()
        let de = try r.int()
        var e = Entities()
        for _ in 0..<(try r.varint()) {
            e.urls.append(Entities.Link(target: try r.string(), display: try r.string(), range: try readRange(&r)))
        }
        for _ in 0..<(try r.varint()) {
            var m = Entities.Media(
                type: try r.string(), target: try r.string(), display: try r.string(), mediaURL: try r.optionalString(),
                range: try readRange(&r))
            if version >= 4 {
                m.width = Int32(clamping: try r.varint())
                m.height = Int32(clamping: try r.varint())
                m.altText = try r.optionalString()
            }
            e.media.append(m)
        }
        for _ in 0..<(try r.varint()) {
            let name = try r.string()
            let uid = try r.varint()
            e.mentions.append(Entities.Mention(screenName: name, userID: uid == 0 ? nil : UserID(uid), range: try readRange(&r)))
        }
        for _ in 0..<(try r.varint()) {
            e.hashtags.append(Entities.Hashtag(text: try r.string(), isSymbol: try r.bool(), range: try readRange(&r)))
        }
        let replyStatus = try r.varint()
        let replyUser = try r.varint()
        let replyName = try r.optionalString()
        let quotedID = try r.varint()
        let retweets = try r.intValue()
        let favorites = try r.intValue()
        let flags = try r.u8()
        let lang = try r.optionalString()
        var extras: TweetExtras?
        if flags & 8 != 0 {
            var older: [TweetID] = []
            for _ in 0..<(try r.varint()) { older.append(TweetID(try r.varint())) }
            let newest = try r.varint()
            let conversation = try r.varint()
            var withheld: [String] = []
            for _ in 0..<(try r.varint()) { withheld.append(try r.string()) }
            let xflags = try r.u8()
            extras = TweetExtras(
                olderVersions: older, newestVersion: newest == 0 ? nil : TweetID(newest),
                conversationID: conversation == 0 ? nil : TweetID(conversation), withheldIn: withheld,
                withheldForCopyright: xflags & 1 != 0, isLongPost: xflags & 2 != 0, replySettings: try r.optionalString())
        }
        let retweeted = try r.bool() ? try readTweet(&r, users: &users, depth: depth + 1, version: version) : nil
        let quoted = try r.bool() ? try readTweet(&r, users: &users, depth: depth + 1, version: version) : nil
        return Tweet(
            id: id, createdAt: created, user: user, text: text,
            displayRange: ds >= 0 && de >= ds ? Int(ds)..<Int(de) : nil, entities: e,
            inReplyToStatusID: replyStatus == 0 ? nil : TweetID(replyStatus), inReplyToUserID: replyUser == 0 ? nil : UserID(replyUser),
            inReplyToScreenName: replyName, retweetedStatus: retweeted, quotedStatus: quoted,
            quotedStatusID: quotedID == 0 ? nil : TweetID(quotedID), retweetCount: retweets, favoriteCount: favorites,
            isFavorited: flags & 1 != 0, isRetweeted: flags & 2 != 0, isTruncated: flags & 4 != 0, lang: lang, extras: extras)
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

    /// Users are written with every tweet but read back as one object each.
    static func readUser(_ r: inout BinaryReader, users: inout [UserID: User]) throws -> User {
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
        let u = User(
            id: id, screenName: screenName, name: name, userDescription: description, location: location, url: url,
            isProtected: flags & 1 != 0, isVerified: flags & 2 != 0, followersCount: followers, friendsCount: friends,
            statusesCount: statuses, createdAt: created == Int64.min ? nil : created)
        if let known = users[id], known == u { return known }
        users[id] = u
        return u
    }

    static func range(_ r: Range<Int>, _ w: inout BinaryWriter) {
        w.varint(UInt64(r.lowerBound))
        w.varint(UInt64(r.count))
    }

    static func readRange(_ r: inout BinaryReader) throws -> Range<Int> {
        let start = Int(truncatingIfNeeded: try r.varint())
        let count = Int(truncatingIfNeeded: try r.varint())
        guard start >= 0, count >= 0, start <= Int(Int32.max), count <= Int(Int32.max) else {
            throw CacheFormatError(description: "an entity range is out of bounds")
        }
        return start..<(start + count)
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
