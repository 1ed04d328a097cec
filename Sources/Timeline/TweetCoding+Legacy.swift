import TwitterAPI

/// Formats 2 to 4 of the cache, still read: every tweet carried its user whole and its
/// entities field by field.
extension TweetCoding {
    /// `version`: the file's format; media sizes and alt text came with format 4.
    static func readLegacyTweet(_ r: inout BinaryReader, users: inout [UserID: User], depth: Int, version: UInt64) throws -> Tweet {
        guard depth <= 2 else { throw CacheFormatError(description: "tweets nested too deeply") }
        let id = TweetID(try r.varint())
        let created = try r.int()
        let user = try readLegacyUser(&r, users: &users)
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
        let x = try readTail(&r)
        let retweeted = try r.bool() ? try readLegacyTweet(&r, users: &users, depth: depth + 1, version: version) : nil
        let quoted = try r.bool() ? try readLegacyTweet(&r, users: &users, depth: depth + 1, version: version) : nil
        return Tweet(
            id: id, createdAt: created, user: user, text: text, displayRange: displayRange(ds, de), entities: e,
            inReplyToStatusID: x.replyStatus, inReplyToUserID: x.replyUser, inReplyToScreenName: x.replyName,
            retweetedStatus: retweeted, quotedStatus: quoted, quotedStatusID: x.quotedID, retweetCount: x.retweets,
            favoriteCount: x.favorites, isFavorited: x.flags & Flag.favorited != 0, isRetweeted: x.flags & Flag.retweeted != 0,
            isTruncated: x.flags & Flag.truncated != 0, lang: x.lang, extras: x.extras)
    }

    /// Users were written with every tweet but are read back as one object each.
    static func readLegacyUser(_ r: inout BinaryReader, users: inout [UserID: User]) throws -> User {
        let u = try readUser(&r)
        if let known = users[u.id], known == u { return known }
        users[u.id] = u
        return u
    }

    static func readRange(_ r: inout BinaryReader) throws -> Range<Int> {
        let start = Int(truncatingIfNeeded: try r.varint())
        let count = Int(truncatingIfNeeded: try r.varint())
        guard start >= 0, count >= 0, start <= Int(Int32.max), count <= Int(Int32.max) else {
            throw CacheFormatError(description: "an entity range is out of bounds")
        }
        return start..<(start + count)
    }

}
