import CScan
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

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
    /// Authors come back page after page, byte for byte, and are not parsed again. Unchecked,
    /// as the v1.1 decoder's state: the decoder is one task's.
    @exclusivity(unchecked) var usersByBytes = UserBytesCache(limit: V1Decoder.maxUserCacheEntries)
    /// Reused for every post's entities.
    @exclusivity(unchecked) var entityReader = EntityReader()
    /// A document's texts and packed entities, emptied per document; what posts hold are
    /// places in it. An answer kept unjoined takes a copy.
    let arena = ByteBuffer(capacity: 16_384)

    public init() {}

    // MARK: - Documents

    /// An answer whose `data` is a post or a list of posts (timelines, search, lookup, create).
    public func posts(from data: Data) throws -> V2PostsPage {
        try document(data) { r in
            var e = Envelope()
            try self.envelope(&r, &e, dataIsPosts: true)
            return Self.join(e, users: [:], arena: self.arena.bytes)
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
            page.billed.users = e.dataUsers.map(\.id.rawValue) + e.users.map(\.id.rawValue)
            return page
        }
    }

    /// One line of the filtered stream (without its line end).
    public func streamMessage<Bytes: ContiguousBytes>(bytes: Bytes) throws -> V2StreamMessage {
        try billedStreamMessage(bytes: bytes).message
    }

    /// The same, with what X bills for it: a delivered post is a post read, with its includes.
    public func billedStreamMessage<Bytes: ContiguousBytes>(bytes: Bytes) throws -> (message: V2StreamMessage, billed: Billable) {
        try document(bytes) { r in
            var e = Envelope()
            try self.envelope(&r, &e, dataIsPosts: true)
            if let raw = e.posts.first, Self.oversize(raw) == nil {
                let joiner = Joiner(e, users: Self.byID(e.users), arena: self.arena.bytes)
                if let t = joiner.tweet(raw, depth: 0) {
                    return (.post(t, rules: e.matchingRules), e.billed)
                }
            }
            return (Self.nonPost(e), Billable())
        }
    }

    /// Why a post is more than X can send (its text, media or entities), or nil. Such a post is
    /// not joined: it is a malformed answer, said in words where it was read.
    static func oversize(_ p: RawPost) -> String? {
        let text = (p.noteText ?? p.text)?.count ?? 0
        if text > Tweet.maxTextBytes { return "its text is \(text) bytes, more than X sends (at most \(Tweet.maxTextBytes))" }
        let media = (p.extras?.value.mediaKeys.count ?? 0) + p.entities.mediaLinks.count + (p.noteEntities?.mediaLinks.count ?? 0)
        if media > Tweet.maxMedia { return "it lists \(media) media, more than X attaches" }
        func count(_ r: RawEntities?) -> Int {
            r?.count ?? 0
        }
        let entities = count(p.entities) + count(p.noteEntities)
        if entities > Tweet.maxEntities { return "it has \(entities) entities, more than X sends (at most \(Tweet.maxEntities))" }
        return nil
    }

    private static func nonPost(_ e: Envelope) -> V2StreamMessage {
        if let p = e.errors.first(where: {
            $0.disconnectType != nil || $0.connectionIssue != nil || $0.kind == "operational-disconnect"
        }) {
            return .disconnect(p)
        }
        if !e.errors.isEmpty { return .errors(e.errors) }
        return .unknown
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

    func document<T, Bytes: ContiguousBytes>(_ data: Bytes, _ body: (inout JSONReader) throws -> T) throws -> T {
        arena.removeAll(keepingAtMost: ByteBuffer.arenaRoomKept)
        return try data.withUnsafeBytes { raw in
            var r = JSONReader(raw)
            let value = try body(&r)
            guard r.atEnd() else { throw r.fail("unexpected data after the document") }
            return value
        }
    }

    /// Code points in `text` (valid UTF-8): its bytes less those that continue a sequence
    /// (`10xxxxxx`), counted sixteen at a time.
    static func codePoints(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = text.baseAddress else { return 0 }
        return text.count - linnet_utf8_continuations(base, text.count)
    }

    /// How many code points `a` and `b` (valid UTF-8) begin with alike: their shared bytes,
    /// less a scalar they share only the start of.
    static func sharedCodePoints(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        let limit = min(a.count, b.count)
        while n < limit, a[n] == b[n] { n += 1 }
        // Where they part inside a scalar, its lead byte and the rest are not shared.
        if n < a.count || n < b.count {
            while n > 0, (n < a.count && a[n] & 0xC0 == 0x80) || (n < b.count && b[n] & 0xC0 == 0x80) { n -= 1 }
        }
        return codePoints(UnsafeBufferPointer(rebasing: a[..<n]))
    }

    /// The authors of `includes` by id (already one object each: they come from the bytes cache).
    static func byID(_ users: [User]) -> [UserID: User] {
        var out: [UserID: User] = [:]
        out.reserveCapacity(users.count)
        for u in users { out[u.id] = u }
        return out
    }

    /// One `User` object per id and content for the users a page is about (`users/me`,
    /// lookups), shared with later pages.
    private func intern(_ users: [User]) -> [User] {
        users.map { u in
            if let known = userCache[u.id], known == u { return known }
            if userCache.count >= V1Decoder.maxUserCacheEntries { userCache.removeAll(keepingCapacity: true) }
            userCache[u.id] = u
            return u
        }
    }

    // MARK: - The envelope

    /// Everything of one answer, before joining.
    struct Envelope {
        var posts: [RawPost] = []
        var dataUsers: [User] = []
        var dataProblems: [DecodeProblem] = []
        var users: [User] = []
        var includedPosts: [UInt64: RawPost] = [:]
        /// Their ids in the order they came.
        var includedOrder: [UInt64] = []
        var media: [String: RawMedia] = [:]
        var polls: [String: Poll] = [:]
        var meta = V2Meta()
        var errors: [V2Problem] = []
        var matchingRules: [V2MatchingRule] = []
        /// The texts and entities its posts name places in, once it is kept unjoined.
        var arena: [UInt8] = []

        /// What X bills for it: every post and user it carried.
        var billed: Billable {
            var b = Billable()
            b.posts = posts.compactMap(\.id)
            b.includedPosts = includedOrder
            b.users = users.map(\.id.rawValue)
            return b
        }
    }

    func envelope(_ r: inout JSONReader, _ e: inout Envelope, dataIsPosts: Bool) throws {
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
            // Room for a page at once (at most 100 posts; one takes at least 100 bytes): growing
            // copied every post read so far, a twentieth of reading a page.
            e.posts.reserveCapacity(min(100, (r.end - r.offset) / 100))
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
                    if let id = p.id {
                        e.includedPosts[id] = p
                        e.includedOrder.append(id)
                    }
                }
            case "media":
                try r.readArray { r in
                    let m = try self.media(&r)
                    if let key = m.key { e.media[key] = m }
                }
            case "polls":
                try r.readArray { r in if let (id, p) = try self.poll(&r) { e.polls[id] = p } }
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
}
