import Foundation

/// Typed calls for the X API v2 endpoints Linnet uses (docs/PROTOCOL-V2.md §2). Every read asks
/// for the same fields and expansions, chosen once in `V2Query`.
extension TwitterClient {
    /// The fields and expansions every v2 read asks for (docs/PROTOCOL-V2.md §3).
    public enum V2Query {
        public static let expansions = [
            "author_id", "referenced_tweets.id", "referenced_tweets.id.author_id", "in_reply_to_user_id", "attachments.media_keys",
            "entities.mentions.username",
        ]
        public static let tweetFields = [
            "created_at", "conversation_id", "referenced_tweets", "entities", "public_metrics", "reply_settings", "note_tweet",
            "edit_controls", "attachments", "lang", "possibly_sensitive", "in_reply_to_user_id", "author_id", "withheld",
        ]
        public static let userFields = [
            "name", "username", "profile_image_url", "verified", "protected", "description", "public_metrics", "created_at",
        ]
        public static let mediaFields = ["type", "url", "preview_image_url", "width", "height", "alt_text", "duration_ms"]

        /// The parameters for a read of posts.
        public static var posts: [(String, String)] {
            [
                ("expansions", expansions.joined(separator: ",")), ("tweet.fields", tweetFields.joined(separator: ",")),
                ("user.fields", userFields.joined(separator: ",")), ("media.fields", mediaFields.joined(separator: ",")),
            ]
        }

        /// The parameters for a read of users.
        public static var users: [(String, String)] { [("user.fields", userFields.joined(separator: ","))] }
    }

    /// Paging of a v2 list: `since_id` and `until_id` are exclusive; `token` is the last page's
    /// `meta.next_token`.
    public struct V2Page: Sendable {
        public var maxResults: Int?
        public var sinceID: TweetID?
        public var untilID: TweetID?
        public var token: String?
        public init(maxResults: Int? = nil, sinceID: TweetID? = nil, untilID: TweetID? = nil, token: String? = nil) {
            self.maxResults = maxResults
            self.sinceID = sinceID
            self.untilID = untilID
            self.token = token
        }

        func parameters(tokenName: String) -> [(String, String)] {
            var p: [(String, String)] = []
            if let m = maxResults { p.append(("max_results", String(m))) }
            if let s = sinceID { p.append(("since_id", s.description)) }
            if let u = untilID { p.append(("until_id", u.description)) }
            if let t = token { p.append((tokenName, t)) }
            return p
        }
    }

    /// The user whose token this is, through the client's API.
    public func me() async throws -> User { api == .v2 ? try await v2Me() : try await verifyCredentials() }

    /// The user whose token this is.
    public func v2Me() async throws -> User {
        let page = try V2Decoder().users(from: try await call("GET", "/2/users/me", V2Query.users))
        guard let me = page.users.first else { throw DecodeError("users/me answered without a user") }
        return me
    }

    /// The home timeline (reverse chronological) of `userID`, which must be the token's user.
    public func v2Home(userID: UserID, _ page: V2Page = V2Page()) async throws -> V2PostsPage {
        try await posts("/2/users/\(userID)/timelines/reverse_chronological", page, tokenName: "pagination_token")
    }

    public func v2Mentions(userID: UserID, _ page: V2Page = V2Page()) async throws -> V2PostsPage {
        try await posts("/2/users/\(userID)/mentions", page, tokenName: "pagination_token")
    }

    public func v2UserPosts(userID: UserID, _ page: V2Page = V2Page(), excludeRetweets: Bool = false) async throws -> V2PostsPage {
        try await posts(
            "/2/users/\(userID)/tweets", page, tokenName: "pagination_token", extra: excludeRetweets ? [("exclude", "retweets")] : [])
    }

    /// Recent search (the last 7 days); a thread is `conversation_id:<root id>`.
    public func v2Search(_ query: String, _ page: V2Page = V2Page()) async throws -> V2PostsPage {
        try await posts("/2/tweets/search/recent", page, tokenName: "next_token", extra: [("query", query)])
    }

    /// Posts by id (up to 100); those gone are in `errors`.
    public func v2Lookup(_ ids: [TweetID]) async throws -> V2PostsPage {
        try V2Decoder().posts(
            from: try await call("GET", "/2/tweets", [("ids", ids.map(\.description).joined(separator: ","))] + V2Query.posts))
    }

    /// Creates a post (a reply, a quote); returns its id.
    public func v2Create(text: String, replyTo: TweetID? = nil, quote: TweetID? = nil, mediaIDs: [String] = []) async throws -> TweetID {
        var body: [(String, JSONValue)] = [("text", .string(text))]
        if let r = replyTo { body.append(("reply", .object([("in_reply_to_tweet_id", .string(r.description))]))) }
        if let q = quote { body.append(("quote_tweet_id", .string(q.description))) }
        if !mediaIDs.isEmpty { body.append(("media", .object([("media_ids", .array(mediaIDs.map(JSONValue.string)))]))) }
        let data = try await call("POST", "/2/tweets", [], json: Data(JSONValue.object(body).serialized.utf8))
        guard case .string(let id)? = try JSONValue.parse(data)["data"]?["id"], let v = UInt64(id) else {
            throw DecodeError("the post was created but its id was not in the answer")
        }
        return TweetID(v)
    }

    public func v2Delete(_ id: TweetID) async throws {
        _ = try await call("DELETE", "/2/tweets/\(id)", [], json: nil)
    }

    public func v2Like(userID: UserID, _ id: TweetID) async throws {
        _ = try await call("POST", "/2/users/\(userID)/likes", [], json: Data(#"{"tweet_id":"\#(id)"}"#.utf8))
    }

    public func v2Unlike(userID: UserID, _ id: TweetID) async throws {
        _ = try await call("DELETE", "/2/users/\(userID)/likes/\(id)")
    }

    public func v2Repost(userID: UserID, _ id: TweetID) async throws {
        _ = try await call("POST", "/2/users/\(userID)/retweets", [], json: Data(#"{"tweet_id":"\#(id)"}"#.utf8))
    }

    public func v2Unrepost(userID: UserID, _ id: TweetID) async throws {
        _ = try await call("DELETE", "/2/users/\(userID)/retweets/\(id)")
    }

    // MARK: - Lists and direct messages

    /// A list of accounts.
    public struct V2List: Equatable, Sendable {
        public var id: String
        public var name: String
        public var description: String
        public var memberCount: Int
        public var ownerID: UserID?
    }

    /// One direct message.
    public struct V2Message: Equatable, Sendable {
        public var id: String
        public var text: String
        public var senderID: UserID?
        public var conversationID: String
        /// Unix seconds.
        public var createdAt: Int64?
    }

    private static func lists(_ json: JSONValue) -> [V2List] {
        guard case .array(let items)? = json["data"] else { return [] }
        return items.compactMap { l in
            guard let id = l["id"]?.stringValue, let name = l["name"]?.stringValue else { return nil }
            return V2List(
                id: id, name: name, description: l["description"]?.stringValue ?? "", memberCount: Int(l["member_count"]?.intValue ?? 0),
                ownerID: l["owner_id"]?.stringValue.flatMap(UInt64.init).map(UserID.init))
        }
    }

    public func v2OwnedLists(userID: UserID) async throws -> [V2List] {
        Self.lists(
            try JSONValue.parse(
                try await call("GET", "/2/users/\(userID)/owned_lists", [("list.fields", "description,member_count,owner_id")])))
    }

    public func v2FollowedLists(userID: UserID) async throws -> [V2List] {
        Self.lists(
            try JSONValue.parse(
                try await call("GET", "/2/users/\(userID)/followed_lists", [("list.fields", "description,member_count,owner_id")])))
    }

    /// Posts by a list's members, newest first.
    public func v2ListPosts(listID: String, _ page: V2Page = V2Page()) async throws -> V2PostsPage {
        try await posts("/2/lists/\(listID)/tweets", page, tokenName: "pagination_token")
    }

    /// The user's direct messages, newest first; with `participant`, one conversation.
    public func v2Messages(with participant: UserID? = nil) async throws -> [V2Message] {
        let path = participant.map { "/2/dm_conversations/with/\($0)/dm_events" } ?? "/2/dm_events"
        let json = try JSONValue.parse(
            try await call("GET", path, [("dm_event.fields", "id,text,sender_id,dm_conversation_id,created_at,event_type")]))
        guard case .array(let items)? = json["data"] else { return [] }
        return items.compactMap { m in
            guard let id = m["id"]?.stringValue, m["event_type"]?.stringValue ?? "MessageCreate" == "MessageCreate" else { return nil }
            return V2Message(
                id: id, text: m["text"]?.stringValue ?? "", senderID: m["sender_id"]?.stringValue.flatMap(UInt64.init).map(UserID.init),
                conversationID: m["dm_conversation_id"]?.stringValue ?? "",
                createdAt: m["created_at"]?.stringValue.flatMap(TwitterDate.parseAny))
        }
    }

    /// Sends a direct message; returns its event id.
    public func v2SendMessage(to participant: UserID, text: String) async throws -> String {
        let body = JSONValue.object([("text", .string(text))])
        let json = try JSONValue.parse(
            try await call("POST", "/2/dm_conversations/with/\(participant)/messages", [], json: Data(body.serialized.utf8)))
        guard let id = json["data"]?["dm_event_id"]?.stringValue else {
            throw DecodeError("the message was sent but its id was not in the answer")
        }
        return id
    }

    // MARK: - Media

    /// Files up to this size go in one request; larger ones in segments of this size (X takes
    /// segments for any size; with the file in base64 in a JSON body each request stays under a
    /// megabyte).
    public static let mediaSegmentBytes = 512 * 1024

    /// Uploads a photo, GIF or video; returns the media id to attach to a post.
    public func v2UploadMedia(_ data: Data, mimeType: String) async throws -> String {
        let category = mimeType.hasPrefix("video/") ? "tweet_video" : mimeType == "image/gif" ? "tweet_gif" : "tweet_image"
        func id(_ answer: Data) throws -> String {
            guard let v = try JSONValue.parse(answer)["data"]?["id"]?.stringValue else {
                throw DecodeError("the upload answer has no media id")
            }
            return v
        }
        if data.count <= Self.mediaSegmentBytes {
            let body = JSONValue.object([
                ("media", .string(data.base64EncodedString())), ("media_category", .string(category)), ("media_type", .string(mimeType)),
            ])
            return try id(try await call("POST", "/2/media/upload", [], json: Data(body.serialized.utf8)))
        }
        let start = JSONValue.object([
            ("media_type", .string(mimeType)), ("total_bytes", .number(String(data.count))), ("media_category", .string(category)),
        ])
        let media = try id(try await call("POST", "/2/media/upload/initialize", [], json: Data(start.serialized.utf8)))
        var index = 0
        var offset = 0
        while offset < data.count {
            let segment = data[data.startIndex + offset..<data.startIndex + min(data.count, offset + Self.mediaSegmentBytes)]
            let body = JSONValue.object([
                ("media", .string(Data(segment).base64EncodedString())), ("segment_index", .number(String(index))),
            ])
            _ = try await call("POST", "/2/media/upload/\(media)/append", [], json: Data(body.serialized.utf8))
            offset += segment.count
            index += 1
        }
        _ = try await call("POST", "/2/media/upload/\(media)/finalize", [], json: Data("{}".utf8))
        return media
    }

    // MARK: - People and bookmarks

    public func v2Follow(userID: UserID, _ target: UserID) async throws {
        _ = try await call("POST", "/2/users/\(userID)/following", [], json: Data(#"{"target_user_id":"\#(target)"}"#.utf8))
    }

    public func v2Unfollow(userID: UserID, _ target: UserID) async throws {
        _ = try await call("DELETE", "/2/users/\(userID)/following/\(target)")
    }

    public func v2Mute(userID: UserID, _ target: UserID) async throws {
        _ = try await call("POST", "/2/users/\(userID)/muting", [], json: Data(#"{"target_user_id":"\#(target)"}"#.utf8))
    }

    public func v2Unmute(userID: UserID, _ target: UserID) async throws {
        _ = try await call("DELETE", "/2/users/\(userID)/muting/\(target)")
    }

    public func v2Bookmark(userID: UserID, _ id: TweetID) async throws {
        _ = try await call("POST", "/2/users/\(userID)/bookmarks", [], json: Data(#"{"tweet_id":"\#(id)"}"#.utf8))
    }

    public func v2RemoveBookmark(userID: UserID, _ id: TweetID) async throws {
        _ = try await call("DELETE", "/2/users/\(userID)/bookmarks/\(id)")
    }

    /// The user's bookmarks, newest bookmark first.
    public func v2Bookmarks(userID: UserID, _ page: V2Page = V2Page()) async throws -> V2PostsPage {
        try await posts("/2/users/\(userID)/bookmarks", page, tokenName: "pagination_token")
    }

    // MARK: - Filtered stream rules (app bearer token)

    /// A rule of the app's filtered stream. Linnet tags its own rules (`linnet:…`) and touches
    /// no others.
    public struct V2Rule: Equatable, Sendable {
        public var id: String
        public var value: String
        public var tag: String
        public init(id: String, value: String, tag: String) {
            self.id = id
            self.value = value
            self.tag = tag
        }
    }

    private static func rules(_ json: JSONValue) -> [V2Rule] {
        guard case .array(let items)? = json["data"] else { return [] }
        return items.compactMap { r in
            guard let id = r["id"]?.stringValue, let value = r["value"]?.stringValue else { return nil }
            return V2Rule(id: id, value: value, tag: r["tag"]?.stringValue ?? "")
        }
    }

    public func v2Rules() async throws -> [V2Rule] {
        Self.rules(try JSONValue.parse(try await call("GET", "/2/tweets/search/stream/rules")))
    }

    /// Adds rules (or, with `dryRun`, only checks them); returns those created. A rule refused
    /// (invalid, a duplicate) is an error in words.
    public func v2AddRules(_ rules: [(value: String, tag: String)], dryRun: Bool = false) async throws -> [V2Rule] {
        let body = JSONValue.object([
            ("add", .array(rules.map { .object([("value", .string($0.value)), ("tag", .string($0.tag))]) }))
        ])
        let data = try await call(
            "POST", "/2/tweets/search/stream/rules", dryRun ? [("dry_run", "true")] : [], json: Data(body.serialized.utf8))
        let json = try JSONValue.parse(data)
        if case .array(let errors)? = json["errors"], let first = errors.first {
            let why = first["title"]?.stringValue ?? "refused"
            throw APIError(httpStatus: 400, code: nil, message: "the rule \"\(first["value"]?.stringValue ?? "")\" was not added: \(why)")
        }
        return Self.rules(json)
    }

    /// Makes the app's Linnet rules (tags starting with `prefix`) exactly `wanted`: Linnet's
    /// rules no longer wanted are deleted, missing ones checked with a dry run and then added.
    /// Rules with other tags (another program's) are never touched. Returns the rules in force.
    public func v2SyncRules(_ wanted: [(value: String, tag: String)], prefix: String = "linnet:") async throws -> [V2Rule] {
        precondition(wanted.allSatisfy { $0.tag.hasPrefix(prefix) }, "Linnet's rules carry its tag prefix")
        let current = try await v2Rules()
        let mine = current.filter { $0.tag.hasPrefix(prefix) }
        let stale = mine.filter { r in !wanted.contains { $0.value == r.value && $0.tag == r.tag } }
        if !stale.isEmpty { _ = try await v2DeleteRules(ids: stale.map(\.id)) }
        let missing = wanted.filter { w in !mine.contains { $0.value == w.value && $0.tag == w.tag } }
        if !missing.isEmpty {
            _ = try await v2AddRules(missing, dryRun: true)
            _ = try await v2AddRules(missing)
        }
        return try await v2Rules()
    }

    /// Deletes rules by id; returns how many went.
    public func v2DeleteRules(ids: [String]) async throws -> Int {
        let body = JSONValue.object([("delete", .object([("ids", .array(ids.map(JSONValue.string)))]))])
        let json = try JSONValue.parse(try await call("POST", "/2/tweets/search/stream/rules", [], json: Data(body.serialized.utf8)))
        return Int(json["meta"]?["summary"]?["deleted"]?.intValue ?? 0)
    }

    private func posts(_ path: String, _ page: V2Page, tokenName: String, extra: [(String, String)] = []) async throws -> V2PostsPage {
        try V2Decoder().posts(from: try await call("GET", path, extra + page.parameters(tokenName: tokenName) + V2Query.posts))
    }
}
