import FoundationEssentials

/// Twitter API v1.1: timelines paged by `since_id` (exclusive) and `max_id` (inclusive), a user
/// stream, writes that answer with the post, no bill per read.
public struct V1Face: APIFace {
    public let client: TwitterClient
    public init(client: TwitterClient) { self.client = client }

    public var name: String { "v1.1" }
    public var largestPage: Int? { nil }
    public var hasUserStream: Bool { true }
    public var billsReads: Bool { false }
    public var writesAnswerWithPost: Bool { true }
    public var pagesLikesAndListsByID: Bool { true }

    public func family(_ feed: Feed) -> String {
        switch feed {
        case .home: "/statuses/home_timeline"
        case .mentions: "/statuses/mentions_timeline"
        case .user: "/statuses/user_timeline"
        case .likes: "/favorites/list"
        case .list: "/lists/statuses"
        case .search: "/search/tweets"
        }
    }
    public var lookupFamily: String { "/statuses/show/:id" }
    public var threadFamily: String { "/statuses/show/:id" }
    public var threadRepliesFamily: String { "/search/tweets" }
    public var messagesFamily: String { "/direct_messages/events/list" }

    public func refusedOnLevel(selfServe: Bool) -> (kinds: Set<WriteKind>, repliesOnlyWhereEngaged: Bool) { ([], false) }

    /// `owner/slug` as its parts (a leading `@` on the owner dropped, the slug lower-cased).
    public static func listParts(_ ref: String) -> (owner: String, slug: String) {
        let parts = ref.split(separator: "/", maxSplits: 1).map(String.init)
        let owner = parts.first.map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 } ?? ""
        return (owner, parts.count > 1 ? parts[1].lowercased() : "")
    }

    /// The call for a page, and the key its posts sit under (search's envelope).
    private func request(_ feed: Feed, _ ask: PageAsk) -> (path: String, params: [(String, String)], key: String?) {
        let page = TwitterClient.Page(count: ask.count, sinceID: ask.sinceID, maxID: ask.maxID).parameters
        let extended = [("tweet_mode", "extended")]
        switch feed {
        case .home: return ("statuses/home_timeline", page + extended, nil)
        case .mentions: return ("statuses/mentions_timeline", page + extended, nil)
        case .user(let name):
            return ("statuses/user_timeline", [("screen_name", name), ("include_rts", "true")] + page + extended, nil)
        case .likes(let name): return ("favorites/list", (name.isEmpty ? [] : [("screen_name", name)]) + page + extended, nil)
        case .list(let ref):
            let (owner, slug) = Self.listParts(ref)
            return ("lists/statuses", [("owner_screen_name", owner), ("slug", slug)] + page + extended, nil)
        case .search(let q): return ("search/tweets", [("q", q), ("result_type", "recent")] + page + extended, "statuses")
        }
    }

    public func page(_ feed: Feed, _ ask: PageAsk, me: UserID?) async throws -> FeedPage {
        let (path, params, key) = request(feed, ask)
        let body = try await client.call("GET", path, params)
        if key != nil {
            let s = try V1Decoder().search(from: body)
            return FeedPage(tweets: s.statuses, problems: s.problems)
        }
        let p = try V1Decoder().timeline(from: body)
        return FeedPage(tweets: p.tweets, problems: p.problems)
    }

    public func rawItems(_ feed: Feed, _ ask: PageAsk, me: UserID?) async throws -> [JSONValue] {
        let (path, params, key) = request(feed, ask)
        var value = try JSONValue.parse(try await client.call("GET", path, params))
        if let key, let inner = value[key] { value = inner }
        guard case .array(let items) = value else { throw DecodeError("the answer was not a list of tweets") }
        return items
    }

    public func know(reader: User) {}

    public func post(_ id: TweetID) async throws -> Tweet? { try await client.show(id) }

    public func replies(to top: Tweet) async throws -> [Tweet] {
        try await client.search("to:\(top.user.screenName)", count: 100, sinceID: TweetID(top.id.rawValue - 1)).statuses
    }

    public func publish(_ draft: Draft) async throws -> Published {
        // A quote is the post's address in `attachment_url`, which the length does not count.
        var url: String?
        if let q = draft.quote {
            var author = draft.quotedAuthor
            if author == nil { author = try await client.show(q).user.screenName }
            url = "https://twitter.com/\(author ?? "")/status/\(q)"
        }
        return .tweet(
            try await client.update(
                draft.text, inReplyTo: draft.replyTo, autoPopulateReplyMetadata: draft.fillInMentions, mediaIDs: draft.mediaIDs,
                attachmentURL: url))
    }

    public func setLiked(_ on: Bool, _ id: TweetID, me: UserID) async throws -> Tweet? {
        on ? try await client.favorite(id) : try await client.unfavorite(id)
    }

    public func setRetweeted(_ on: Bool, _ id: TweetID, me: UserID) async throws -> Tweet? {
        on ? try await client.retweet(id) : try await client.unretweet(id)
    }

    public func delete(_ id: TweetID) async throws -> Tweet? { try await client.destroy(id) }
}
