import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Typed calls for the v1.1 endpoints Linnet uses, always in extended tweet mode.
extension TwitterClient {
    /// Paging for timelines: since_id is exclusive, max_id inclusive.
    public struct Page: Sendable {
        public var count: Int?
        public var sinceID: TweetID?
        public var maxID: TweetID?
        public init(count: Int? = nil, sinceID: TweetID? = nil, maxID: TweetID? = nil) {
            self.count = count
            self.sinceID = sinceID
            self.maxID = maxID
        }

        var parameters: [(String, String)] {
            var p: [(String, String)] = []
            if let c = count { p.append(("count", String(c))) }
            if let s = sinceID { p.append(("since_id", s.description)) }
            if let m = maxID { p.append(("max_id", m.description)) }
            return p
        }
    }

    static let extended = ("tweet_mode", "extended")

    public func verifyCredentials() async throws -> User {
        try V1Decoder().user(from: try await call("GET", "account/verify_credentials", [("skip_status", "true")]))
    }

    public func homeTimeline(_ page: Page = Page()) async throws -> TimelinePage {
        try V1Decoder().timeline(from: try await call("GET", "statuses/home_timeline", page.parameters + [Self.extended]))
    }

    public func mentionsTimeline(_ page: Page = Page()) async throws -> TimelinePage {
        try V1Decoder().timeline(from: try await call("GET", "statuses/mentions_timeline", page.parameters + [Self.extended]))
    }

    /// Tweets a user liked (the token's user when `screenName` is nil).
    public func favoritesList(screenName: String?, _ page: Page = Page()) async throws -> TimelinePage {
        try V1Decoder().timeline(
            from: try await call(
                "GET", "favorites/list", (screenName.map { [("screen_name", $0)] } ?? []) + page.parameters + [Self.extended]))
    }

    public func userTimeline(screenName: String, _ page: Page = Page(), includeRetweets: Bool = true) async throws -> TimelinePage {
        try V1Decoder().timeline(
            from: try await call(
                "GET", "statuses/user_timeline",
                [("screen_name", screenName), ("include_rts", includeRetweets ? "true" : "false")] + page.parameters + [Self.extended]))
    }

    public func show(_ id: TweetID) async throws -> Tweet {
        try V1Decoder().tweet(from: try await call("GET", "statuses/show/\(id)", [Self.extended]))
    }

    /// Posts a tweet; with `inReplyTo`, the reply mentions are filled in by Twitter.
    public func update(
        _ status: String, inReplyTo: TweetID? = nil, autoPopulateReplyMetadata: Bool = true, mediaIDs: [String] = [],
        attachmentURL: String? = nil
    ) async throws -> Tweet {
        var p = [("status", status)]
        if let url = attachmentURL { p.append(("attachment_url", url)) }
        if !mediaIDs.isEmpty { p.append(("media_ids", mediaIDs.joined(separator: ","))) }
        if let r = inReplyTo {
            p.append(("in_reply_to_status_id", r.description))
            if autoPopulateReplyMetadata { p.append(("auto_populate_reply_metadata", "true")) }
        }
        return try V1Decoder().tweet(from: try await call("POST", "statuses/update", p + [Self.extended]))
    }

    public func retweet(_ id: TweetID) async throws -> Tweet {
        try V1Decoder().tweet(from: try await call("POST", "statuses/retweet/\(id)", [Self.extended]))
    }

    public func unretweet(_ id: TweetID) async throws -> Tweet {
        try V1Decoder().tweet(from: try await call("POST", "statuses/unretweet/\(id)", [Self.extended]))
    }

    public func destroy(_ id: TweetID) async throws -> Tweet {
        try V1Decoder().tweet(from: try await call("POST", "statuses/destroy/\(id)", [Self.extended]))
    }

    public func favorite(_ id: TweetID) async throws -> Tweet {
        try V1Decoder().tweet(from: try await call("POST", "favorites/create", [("id", id.description), Self.extended]))
    }

    public func unfavorite(_ id: TweetID) async throws -> Tweet {
        try V1Decoder().tweet(from: try await call("POST", "favorites/destroy", [("id", id.description), Self.extended]))
    }

    /// A search page; `resultType` is `recent`, `popular` or `mixed`.
    public func search(_ query: String, count: Int? = nil, sinceID: TweetID? = nil, maxID: TweetID? = nil, resultType: String = "recent")
        async throws -> SearchResponse
    {
        var p = [("q", query), ("result_type", resultType)]
        p += Page(count: count, sinceID: sinceID, maxID: maxID).parameters
        return try V1Decoder().search(from: try await call("GET", "search/tweets", p + [Self.extended]))
    }

    /// The next older page of a search, following `search_metadata.next_results`; nil on the last.
    public func searchNext(_ previous: SearchResponse) async throws -> SearchResponse? {
        guard let next = previous.metadata?.nextResults, next.hasPrefix("?") else { return nil }
        var p = PercentEncoding.parseForm(String(next.dropFirst()))
        if !p.contains(where: { $0.0 == "tweet_mode" }) { p.append(Self.extended) }
        return try V1Decoder().search(from: try await call("GET", "search/tweets", p))
    }

    public func userShow(screenName: String) async throws -> User {
        try V1Decoder().user(from: try await call("GET", "users/show", [("screen_name", screenName)]))
    }

    public func rateLimitStatus() async throws -> RateLimitStatus {
        try V1Decoder().rateLimitStatus(from: try await call("GET", "application/rate_limit_status"))
    }
}
