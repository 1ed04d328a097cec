import FoundationEssentials
import Synchronization

/// X API v2: users and lists named by id (looked up once per name), `until_id` exclusive, at
/// most 100 posts a page, likes and lists paged by token only, writes that answer with a flag,
/// a create that answers with an id, every read billed.
public final class V2Face: APIFace {
    public let client: TwitterClient
    private let ids = Mutex(Names())
    private struct Names {
        var users: [String: UserID] = [:]
        var lists: [String: String] = [:]
        var me: UserID?
    }
    public init(client: TwitterClient) { self.client = client }

    public var name: String { "v2" }
    public var largestPage: Int? { 100 }
    public var hasUserStream: Bool { false }
    public var billsReads: Bool { true }
    public var writesAnswerWithPost: Bool { false }
    public var pagesLikesAndListsByID: Bool { false }

    public func family(_ feed: Feed) -> String {
        switch feed {
        case .home: "/2/users/:id/timelines/reverse_chronological"
        case .mentions: "/2/users/:id/mentions"
        case .user: "/2/users/:id/tweets"
        case .likes: "/2/users/:id/liked_tweets"
        case .list: "/2/lists/:id/tweets"
        case .search: "/2/tweets/search/recent"
        }
    }
    public var lookupFamily: String { "/2/tweets" }
    public var threadFamily: String { "/2/tweets/search/recent" }
    public var threadRepliesFamily: String { "/2/tweets/search/recent" }
    public var messagesFamily: String { "/2/dm_events" }

    public static let notOnSelfServe =
        "Your key's access level (self-serve) does not include this: X removed likes, follows and quote posts from it in April 2026."

    public func refusedOnLevel(selfServe: Bool) -> (kinds: Set<WriteKind>, repliesOnlyWhereEngaged: Bool) {
        selfServe ? ([.like, .quote, .follow], true) : ([], false)
    }

    /// The operation's template (for its least `max_results`), its path, and whose own list it
    /// is (reads of the reader's own mentions, posts and likes are billed as owned reads).
    private func route(_ feed: Feed, me: UserID?) async throws -> (template: String, path: String, owner: UserID?) {
        switch feed {
        case .home:
            let me = try await reader(me)
            return ("/2/users/{id}/timelines/reverse_chronological", "/2/users/\(me)/timelines/reverse_chronological", nil)
        case .mentions:
            let me = try await reader(me)
            return ("/2/users/{id}/mentions", "/2/users/\(me)/mentions", me)
        case .user(let name):
            let id = try await userID(name, me: me)
            return ("/2/users/{id}/tweets", "/2/users/\(id)/tweets", id)
        case .likes(let name):
            let id = try await userID(name, me: me)
            return ("/2/users/{id}/liked_tweets", "/2/users/\(id)/liked_tweets", id)
        case .list(let ref): return ("/2/lists/{id}/tweets", "/2/lists/\(try await listID(ref, me: me))/tweets", nil)
        case .search: return ("/2/tweets/search/recent", "/2/tweets/search/recent", nil)
        }
    }

    /// Paging in v2's terms: `until_id` is exclusive where v1.1's `max_id` was inclusive.
    private func v2Page(_ template: String, _ ask: PageAsk) -> TwitterClient.V2Page {
        TwitterClient.V2Page(
            maxResults: Int(TwitterClient.V2Query.maxResults(ask.count, for: template)), sinceID: ask.sinceID,
            untilID: ask.maxID.map { TweetID($0.rawValue &+ 1) })
    }

    public func page(_ feed: Feed, _ ask: PageAsk, me: UserID?) async throws -> FeedPage {
        // Likes and lists are paged by token only: the newest page is what a poll reads, and
        // there is no asking for older ones by id.
        switch feed {
        case .likes, .list: if ask.maxID != nil { return FeedPage() }
        default: break
        }
        let (template, path, owner) = try await route(feed, me: me)
        var page = v2Page(template, ask)
        switch feed {
        case .likes, .list: (page.sinceID, page.untilID) = (nil, nil)
        default: break
        }
        var extra: [(String, String)] = []
        var tokenName = "pagination_token"
        if case .search(let q) = feed { (extra, tokenName) = ([("query", q)], "next_token") }
        let p = try await client.posts(path, page, tokenName: tokenName, extra: extra, owner: owner)
        return FeedPage(tweets: p.tweets, problems: p.problems, notes: p.errors.map(\.description))
    }

    public func rawItems(_ feed: Feed, _ ask: PageAsk, me: UserID?) async throws -> [JSONValue] {
        let (template, path, _) = try await route(feed, me: me)
        var query = v2Page(template, ask).parameters(tokenName: "pagination_token") + TwitterClient.V2Query.posts
        if case .search(let q) = feed { query.insert(("query", q), at: 0) }
        guard case .array(let items)? = try JSONValue.parse(try await client.call("GET", path, query))["data"] else { return [] }
        return items
    }

    public func post(_ id: TweetID) async throws -> Tweet? { try await client.v2Lookup([id]).tweets.first }

    public func replies(to top: Tweet) async throws -> [Tweet] {
        let q = "conversation_id:\(top.extras?.conversationID ?? top.id)"
        return try await client.v2Search(q, TwitterClient.V2Page(maxResults: 100)).tweets
    }

    public func publish(_ draft: Draft) async throws -> Published {
        .id(try await client.v2Create(text: draft.text, replyTo: draft.replyTo, quote: draft.quote, mediaIDs: draft.mediaIDs))
    }

    public func setLiked(_ on: Bool, _ id: TweetID, me: UserID) async throws -> Tweet? {
        on ? try await client.v2Like(userID: me, id) : try await client.v2Unlike(userID: me, id)
        return nil
    }

    public func setRetweeted(_ on: Bool, _ id: TweetID, me: UserID) async throws -> Tweet? {
        on ? try await client.v2Repost(userID: me, id) : try await client.v2Unrepost(userID: me, id)
        return nil
    }

    public func delete(_ id: TweetID) async throws -> Tweet? {
        try await client.v2Delete(id)
        return nil
    }

    // MARK: Names to ids

    /// The reader's id: given, named by the token, or asked once.
    func reader(_ me: UserID?) async throws -> UserID {
        if let me = me ?? ids.withLock({ $0.me }) ?? client.auth.tokenUserID { return me }
        let found = try await client.v2Me().id
        ids.withLock { $0.me = found }
        return found
    }

    /// A user's id, looked up once per name (v2 names users by id).
    func userID(_ name: String, me: UserID?) async throws -> UserID {
        if name.isEmpty { return try await reader(me) }
        let key = name.lowercased()
        if let known = ids.withLock({ $0.users[key] }) { return known }
        let id = try await client.v2User(named: name).id
        ids.withLock { $0.users[key] = id }
        return id
    }

    /// A list's id (lists are named by id there): the owner's lists, looked up once.
    func listID(_ ref: String, me: UserID?) async throws -> String {
        let key = ref.lowercased()
        if let known = ids.withLock({ $0.lists[key] }) { return known }
        let (owner, slug) = V1Face.listParts(ref)
        let lists = try await client.v2OwnedLists(userID: try await userID(owner, me: me))
        guard let found = lists.first(where: { TwitterClient.slug($0.name) == slug }) else {
            throw APIError(httpStatus: 404, code: 34, message: "@\(owner) has no list \"\(slug)\".")
        }
        ids.withLock { $0.lists[key] = found.id }
        return found.id
    }

    public func know(reader user: User) {
        ids.withLock {
            $0.users[user.screenName.lowercased()] = user.id
            $0.me = $0.me ?? user.id
        }
    }
}
