import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// Typed calls for the X API v2 endpoints Linnet uses (docs/PROTOCOL-V2.md §2). Every read asks
/// for the same fields and expansions, chosen once in `V2Query`.
extension TwitterClient {
    /// The fields and expansions every v2 read asks for (docs/PROTOCOL-V2.md §3).
    public enum V2Query {
        /// The least `max_results` each paged read takes (X's contract, openapi.json 2.159;
        /// `V2MinimumResultsTests` reads the contract to keep these true). Fewer wanted: ask
        /// for this many and show what was wanted.
        public static let minimumResults: [String: Int] = [
            "/2/users/{id}/timelines/reverse_chronological": 1, "/2/users/{id}/mentions": 5, "/2/users/{id}/tweets": 5,
            "/2/users/{id}/liked_tweets": 5, "/2/tweets/search/recent": 10, "/2/lists/{id}/tweets": 1,
            "/2/users/{id}/bookmarks": 1,
        ]

        /// `max_results` for `wanted` posts from the operation at `template` (1 to 100 a page).
        public static func maxResults(_ wanted: Int, for template: String) -> String {
            String(max(minimumResults[template] ?? 1, min(100, wanted)))
        }

        /// One post of a page as the budget gate prices it, with the expansions Linnet asks for.
        public static var perPost: Billable {
            Billable.worstCase(
                method: "GET", path: "/2/tweets/search/recent",
                params: [("max_results", "1"), ("expansions", expansions.joined(separator: ","))],
                json: nil) ?? Billable()
        }
        public static let expansions = [
            "author_id", "referenced_tweets.id", "referenced_tweets.id.author_id", "in_reply_to_user_id", "attachments.media_keys",
            // A quoted or reposted post's files: `attachments.media_keys` brings only those of
            // the posts in `data`.
            "referenced_tweets.id.attachments.media_keys", "entities.mentions.username", "attachments.poll_ids",
        ]
        public static let tweetFields = [
            "created_at", "conversation_id", "referenced_tweets", "entities", "public_metrics", "reply_settings", "note_tweet",
            "edit_controls", "attachments", "lang", "possibly_sensitive", "in_reply_to_user_id", "author_id", "withheld",
        ]
        public static let userFields = [
            "name", "username", "profile_image_url", "verified", "protected", "description", "public_metrics", "created_at",
        ]
        public static let mediaFields = ["type", "url", "preview_image_url", "width", "height", "alt_text", "duration_ms"]
        public static let pollFields = ["options", "voting_status", "end_datetime", "duration_minutes"]

        /// The parameters for a read of posts.
        public static var posts: [(String, String)] {
            [
                ("expansions", expansions.joined(separator: ",")), ("tweet.fields", tweetFields.joined(separator: ",")),
                ("user.fields", userFields.joined(separator: ",")), ("media.fields", mediaFields.joined(separator: ",")),
                ("poll.fields", pollFields.joined(separator: ",")),
            ]
        }

        /// The same without the expansions that bring users: the posts name their authors
        /// (`author_id`, `in_reply_to_user_id`) and the reader looks up those it lacks.
        public static var postsNamingUsers: [(String, String)] {
            let users: Set = ["author_id", "referenced_tweets.id.author_id", "in_reply_to_user_id", "entities.mentions.username"]
            return posts.map { $0.0 == "expansions" ? ($0.0, expansions.filter { !users.contains($0) }.joined(separator: ",")) : $0 }
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

    /// A user by screen name; a name X does not know is a 404 in words.
    public func v2User(named name: String) async throws -> User {
        let page = try V2Decoder().users(
            from: try await call("GET", "/2/users/by/username/\(PercentEncoding.encode(name))", V2Query.users))
        guard let u = page.users.first else {
            throw APIError(httpStatus: 404, code: 50, message: page.errors.first?.description ?? "User not found.")
        }
        return u
    }

    /// The home timeline (reverse chronological) of `userID`, which must be the token's user.
    public func v2Home(userID: UserID, _ page: V2Page = V2Page()) async throws -> V2PostsPage {
        try await posts("/2/users/\(userID)/timelines/reverse_chronological", page, tokenName: "pagination_token")
    }

    public func v2Mentions(userID: UserID, _ page: V2Page = V2Page()) async throws -> V2PostsPage {
        try await posts("/2/users/\(userID)/mentions", page, tokenName: "pagination_token", owner: userID)
    }

    /// Posts a user liked, paged by token only (the endpoint takes no `since_id` or `until_id`);
    /// the account's own likes are owned reads.
    public func v2LikedPosts(userID: UserID, maxResults: Int? = nil, token: String? = nil) async throws -> V2PostsPage {
        try await posts(
            "/2/users/\(userID)/liked_tweets", V2Page(maxResults: maxResults.map { max(5, min(100, $0)) }, token: token),
            tokenName: "pagination_token", owner: userID)
    }

    public func v2UserPosts(userID: UserID, _ page: V2Page = V2Page(), excludeRetweets: Bool = false) async throws -> V2PostsPage {
        try await posts(
            "/2/users/\(userID)/tweets", page, tokenName: "pagination_token", extra: excludeRetweets ? [("exclude", "retweets")] : [],
            owner: userID)
    }

    /// Recent search (the last 7 days); a thread is `conversation_id:<root id>`.
    public func v2Search(_ query: String, _ page: V2Page = V2Page()) async throws -> V2PostsPage {
        try await posts("/2/tweets/search/recent", page, tokenName: "next_token", extra: [("query", query)])
    }

    /// Posts by id (up to 100); those gone are in `errors`.
    public func v2Lookup(_ ids: [TweetID]) async throws -> V2PostsPage {
        let page = try V2Decoder().posts(
            from: try await call("GET", "/2/tweets", [("ids", ids.map(\.description).joined(separator: ","))] + V2Query.posts))
        return page
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
        try await relate(userID, "likes", "tweet_id", id.description, on: true)
    }
    public func v2Unlike(userID: UserID, _ id: TweetID) async throws {
        try await relate(userID, "likes", "tweet_id", id.description, on: false)
    }
    public func v2Repost(userID: UserID, _ id: TweetID) async throws {
        try await relate(userID, "retweets", "tweet_id", id.description, on: true)
    }
    public func v2Unrepost(userID: UserID, _ id: TweetID) async throws {
        try await relate(userID, "retweets", "tweet_id", id.description, on: false)
    }

    public func v2Follow(userID: UserID, _ target: UserID) async throws {
        try await relate(userID, "following", "target_user_id", target.description, on: true)
    }
    public func v2Unfollow(userID: UserID, _ target: UserID) async throws {
        try await relate(userID, "following", "target_user_id", target.description, on: false)
    }
    public func v2Mute(userID: UserID, _ target: UserID) async throws {
        try await relate(userID, "muting", "target_user_id", target.description, on: true)
    }
    public func v2Unmute(userID: UserID, _ target: UserID) async throws {
        try await relate(userID, "muting", "target_user_id", target.description, on: false)
    }

    /// Likes, reposts, follows and mutes all have one shape: `POST
    /// /2/users/:id/<relation> {"<field>": target}` to make one, `DELETE …/<relation>/<target>` to
    /// undo it.
    private func relate(_ userID: UserID, _ relation: String, _ field: String, _ target: String, on: Bool) async throws {
        if on {
            let body = JSONValue.object([(field, .string(target))])
            _ = try await call("POST", "/2/users/\(userID)/\(relation)", [], json: Data(body.serialized.utf8))
        } else {
            _ = try await call("DELETE", "/2/users/\(userID)/\(relation)/\(target)")
        }
    }

    /// A page of posts; `owner` is the user whose own list this is (mentions, posts,
    /// bookmarks), for the ledger's owned reads. Authors are expanded in the answer only on a
    /// cold start; after that the page names them and those not read within a day are looked
    /// up (`/2/users`), so a known author is not billed again after midnight.
    func posts(_ path: String, _ page: V2Page, tokenName: String, extra: [(String, String)] = [], owner: UserID? = nil)
        async throws -> V2PostsPage
    {
        let cold = knownUsers.isCold
        let query = extra + page.parameters(tokenName: tokenName) + (cold ? V2Query.posts : V2Query.postsNamingUsers)
        let decoder = V2Decoder()
        let unjoined = try decoder.unjoinedPosts(from: try await call("GET", path, query))
        knownUsers.remember(unjoined.usersCarried)
        // Billed as it arrived (`send`), before anything else can fail.
        var billed = unjoined.billed
        billed.owner = owner
        let named = unjoined.usersNamed
        var authors = knownUsers.fresh(named)
        let missing = knownUsers.toLookUp(named, known: authors)
        do {
            for start in stride(from: 0, to: missing.count, by: 100) {
                let chunk = Array(missing[start..<min(missing.count, start + 100)])
                let found = try await v2Users(ids: chunk.map(\.description).joined(separator: ","))
                for u in found { authors[u.id] = u }
                knownUsers.rememberUnavailable(chunk.filter { authors[$0] == nil })
            }
        } catch {
            // Authors read before, however long ago, rather than no page; an author never read
            // leaves the read failed (its posts come again, unbilled, the same day).
            let stale = knownUsers.any(named)
            for (id, u) in stale where authors[id] == nil { authors[id] = u }
            let posted = Set(unjoined.authors)
            if posted.contains(where: { authors[$0] == nil && missing.contains($0) }) { throw error }
        }
        var result = decoder.join(unjoined, users: authors)
        result.billed = billed
        return result
    }
}
