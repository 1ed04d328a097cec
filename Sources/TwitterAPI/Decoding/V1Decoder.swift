import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Turns v1.1 JSON into Linnet's models. Keeps one `User` object per user id, so a timeline of
/// tweets by a few people holds a few users. Not thread-safe: give each task its own.
public final class V1Decoder {
    // Unchecked: the decoder is one task's (it says so), and a checked access cost about 100
    // instructions, three a message.
    @exclusivity(unchecked) private var users: [UserID: User] = [:]
    @exclusivity(unchecked) var packer = EntityPacker()
    /// A document's texts and packed entities, until its tweets are made (emptied per document).
    let arena = ByteBuffer(capacity: 4_096)
    @exclusivity(unchecked) private var usersByBytes = UserBytesCache(limit: maxUserCacheEntries)
    static let maxUserCacheEntries = 20_000

    /// How deep retweets and quotes may nest before the rest is skipped.
    static let maxTweetDepth = 3

    public init() {}

    /// Users interned so far.
    public var internedUserCount: Int { users.count }

    // MARK: - Documents

    /// One tweet (`statuses/show`, `update`, `retweet`, `destroy`, `favorites/*`).
    public func tweet(from data: Data) throws -> Tweet {
        try document(data) { r in try self.tweet(&r, depth: 0) }
    }

    /// A timeline page (a JSON array of tweets). A tweet that is well-formed JSON but not a tweet
    /// is skipped and reported; malformed JSON fails the page.
    public func timeline(from data: Data) throws -> TimelinePage {
        try document(data) { r in
            let (tweets, problems) = try self.tweetArray(&r)
            return TimelinePage(tweets: tweets, problems: problems)
        }
    }

    /// A `search/tweets` page.
    public func search(from data: Data) throws -> SearchResponse {
        try document(data) { r in
            var tweets: [Tweet] = []
            var problems: [DecodeProblem] = []
            var metadata: SearchResponse.Metadata?
            var sawStatuses = false
            try r.readObject { r, key in
                switch key {
                case "statuses":
                    sawStatuses = true
                    (tweets, problems) = try self.tweetArray(&r)
                case "search_metadata": metadata = try self.searchMetadata(&r)
                default: try r.skipValue()
                }
            }
            guard sawStatuses else { throw DecodeError("search response has no statuses") }
            return SearchResponse(statuses: tweets, metadata: metadata, problems: problems)
        }
    }

    /// A user object (`verify_credentials`, `users/show`).
    public func user(from data: Data) throws -> User {
        try document(data) { r in try self.user(&r) }
    }

    /// `application/rate_limit_status`.
    public func rateLimitStatus(from data: Data) throws -> RateLimitStatus {
        try document(data) { r in
            var status = RateLimitStatus(context: .unknown, resources: [:])
            try r.readObject { r, key in
                switch key {
                case "rate_limit_context":
                    try r.readObject { r, key in
                        switch key {
                        case "access_token": status.context = .user
                        case "application": status.context = .application
                        default: break
                        }
                        try r.skipValue()
                    }
                case "resources":
                    try r.readObject { r, family in
                        var endpoints: [String: RateLimit] = [:]
                        try r.readObject { r, endpoint in
                            var limit = 0
                            var remaining = 0
                            var reset: Int64 = 0
                            try r.readObject { r, k in
                                switch k {
                                case "limit": limit = try r.optionalInt() ?? 0
                                case "remaining": remaining = try r.optionalInt() ?? 0
                                case "reset": reset = Int64(try r.optionalInt() ?? 0)
                                default: try r.skipValue()
                                }
                            }
                            endpoints[endpoint.string] = RateLimit(limit: limit, remaining: remaining, reset: reset)
                        }
                        status.resources[family.string] = endpoints
                    }
                default: try r.skipValue()
                }
            }
            return status
        }
    }

    /// One message of the streaming API (one frame's JSON).
    public func streamMessage(from data: Data) throws -> StreamMessage {
        try document(data) { r in try self.streamMessage(&r) }
    }

    /// One stream message from bytes in memory, without copying them.
    public func streamMessage<Bytes: ContiguousBytes>(bytes: Bytes) throws -> StreamMessage {
        try document(bytes) { r in try self.streamMessage(&r) }
    }

    /// A framed message, as the stream framer hands it over: made for this type here, where a
    /// caller in another module took the generic path (a witness call and a closure a message).
    public func streamMessage(bytes: ArraySlice<UInt8>) throws -> StreamMessage {
        try document(bytes) { r in try self.streamMessage(&r) }
    }

    private func document<T, Bytes: ContiguousBytes>(_ data: Bytes, _ body: (inout JSONReader) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in
            var r = JSONReader(raw)
            arena.removeAll(keepingAtMost: ByteBuffer.arenaRoomKept)
            let value = try body(&r)
            guard r.atEnd() else { throw r.fail("unexpected data after the document") }
            return value
        }
    }

    // MARK: - Parts

    func tweetArray(_ r: inout JSONReader) throws -> ([Tweet], [DecodeProblem]) {
        var tweets: [Tweet] = []
        var problems: [DecodeProblem] = []
        var index = 0
        try r.readArray { r in
            let start = r.offset
            do {
                tweets.append(try self.tweet(&r, depth: 0))
            } catch let e as DecodeError {
                problems.append(DecodeProblem(index: index, reason: e.message))
            } catch let e as JSONError where e.message.hasPrefix("expected an object") {
                r.rewind(to: start)
                try r.skipValue()
                problems.append(DecodeProblem(index: index, reason: "not a tweet object"))
            }
            index += 1
        }
        return (tweets, problems)
    }

    func tweet(_ r: inout JSONReader, depth: Int) throws -> Tweet {
        guard r.peek() == .object else { throw r.fail("expected an object for a tweet") }
        var b = TweetBuilder()
        try r.readObject { r, key in try b.field(key, &r, self, depth: depth + 1) }
        return try b.build(r, self)
    }

    /// A retweeted or quoted tweet: nil when absent, malformed or nested too deep.
    func nestedTweet(_ r: inout JSONReader, depth: Int) throws -> Tweet? {
        guard r.peek() == .object, depth < Self.maxTweetDepth else {
            try r.skipValue()
            return nil
        }
        var b = TweetBuilder()
        try r.readObject { r, key in try b.field(key, &r, self, depth: depth + 1) }
        return try? b.build(r, self)
    }

    func extendedTweet(_ r: inout JSONReader) throws -> TweetBuilder.Extended? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var e = TweetBuilder.Extended()
        // Read as they come (nothing else is read inside this object, so the packer is free).
        var sawEntities = false
        packer.begin()
        try r.readObject { r, key in
            switch key {
            case "full_text": e.fullText = try r.appendUTF8(to: self.arena)
            case "display_text_range": e.displayRange = try r.optionalRange()
            case "entities":
                sawEntities = true
                try self.packer.read(&r, mediaOnly: false)
            case "extended_entities":
                _ = r.peek()
                e.mediaAt = r.offset
                try self.packer.read(&r, mediaOnly: true)
            default: try r.skipValue()
            }
        }
        if sawEntities { e.packed = packer.finish(into: arena) }
        return e
    }

    func user(_ r: inout JSONReader) throws -> User {
        guard r.peek() == .object else { throw r.fail("expected an object for a user") }
        // The same author's object often repeats byte for byte within a page or a burst of
        // stream messages: recognised before it is parsed again.
        return try usersByBytes.user(&r) { try self.parseUser(&$0) }
    }

    private func parseUser(_ r: inout JSONReader) throws -> User {
        var idString: UInt64?
        var idNumber: UInt64?
        var screenName: String?
        var name = ""
        var description = ""
        var location = ""
        var url: String?
        var expandedURL: String?
        var protected = false
        var verified = false
        var followers = 0
        var friends = 0
        var statuses = 0
        var createdAt: Int64?
        try r.readObject { r, key in
            switch key {
            case "id_str": idString = try r.optionalIDString()
            case "id": idNumber = try r.optionalUInt64()
            case "screen_name": screenName = try r.optionalString()
            case "name": name = try r.optionalString() ?? ""
            case "description": description = try r.optionalString() ?? ""
            case "location": location = try r.optionalString() ?? ""
            case "url": url = try r.optionalString()
            case "entities": expandedURL = try self.profileURL(&r)
            case "protected": protected = try r.optionalBool() ?? false
            case "verified": verified = try r.optionalBool() ?? false
            case "followers_count": followers = try r.optionalInt() ?? 0
            case "friends_count": friends = try r.optionalInt() ?? 0
            case "statuses_count": statuses = try r.optionalInt() ?? 0
            case "created_at": createdAt = try r.optionalTime(TwitterDate.parse(utf8:))
            default: try r.skipValue()
            }
        }
        guard let raw = idString ?? idNumber else { throw DecodeError("user has no id") }
        guard let screenName else { throw DecodeError("user \(raw) has no screen_name") }
        let user = User(
            id: UserID(raw), screenName: screenName, name: name, userDescription: description, location: location,
            url: expandedURL ?? url, isProtected: protected, isVerified: verified, followersCount: followers,
            friendsCount: friends, statusesCount: statuses, createdAt: createdAt)
        if let known = users[user.id], known == user { return known }
        if users.count >= Self.maxUserCacheEntries { users.removeAll(keepingCapacity: true) }
        users[user.id] = user
        return user
    }

}

/// A copy of `a` whose storage holds exactly its elements.
func exactCopy<T>(_ a: [T]) -> [T] {
    guard !a.isEmpty else { return [] }
    return [T](unsafeUninitializedCapacity: a.count) { buffer, count in
        for (i, x) in a.enumerated() { (buffer.baseAddress! + i).initialize(to: x) }
        count = a.count
    }
}
