import Foundation

/// Turns X API v2 JSON into Linnet's models, with the same pull reader as v1.1. A v2 answer
/// spreads a post over `data` and `includes` (its author, the posts it references, its media),
/// in either order: one pass reads both into plain records, then each post is joined into a
/// `Tweet` the store cannot tell from a v1.1 one. Every field is optional except a post's or a
/// user's `id` (v2 sends only what was asked for); numbers are read from numbers or strings;
/// the Post spellings of newer documents (`note_post`, `includes.posts`, …) read like the Tweet
/// ones (docs/PROTOCOL-V2.md §3). Not thread-safe: give each task its own.
public final class V2Decoder {
    /// How deep referenced posts are joined (a retweet of a quote of a post).
    static let maxDepth = 3
    private var userCache: [UserID: User] = [:]
    /// Authors come back page after page, byte for byte, and are not parsed again.
    private var usersByBytes = UserBytesCache(limit: V1Decoder.maxUserCacheEntries)

    public init() {}

    // MARK: - Documents

    /// An answer whose `data` is a post or a list of posts (timelines, search, lookup, create).
    public func posts(from data: Data) throws -> V2PostsPage {
        try document(data) { r in
            var e = Envelope()
            try self.envelope(&r, &e, dataIsPosts: true)
            var page = V2PostsPage()
            page.meta = e.meta
            page.errors = e.errors
            // Authors in `includes` come from the bytes cache: already one object per user.
            let joiner = Joiner(e, users: Self.byID(e.users))
            for (i, raw) in e.posts.enumerated() {
                if let t = joiner.tweet(raw, depth: 0) {
                    page.tweets.append(t)
                } else {
                    page.problems.append(DecodeProblem(index: i, reason: "post has no id"))
                }
            }
            page.problems += e.dataProblems
            return page
        }
    }

    /// An answer whose `data` is a user or a list of users (`users/me`, lookups).
    public func users(from data: Data) throws -> V2UsersPage {
        try document(data) { r in
            var e = Envelope()
            try self.envelope(&r, &e, dataIsPosts: false)
            var page = V2UsersPage()
            page.meta = e.meta
            page.errors = e.errors
            page.users = self.intern(e.dataUsers)
            page.problems = e.dataProblems
            return page
        }
    }

    /// One line of the filtered stream (without its line end).
    public func streamMessage<Bytes: ContiguousBytes>(bytes: Bytes) throws -> V2StreamMessage {
        try document(bytes) { r in
            var e = Envelope()
            try self.envelope(&r, &e, dataIsPosts: true)
            if let raw = e.posts.first {
                let joiner = Joiner(e, users: Self.byID(e.users))
                if let t = joiner.tweet(raw, depth: 0) { return .post(t, rules: e.matchingRules) }
            }
            if let p = e.errors.first(where: {
                $0.disconnectType != nil || $0.connectionIssue != nil || $0.kind == "operational-disconnect"
            }) {
                return .disconnect(p)
            }
            if !e.errors.isEmpty { return .errors(e.errors) }
            return .unknown
        }
    }

    /// The problems of an error answer: a top-level problem object, or an `errors` array of
    /// problems or of v1-style `{"code","message"}`.
    public func problems(from data: Data) throws -> [V2Problem] {
        try document(data) { r in
            guard r.peek() == .object else { throw r.fail("expected an object") }
            var top = V2Problem()
            var list: [V2Problem] = []
            try r.readObject { r, key in
                if key.equals("errors"), r.peek() == .array {
                    try r.readArray { r in if let p = try self.problem(&r) { list.append(p) } }
                } else {
                    try self.problemField(key, &r, &top)
                }
            }
            if top.title != nil || top.detail != nil || top.type != nil { list.insert(top, at: 0) }
            return list
        }
    }

    private func document<T, Bytes: ContiguousBytes>(_ data: Bytes, _ body: (inout JSONReader) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in
            var r = JSONReader(raw)
            let value = try body(&r)
            guard r.atEnd() else { throw r.fail("unexpected data after the document") }
            return value
        }
    }

    /// One `User` object per id and content, shared by every post of a page and of later pages.
    /// Code points in `text`: its UTF-8 bytes less those that continue a sequence (`10xxxxxx`),
    /// counted eight at a time.
    static func codePoints(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
            var continuing = 0
            var i = 0
            let n = bytes.count
            let raw = UnsafeRawPointer(base)
            while i + 8 <= n {
                let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                continuing += (x & ~(x << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
                i += 8
            }
            while i < n {
                if bytes[i] & 0xC0 == 0x80 { continuing += 1 }
                i += 1
            }
            return n - continuing
        }
    }

    private static func byID(_ users: [User]) -> [UserID: User] {
        var out: [UserID: User] = [:]
        out.reserveCapacity(users.count)
        for u in users { out[u.id] = u }
        return out
    }

    private func intern(_ users: [User]) -> [UserID: User] {
        var out: [UserID: User] = [:]
        out.reserveCapacity(users.count)
        for u in users {
            if let known = userCache[u.id], known == u {
                out[u.id] = known
            } else {
                if userCache.count >= V1Decoder.maxUserCacheEntries { userCache.removeAll(keepingCapacity: true) }
                userCache[u.id] = u
                out[u.id] = u
            }
        }
        return out
    }

    private func intern(_ users: [User]) -> [User] {
        let map: [UserID: User] = intern(users)
        return users.map { map[$0.id] ?? $0 }
    }

    // MARK: - The envelope

    /// Everything of one answer, before joining.
    struct Envelope {
        var posts: [RawPost] = []
        var dataUsers: [User] = []
        var dataProblems: [DecodeProblem] = []
        var users: [User] = []
        var includedPosts: [UInt64: RawPost] = [:]
        var media: [String: RawMedia] = [:]
        var meta = V2Meta()
        var errors: [V2Problem] = []
        var matchingRules: [V2MatchingRule] = []
    }

    private func envelope(_ r: inout JSONReader, _ e: inout Envelope, dataIsPosts: Bool) throws {
        guard r.peek() == .object else { throw r.fail("expected an object for a v2 answer") }
        try r.readObject { r, key in
            switch key {
            case "data":
                if dataIsPosts { try self.dataPosts(&r, &e) } else { try self.dataUsers(&r, &e) }
            case "includes": try self.includes(&r, &e)
            case "meta": e.meta = try self.meta(&r)
            case "errors":
                guard r.peek() == .array else { return try r.skipValue() }
                try r.readArray { r in if let p = try self.problem(&r) { e.errors.append(p) } }
            case "matching_rules":
                guard r.peek() == .array else { return try r.skipValue() }
                try r.readArray { r in if let rule = try self.matchingRule(&r) { e.matchingRules.append(rule) } }
            default: try r.skipValue()
            }
        }
    }

    private func dataPosts(_ r: inout JSONReader, _ e: inout Envelope) throws {
        switch r.peek() {
        case .object: e.posts.append(try post(&r))
        case .array:
            var i = 0
            try r.readArray { r in
                if r.peek() == .object {
                    e.posts.append(try self.post(&r))
                } else {
                    try r.skipValue()
                    e.dataProblems.append(DecodeProblem(index: i, reason: "not a post object"))
                }
                i += 1
            }
        default: try r.skipValue()
        }
    }

    private func dataUsers(_ r: inout JSONReader, _ e: inout Envelope) throws {
        var i = 0
        func one(_ r: inout JSONReader) throws {
            do {
                e.dataUsers.append(try user(&r))
            } catch let err as DecodeError {
                e.dataProblems.append(DecodeProblem(index: i, reason: err.message))
            }
            i += 1
        }
        switch r.peek() {
        case .object: try one(&r)
        case .array: try r.readArray { r in try one(&r) }
        default: try r.skipValue()
        }
    }

    private func includes(_ r: inout JSONReader, _ e: inout Envelope) throws {
        guard r.peek() == .object else { return try r.skipValue() }
        try r.readObject { r, key in
            guard r.peek() == .array else { return try r.skipValue() }
            switch key {
            case "users":
                try r.readArray { r in if let u = try self.knownUser(&r) { e.users.append(u) } }
            case "tweets", "posts":
                try r.readArray { r in
                    guard r.peek() == .object else { return try r.skipValue() }
                    let p = try self.post(&r)
                    if let id = p.id { e.includedPosts[id] = p }
                }
            case "media":
                try r.readArray { r in
                    let m = try self.media(&r)
                    if let key = m.key { e.media[key] = m }
                }
            default: try r.skipValue()
            }
        }
    }

    private func meta(_ r: inout JSONReader) throws -> V2Meta {
        var m = V2Meta()
        guard r.peek() == .object else {
            try r.skipValue()
            return m
        }
        try r.readObject { r, key in
            switch key {
            case "newest_id": m.newestID = try r.lenientID().map(TweetID.init)
            case "oldest_id": m.oldestID = try r.lenientID().map(TweetID.init)
            case "result_count": m.resultCount = try r.lenientInt()
            case "next_token": m.nextToken = try r.optionalString()
            case "previous_token": m.previousToken = try r.optionalString()
            default: try r.skipValue()
            }
        }
        return m
    }

    private func matchingRule(_ r: inout JSONReader) throws -> V2MatchingRule? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var id: String?
        var tag: String?
        try r.readObject { r, key in
            switch key {
            case "id": id = try r.lenientID().map(String.init) ?? nil
            case "tag": tag = try r.optionalString()
            default: try r.skipValue()
            }
        }
        return id.map { V2MatchingRule(id: $0, tag: tag) }
    }

    // MARK: - Problems

    func problem(_ r: inout JSONReader) throws -> V2Problem? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var p = V2Problem()
        try r.readObject { r, key in try self.problemField(key, &r, &p) }
        return p
    }

    private func problemField(_ key: JSONKey, _ r: inout JSONReader, _ p: inout V2Problem) throws {
        switch key {
        case "type": p.type = try r.optionalString()
        case "title": p.title = try r.optionalString()
        case "detail": p.detail = try r.optionalString()
        case "status": p.status = try r.lenientInt()
        case "code": p.code = try r.lenientInt()
        case "message": p.message = try r.optionalString()
        case "resource_id": p.resourceID = try r.lenientText()
        case "resource_type": p.resourceType = try r.optionalString()
        case "parameter": p.parameter = try r.optionalString()
        case "value": p.value = try r.lenientText()
        case "disconnect_type": p.disconnectType = try r.optionalString()
        case "connection_issue": p.connectionIssue = try r.optionalString()
        case "reason": p.reason = try r.optionalString()
        default: try r.skipValue()
        }
    }

    // MARK: - Posts

    /// A post's fields, before it is joined with what `includes` holds.
    struct RawPost {
        var id: UInt64?
        var text: String?
        var authorID: UInt64?
        var createdAt: Int64?
        var conversationID: UInt64?
        var inReplyToUserID: UInt64?
        var retweeted: UInt64?
        var quoted: UInt64?
        var repliedTo: UInt64?
        var entities = RawEntities()
        var noteText: String?
        var noteEntities: RawEntities?
        var displayRange: Range<Int>?
        var retweetCount = 0
        var likeCount = 0
        var editHistory: [UInt64] = []
        var withheldIn: [String] = []
        var withheldCopyright = false
        var mediaKeys: [String] = []
        var lang: String?
    }

    /// Entities with the media links kept apart (a URL entity carrying a `media_key`).
    struct RawEntities {
        var entities = Entities()
        var mediaLinks: [(key: String, link: Entities.Link)] = []
    }

    struct RawMedia {
        var key: String?
        var type = "photo"
        var url: String?
        var preview: String?
    }

    func post(_ r: inout JSONReader) throws -> RawPost {
        var p = RawPost()
        try r.readObject { r, key in
            switch key {
            case "id": p.id = try r.lenientID()
            case "text": p.text = try r.optionalString()
            case "author_id": p.authorID = try r.lenientID()
            case "created_at": p.createdAt = try r.optionalString().flatMap(TwitterDate.parseAny)
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
                try r.readObject { r, key in
                    switch key {
                    case "text": p.noteText = try r.optionalString()
                    case "entities": p.noteEntities = try self.entities(&r)
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
                try r.readArray { r in if let id = try r.lenientID() { p.editHistory.append(id) } }
            case "withheld":
                guard r.peek() == .object else { return try r.skipValue() }
                try r.readObject { r, key in
                    switch key {
                    case "copyright": p.withheldCopyright = try r.optionalBool() ?? false
                    case "country_codes":
                        guard r.peek() == .array else { return try r.skipValue() }
                        try r.readArray { r in if let c = try r.optionalString() { p.withheldIn.append(c) } }
                    default: try r.skipValue()
                    }
                }
            case "attachments":
                guard r.peek() == .object else { return try r.skipValue() }
                try r.readObject { r, key in
                    guard key.equals("media_keys"), r.peek() == .array else { return try r.skipValue() }
                    try r.readArray { r in if let k = try r.optionalString() { p.mediaKeys.append(k) } }
                }
            case "lang": p.lang = try r.optionalString()
            default: try r.skipValue()
            }
        }
        return p
    }

    /// `{"urls","mentions","hashtags","cashtags"}`, each item with `start` and `end` (end
    /// exclusive) in code points of the text as delivered, as v1.1's indices are: the ranges are
    /// kept as they come and checked against the text when the post is joined.
    func entities(_ r: inout JSONReader) throws -> RawEntities {
        var out = RawEntities()
        guard r.peek() == .object else {
            try r.skipValue()
            return out
        }
        try r.readObject { r, kind in
            guard r.peek() == .array else { return try r.skipValue() }
            try r.readArray { r in
                guard r.peek() == .object else { return try r.skipValue() }
                var start: Int?
                var end: Int?
                var url: String?
                var expanded: String?
                var unwound: String?
                var display: String?
                var mediaKey: String?
                var username: String?
                var userID: UInt64?
                var tag: String?
                try r.readObject { r, key in
                    switch key {
                    case "start": start = try r.lenientInt()
                    case "end": end = try r.lenientInt()
                    case "url": url = try r.optionalString()
                    case "expanded_url": expanded = try r.optionalString()
                    case "unwound_url": unwound = try r.optionalString()
                    case "display_url": display = try r.optionalString()
                    case "media_key": mediaKey = try r.optionalString()
                    case "username": username = try r.optionalString()
                    case "id": userID = try r.lenientID()
                    case "tag": tag = try r.optionalString()
                    default: try r.skipValue()
                    }
                }
                guard let s = start, let e = end, s >= 0, e >= s, e - s <= 100_000 else { return }
                let range = s..<e
                switch kind {
                case "urls":
                    guard let target = unwound ?? expanded ?? url else { return }
                    let link = Entities.Link(target: target, display: display ?? url ?? target, range: range)
                    if let mediaKey { out.mediaLinks.append((mediaKey, link)) } else { out.entities.urls.append(link) }
                case "mentions":
                    if let username {
                        out.entities.mentions.append(Entities.Mention(screenName: username, userID: userID.map(UserID.init), range: range))
                    }
                case "hashtags":
                    if let tag { out.entities.hashtags.append(Entities.Hashtag(text: tag, range: range)) }
                case "cashtags":
                    if let tag { out.entities.hashtags.append(Entities.Hashtag(text: tag, isSymbol: true, range: range)) }
                default: break
                }
            }
        }
        return out
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
            default: try r.skipValue()
            }
        }
        return m
    }

    // MARK: - Users

    /// A user of `includes`, from the cache when its bytes were seen before; nil when the object
    /// is not a user.
    private func knownUser(_ r: inout JSONReader) throws -> User? {
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
                    let found = try self.entities(&r)
                    expandedURL = found.entities.urls.first?.target
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
            case "created_at": createdAt = try r.optionalString().flatMap(TwitterDate.parseAny)
            default: try r.skipValue()
            }
        }
        guard let id else { throw DecodeError("user has no id") }
        return User(
            id: UserID(id), screenName: username ?? "", name: name, userDescription: description, location: location,
            url: expandedURL ?? url, isProtected: protected, isVerified: verified, followersCount: followers, friendsCount: following,
            statusesCount: posts, createdAt: createdAt)
    }

    // MARK: - Joining

    /// Makes `Tweet`s from raw posts and what the answer included.
    struct Joiner {
        let users: [UserID: User]
        let posts: [UInt64: RawPost]
        let media: [String: RawMedia]

        init(_ e: Envelope, users: [UserID: User]) {
            self.users = users
            posts = e.includedPosts
            media = e.media
        }

        func tweet(_ p: RawPost, depth: Int) -> Tweet? {
            guard let id = p.id else { return nil }
            let author = p.authorID.map(UserID.init)
            let user = author.flatMap { users[$0] } ?? User(id: author ?? UserID(0), screenName: "", name: "")
            let long = p.noteText != nil
            let text = p.noteText ?? p.text ?? ""
            let raw = (long ? p.noteEntities : nil) ?? p.entities
            // The text's length in code points, counted only when something needs checking.
            let hasRanges =
                !raw.entities.urls.isEmpty || !raw.entities.mentions.isEmpty || !raw.entities.hashtags.isEmpty || !raw.mediaLinks.isEmpty
                || !p.mediaKeys.isEmpty || p.displayRange != nil
            let length = hasRanges ? V2Decoder.codePoints(text) : 0
            func fits(_ r: Range<Int>) -> Bool { r.upperBound <= length }
            func kept<T>(_ items: [T], _ range: (T) -> Range<Int>) -> [T] {
                items.allSatisfy { fits(range($0)) } ? items : items.filter { fits(range($0)) }
            }
            var entities = Entities(
                urls: kept(raw.entities.urls, \.range), mentions: kept(raw.entities.mentions, \.range),
                hashtags: kept(raw.entities.hashtags, \.range))
            // Media: in the order attached; each at its link in the text when there is one.
            var keys = p.mediaKeys
            for l in raw.mediaLinks where !keys.contains(l.key) { keys.append(l.key) }
            for key in keys {
                let link = raw.mediaLinks.first { $0.key == key && fits($0.link.range) }?.link
                let m = media[key]
                let target = link?.target ?? m?.url ?? m?.preview ?? ""
                entities.media.append(
                    Entities.Media(
                        type: m?.type ?? "photo", target: target, display: link?.display ?? target, mediaURL: m?.url ?? m?.preview,
                        range: link?.range ?? length..<length))
            }
            var retweeted: Tweet?
            var quoted: Tweet?
            if depth < V2Decoder.maxDepth {
                retweeted = p.retweeted.flatMap { posts[$0] }.flatMap { tweet($0, depth: depth + 1) }
                quoted = p.quoted.flatMap { posts[$0] }.flatMap { tweet($0, depth: depth + 1) }
            }
            let replyUser = p.inReplyToUserID.map(UserID.init)
            // Without `created_at`, the time is in the id (a Snowflake: milliseconds since
            // 2010-11-04 01:42:54.657 UTC, shifted left 22 bits).
            let created = p.createdAt ?? Int64(((id >> 22) + 1_288_834_974_657) / 1000)
            // The history runs oldest first and ends with the newest version: those before this
            // one it replaces; a later one, if any, replaces it.
            let conversation = p.conversationID.flatMap { $0 == id ? nil : TweetID($0) }
            var extras: TweetExtras?
            if long || conversation != nil || !p.withheldIn.isEmpty || p.withheldCopyright || p.editHistory.contains(where: { $0 != id }) {
                let position = p.editHistory.firstIndex(of: id) ?? p.editHistory.count
                let newest = p.editHistory.last.flatMap { $0 == id || !p.editHistory.contains(id) ? nil : TweetID($0) }
                extras = TweetExtras(
                    olderVersions: p.editHistory[..<position].map(TweetID.init), newestVersion: newest, conversationID: conversation,
                    withheldIn: p.withheldIn, withheldForCopyright: p.withheldCopyright, isLongPost: long)
            }
            return Tweet(
                id: TweetID(id), createdAt: created, user: user, text: text,
                displayRange: long ? nil : p.displayRange.flatMap { fits($0) ? $0 : nil },
                entities: entities, inReplyToStatusID: p.repliedTo.map(TweetID.init), inReplyToUserID: replyUser,
                inReplyToScreenName: replyUser.flatMap { users[$0]?.screenName }, retweetedStatus: retweeted, quotedStatus: quoted,
                quotedStatusID: p.quoted.map(TweetID.init), retweetCount: p.retweetCount, favoriteCount: p.likeCount,
                isTruncated: p.retweeted != nil && retweeted == nil, lang: p.lang, extras: extras)
        }
    }
}

extension JSONReader {
    /// An id from a string (as v2 sends them) or a number. A string of plain digits is read in
    /// place, without making a `String` of it.
    mutating func lenientID() throws -> UInt64? {
        switch peek() {
        case .string:
            let span = try readStringSpan()
            // Between the quotes: digits only, else the slow way (escapes, junk).
            var v: UInt64 = 0
            var i = span.start + 1
            let last = span.end - 1
            guard i < last, last - i <= 20 else { return UInt64(try string(span)) }
            while i < last {
                let d = p[i] &- 0x30
                guard d < 10 else { return UInt64(try string(span)) }
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(UInt64(d))
                if o1 || o2 { return nil }
                v = a
                i += 1
            }
            return v
        case .number: return try optionalUInt64()
        default:
            try skipValue()
            return nil
        }
    }

    /// A count from a number or a string (`"edits_remaining": "4"` in real traffic).
    mutating func lenientInt() throws -> Int? {
        switch peek() {
        case .string: return Int(try readString())
        case .number: return try optionalInt()
        default:
            try skipValue()
            return nil
        }
    }

    /// Text from a string or a number (a `resource_id` or `value` of either kind).
    mutating func lenientText() throws -> String? {
        switch peek() {
        case .string: return try readString()
        case .number: return try optionalUInt64().map(String.init)
        default:
            try skipValue()
            return nil
        }
    }
}
