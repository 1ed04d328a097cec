import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Reading a v2 post, its entities and media, and a user, into plain records.
extension V2Decoder {
    // MARK: - Posts

    /// A post's fields, before it is joined with what `includes` holds. Its texts and entities
    /// lie in the page's arena (valid UTF-8, as `appendUTF8` writes them); what few posts carry
    /// is in `extras`, so a post is copied and dropped with three references.
    struct RawPost: Sendable {
        var id: UInt64?
        var text: Range<Int>?
        var authorID: UInt64?
        var createdAt: Int64?
        var conversationID: UInt64?
        var inReplyToUserID: UInt64?
        var retweeted: UInt64?
        var quoted: UInt64?
        var repliedTo: UInt64?
        var entities = RawEntities()
        var displayRange: Range<Int>?
        var retweetCount = 0
        var likeCount = 0
        /// `edit_history_tweet_ids`, its first id apart: the usual history, the post alone,
        /// needs no array.
        var firstEdit: UInt64?
        var lang: String?
        var extras: RawPostExtras?

        var noteText: Range<Int>? { extras?.value.noteText }
        var noteEntities: RawEntities? { extras?.value.noteEntities }
        var mediaKeys: [String] { extras?.value.mediaKeys ?? [] }

        var editHistory: [UInt64] {
            let later = extras?.value.laterEdits ?? []
            return firstEdit.map { [$0] + later } ?? later
        }

        /// Whether the edit history names a post other than `id`.
        func editsOther(than id: UInt64) -> Bool {
            (firstEdit.map { $0 != id } ?? false) || (extras?.value.laterEdits.contains { $0 != id } ?? false)
        }
    }

    /// What a post carries only now and then: a long post's note, a longer edit history,
    /// attachments, withholding, reply settings that limit who may answer.
    struct RawPostRarities: Sendable {
        var noteText: Range<Int>?
        var noteEntities: RawEntities?
        var laterEdits: [UInt64] = []
        var withheldIn: [String] = []
        var replySettings: String?
        var withheldCopyright = false
        var mediaKeys: [String] = []
        var pollIDs: [String] = []
    }

    /// Those, boxed once read.
    final class RawPostExtras: Sendable {
        let value: RawPostRarities
        init(_ value: RawPostRarities) { self.value = value }
    }

    struct RawMedia {
        var key: String?
        var type = "photo"
        var url: String?
        var preview: String?
        var width = 0
        var height = 0
        var alt: String?
        var durationMs = 0
    }

    func post(_ r: inout JSONReader) throws -> RawPost {
        var p = RawPost()
        var rare = RawPostRarities()
        var isRare = false
        try r.readObject { r, key in
            switch key {
            case "id": p.id = try r.lenientID()
            case "text": p.text = try r.appendUTF8(to: self.arena)
            case "author_id": p.authorID = try r.lenientID()
            case "created_at": p.createdAt = try r.optionalTime(TwitterDate.parseAny(utf8:))
            case "conversation_id": p.conversationID = try r.lenientID()
            case "in_reply_to_user_id": p.inReplyToUserID = try r.lenientID()
            case "referenced_tweets", "referenced_posts":
                guard r.peek() == .array else { return try r.skipValue() }
                try r.readArray { r in
                    guard r.peek() == .object else { return try r.skipValue() }
                    var kind: String?
                    var id: UInt64?
                    try r.readObject { r, key in
                        switch key {
                        case "type": kind = try r.optionalString()
                        case "id": id = try r.lenientID()
                        default: try r.skipValue()
                        }
                    }
                    switch kind {
                    case "retweeted", "reposted": p.retweeted = id
                    case "quoted": p.quoted = id
                    case "replied_to": p.repliedTo = id
                    default: break
                    }
                }
            case "entities": p.entities = try self.entities(&r)
            case "note_tweet", "note_post":
                guard r.peek() == .object else { return try r.skipValue() }
                isRare = true
                try r.readObject { r, key in
                    switch key {
                    case "text": rare.noteText = try r.appendUTF8(to: self.arena)
                    case "entities": rare.noteEntities = try self.entities(&r)
                    default: try r.skipValue()
                    }
                }
            case "display_text_range": p.displayRange = try r.optionalRange()
            case "public_metrics":
                guard r.peek() == .object else { return try r.skipValue() }
                try r.readObject { r, key in
                    switch key {
                    case "retweet_count", "repost_count": p.retweetCount = try r.lenientInt() ?? 0
                    case "like_count": p.likeCount = try r.lenientInt() ?? 0
                    default: try r.skipValue()
                    }
                }
            case "edit_history_tweet_ids", "edit_history_post_ids":
                guard r.peek() == .array else { return try r.skipValue() }
                try r.readArray { r in
                    guard let id = try r.lenientID() else { return }
                    if p.firstEdit == nil {
                        p.firstEdit = id
                    } else {
                        isRare = true
                        rare.laterEdits.append(id)
                    }
                }
            case "reply_settings":
                // "everyone", what most posts say, says nothing the post keeps: no box for it.
                guard let s = try r.optionalString(), s != "everyone", !s.isEmpty else { return }
                isRare = true
                rare.replySettings = s
            case "withheld":
                guard r.peek() == .object else { return try r.skipValue() }
                isRare = true
                try r.readObject { r, key in
                    switch key {
                    case "copyright": rare.withheldCopyright = try r.optionalBool() ?? false
                    case "country_codes":
                        guard r.peek() == .array else { return try r.skipValue() }
                        try r.readArray { r in if let c = try r.optionalString() { rare.withheldIn.append(c) } }
                    default: try r.skipValue()
                    }
                }
            case "attachments":
                guard r.peek() == .object else { return try r.skipValue() }
                isRare = true
                try r.readObject { r, key in
                    guard r.peek() == .array else { return try r.skipValue() }
                    switch key {
                    case "media_keys": try r.readArray { r in if let k = try r.optionalString() { rare.mediaKeys.append(k) } }
                    case "poll_ids": try r.readArray { r in if let k = try r.optionalString() { rare.pollIDs.append(k) } }
                    default: try r.skipValue()
                    }
                }
            case "lang": p.lang = try r.optionalString()
            default: try r.skipValue()
            }
        }
        if isRare { p.extras = RawPostExtras(rare) }
        return p
    }

    /// `{"urls","mentions","hashtags","cashtags"}`, each item with `start` and `end` (end
    /// exclusive) in code points of the text as delivered, as v1.1's indices are: the ranges are
    /// kept as they come and checked against the text when the post is joined.
    func entities(_ r: inout JSONReader) throws -> RawEntities {
        try entityReader.read(&r, into: arena)
    }

    func media(_ r: inout JSONReader) throws -> RawMedia {
        var m = RawMedia()
        guard r.peek() == .object else {
            try r.skipValue()
            return m
        }
        try r.readObject { r, key in
            switch key {
            case "media_key": m.key = try r.optionalString()
            case "type": m.type = try r.optionalString() ?? "photo"
            case "url": m.url = try r.optionalString()
            case "preview_image_url": m.preview = try r.optionalString()
            case "width": m.width = try r.lenientInt() ?? 0
            case "height": m.height = try r.lenientInt() ?? 0
            case "alt_text": m.alt = try r.optionalString()
            case "duration_ms": m.durationMs = try r.lenientInt() ?? 0
            default: try r.skipValue()
            }
        }
        return m
    }

    /// A poll of `includes`, with its id; nil when the object is not one.
    func poll(_ r: inout JSONReader) throws -> (String, Poll)? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var id: String?
        var poll = Poll(choices: [])
        var positioned: [(Int, Poll.Choice)] = []
        try r.readObject { r, key in
            switch key {
            case "id": id = try r.optionalString()
            case "duration_minutes": poll.durationMinutes = try r.lenientInt()
            case "end_datetime": poll.endsAt = try r.optionalTime(TwitterDate.parseISO(utf8:))
            case "voting_status": poll.isClosed = try r.optionalString() == "closed"
            case "options":
                guard r.peek() == .array else { return try r.skipValue() }
                try r.readArray { r in
                    guard r.peek() == .object else { return try r.skipValue() }
                    var position = positioned.count + 1
                    var choice = Poll.Choice(label: "", votes: 0)
                    try r.readObject { r, key in
                        switch key {
                        case "position": position = try r.lenientInt() ?? position
                        case "label": choice.label = try r.optionalString() ?? ""
                        case "votes": choice.votes = max(0, try r.lenientInt() ?? 0)
                        default: try r.skipValue()
                        }
                    }
                    if positioned.count < Poll.maxChoices { positioned.append((position, choice)) }
                }
            default: try r.skipValue()
            }
        }
        poll.choices = positioned.sorted { $0.0 < $1.0 }.map(\.1)
        guard let id, !poll.choices.isEmpty else { return nil }
        return (id, poll)
    }

    // MARK: - Users

    /// A user of `includes`, from the cache when its bytes were seen before; nil when the object
    /// is not a user.
    func knownUser(_ r: inout JSONReader) throws -> User? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        let start = r.offset
        do {
            return try usersByBytes.user(&r) { try self.user(&$0) }
        } catch is DecodeError {
            // Not a user (no id): skipped, the page goes on.
            r.rewind(to: start)
            try r.skipValue()
            return nil
        }
    }

    func user(_ r: inout JSONReader) throws -> User {
        guard r.peek() == .object else { throw r.fail("expected an object for a user") }
        var id: UInt64?
        var username: String?
        var name = ""
        var description = ""
        var location = ""
        var url: String?
        var expandedURL: String?
        var protected = false
        var verified = false
        var followers = 0
        var following = 0
        var posts = 0
        var createdAt: Int64?
        try r.readObject { r, key in
            switch key {
            case "id": id = try r.lenientID()
            case "username": username = try r.optionalString()
            case "name": name = try r.optionalString() ?? ""
            case "description": description = try r.optionalString() ?? ""
            case "location": location = try r.optionalString() ?? ""
            case "url": url = try r.optionalString()
            case "entities":
                // `entities.url.urls[0].expanded_url`: where the profile's link leads.
                guard r.peek() == .object else { return try r.skipValue() }
                try r.readObject { r, key in
                    guard key.equals("url") else { return try r.skipValue() }
                    expandedURL = try self.entities(&r).entities(self.arena.bytes).urls.first?.target
                }
            case "protected": protected = try r.optionalBool() ?? false
            case "verified": verified = try r.optionalBool() ?? false
            case "public_metrics":
                guard r.peek() == .object else { return try r.skipValue() }
                try r.readObject { r, key in
                    switch key {
                    case "followers_count": followers = try r.lenientInt() ?? 0
                    case "following_count": following = try r.lenientInt() ?? 0
                    case "tweet_count", "post_count": posts = try r.lenientInt() ?? 0
                    default: try r.skipValue()
                    }
                }
            case "created_at": createdAt = try r.optionalTime(TwitterDate.parseAny(utf8:))
            default: try r.skipValue()
            }
        }
        guard let id else { throw DecodeError("user has no id") }
        return User(
            id: UserID(id), screenName: username ?? "", name: name, userDescription: description, location: location,
            url: expandedURL ?? url, isProtected: protected, isVerified: verified, followersCount: followers, friendsCount: following,
            statusesCount: posts, createdAt: createdAt)
    }
}
