import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

extension SyncEngine {
    /// Unix time as the server counts it.
    nonisolated func now() -> Double { options.clock.now() + Double(client.serverClockOffset) }

    /// The rate-limit family a timeline's pages come from.
    nonisolated func endpoint(_ id: TimelineID) -> String {
        if client.api == .v2 {
            switch id {
            case .home: return "/2/users/:id/timelines/reverse_chronological"
            case .mentions: return "/2/users/:id/mentions"
            case .user: return "/2/users/:id/tweets"
            case .likes: return "/2/users/:id/liked_tweets"
            case .list: return "/2/lists/:id/tweets"
            case .search, .thread: return "/2/tweets/search/recent"
            case .messages, .conversation: return "/2/dm_events"
            }
        }
        switch id {
        case .home: return "/statuses/home_timeline"
        case .mentions: return "/statuses/mentions_timeline"
        case .user: return "/statuses/user_timeline"
        case .likes: return "/favorites/list"
        case .list: return "/lists/statuses"
        case .search: return "/search/tweets"
        case .thread: return "/statuses/show/:id"
        case .messages, .conversation: return "/direct_messages/events/list"
        }
    }

    /// Limits per 15 minutes to assume before the first answer: X's table (docs/X-LIMITS.md);
    /// each answer's headers then say what holds.
    static func defaultLimit(_ endpoint: String) -> Int {
        XLimits.perWindow[endpoint].flatMap { $0.user ?? $0.app } ?? 15
    }

    /// Waits while the last answers said the endpoint's window is spent (or a 429 said to wait).
    func gate(_ endpoint: String, for id: TimelineID) async throws {
        while true {
            let t = now()
            var until = 0.0
            var own = false
            if let b = blockedUntil(endpoint), b > t { (until, own) = (b, blockedByBackoff.contains(endpoint)) }
            if let w = client.rateLimits.window(for: endpoint), w.remaining <= 0, Double(w.reset) > t, Double(w.reset) > until {
                (until, own) = (Double(w.reset), false)
            }
            guard until > t else { return }
            board.count { $0.rateLimitWaits += 1 }
            board.update(id) { $0.state = .rateLimited(until: until) }
            if own {
                try await options.clock.sleep(seconds: until - t)
                // Served (a scaled clock may have shortened it); a later block stays.
                if blocked[endpoint] == until { blocked[endpoint] = nil }
            } else {
                // The server's window turns over at the start of the reset second.
                try await options.clock.sleep(until: until - Double(client.serverClockOffset) + 0.02)
            }
        }
    }

    /// One page for a timeline, after the rate-limit gate; also how many items the server
    /// returned (tweets that could not be read count: the page was not short).
    func fetch(_ id: TimelineID, _ r: PageRequest) async throws -> ([Tweet], Int) {
        if case .thread(let root) = id { return (try await thread(root), 0) }
        let endpoint = self.endpoint(id)
        try await gate(endpoint, for: id)
        board.count { $0.restRequests += 1 }
        do {
            return client.api == .v2 ? try await fetchV2(id, r) : try await fetchV1(id, r)
        } catch let e as APIError where e.httpStatus == 429 || e.httpStatus == 420 {
            block(endpoint, until: e.retryAt.map(Double.init) ?? now() + 60, named: e.retryAt != nil)
            throw e
        }
    }

    /// A page on API v1.1.
    func fetchV1(_ id: TimelineID, _ r: PageRequest) async throws -> ([Tweet], Int) {
        let page = TwitterClient.Page(count: r.count, sinceID: r.sinceID, maxID: r.maxID)
        switch id {
        case .home:
            let p = try await client.homeTimeline(page)
            return readable(id, p.tweets, p.problems)
        case .mentions:
            let p = try await client.mentionsTimeline(page)
            return readable(id, p.tweets, p.problems)
        case .user(let name):
            let p = try await client.userTimeline(screenName: name, page)
            return readable(id, p.tweets, p.problems)
        case .likes(let name):
            let p = try await client.favoritesList(screenName: name, page)
            return readable(id, p.tweets, p.problems)
        case .list(let ref):
            let (owner, slug) = Self.listParts(ref)
            let p = try await client.listStatuses(owner: owner, slug: slug, page)
            return readable(id, p.tweets, p.problems)
        case .search(let q):
            let s = try await client.search(q, count: r.count, sinceID: r.sinceID, maxID: r.maxID)
            return readable(id, s.statuses, s.problems)
        case .thread, .messages, .conversation:
            return ([], 0)
        }
    }

    /// A page on API v2: `until_id` is exclusive where v1.1's `max_id` was inclusive; a user's
    /// posts by their id (looked up once per name: v2 names users by id); at most 100 a page.
    func fetchV2(_ id: TimelineID, _ r: PageRequest) async throws -> ([Tweet], Int) {
        let page = TwitterClient.V2Page(
            maxResults: affordablePage(min(100, r.count)), sinceID: r.sinceID, untilID: r.maxID.map { TweetID($0.rawValue &+ 1) })
        let p: V2PostsPage
        switch id {
        case .home: p = try await client.v2Home(userID: account.id, page)
        case .mentions: p = try await client.v2Mentions(userID: account.id, page)
        case .user(let name):
            var posts = page
            posts.maxResults = max(5, min(100, page.maxResults ?? 100))
            p = try await client.v2UserPosts(userID: try await userID(name), posts)
        case .search(let q): p = try await client.v2Search(q, Self.searchPage(page))
        case .likes(let name):
            // Likes are paged by token only: the newest page is what a poll reads, and there
            // is no asking for older ones by id.
            guard r.maxID == nil else { return ([], 0) }
            p = try await client.v2LikedPosts(userID: try await userID(name), maxResults: page.maxResults)
        case .list(let ref):
            // Paged by token only, as likes are.
            guard r.maxID == nil else { return ([], 0) }
            p = try await client.v2ListPosts(listID: try await listID(ref), TwitterClient.V2Page(maxResults: page.maxResults))
        case .thread, .messages, .conversation: return ([], 0)
        }
        return readable(id, p.tweets, p.problems)
    }

    /// A page's posts, and how many the server returned; posts that could not be read (malformed,
    /// or more than X can send) are said in words on the pane's status, the rest kept.
    func readable(_ id: TimelineID, _ tweets: [Tweet], _ problems: [DecodeProblem]) -> ([Tweet], Int) {
        if let first = problems.first {
            let t = now()
            let n = problems.count
            board.update(id) {
                $0.lastError =
                    "\(n) post\(n == 1 ? "" : "s") in the server's answer could not be read and \(n == 1 ? "was" : "were") left out (\(first.reason))"
                $0.lastErrorAt = t
            }
        }
        return (tweets, tweets.count + problems.count)
    }

    /// `owner/slug` as its parts (a leading `@` on the owner dropped).
    nonisolated static func listParts(_ ref: String) -> (owner: String, slug: String) {
        let parts = ref.split(separator: "/", maxSplits: 1).map(String.init)
        let owner = parts.first.map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 } ?? ""
        return (owner, parts.count > 1 ? parts[1].lowercased() : "")
    }

    /// A list's id on v2 (lists are named by id there): the owner's lists, looked up once.
    func listID(_ ref: String) async throws -> String {
        if let known = v2ListIDs[ref.lowercased()] { return known }
        let (owner, slug) = Self.listParts(ref)
        let lists = try await client.v2OwnedLists(userID: try await userID(owner))
        guard let found = lists.first(where: { TwitterClient.slug($0.name) == slug }) else {
            throw APIError(httpStatus: 404, code: 34, message: "@\(owner) has no list \"\(slug)\".")
        }
        v2ListIDs[ref.lowercased()] = found.id
        return found.id
    }

    /// A user's id on v2, from the account itself or a lookup made once per name.
    func userID(_ name: String) async throws -> UserID {
        if name.lowercased() == account.screenName.lowercased() { return account.id }
        if let known = v2UserIDs[name.lowercased()] { return known }
        let id = try await client.v2User(named: name).id
        v2UserIDs[name.lowercased()] = id
        return id
    }

    /// This session's like and repost flags on a v2 page, applied in the same engine turn that
    /// hands the page to the store: a like made while the page was on its way is either applied
    /// here or reaches the store after this page.
    func withSessionFlags(_ tweets: [Tweet]) -> [Tweet] {
        guard !v2Liked.isEmpty || !v2Reposted.isEmpty else { return tweets }
        return tweets.map { t -> Tweet in
            let c = t.content
            let liked = v2Liked.contains(c.id)
            let reposted = v2Reposted.contains(c.id)
            guard liked || reposted else { return t }
            // The server's counts already hold this session's like or repost.
            return t.replacingContent(c.with(favorited: liked || c.isFavorited, retweeted: reposted || c.isRetweeted, counts: false))
        }
    }

    /// Recent search takes 10 to 100 a page.
    static func searchPage(_ p: TwitterClient.V2Page) -> TwitterClient.V2Page {
        var q = p
        q.maxResults = max(10, min(100, p.maxResults ?? 100))
        return q
    }

    /// A conversation: the tweet, the tweets it replies to (up to 20 up), and replies to any of
    /// them found by searching (tweets to the author on v1.1, the conversation on v2).
    func thread(_ root: TweetID) async throws -> [Tweet] {
        let v2 = client.api == .v2
        var found: [Tweet] = []
        var next: TweetID? = root
        while let id = next, found.count < 20 {
            let tweet: Tweet
            if let held = await store.tweet(id) {
                tweet = held
            } else {
                try await gate(v2 ? "/2/tweets" : "/statuses/show/:id", for: .thread(root))
                board.count { $0.restRequests += 1 }
                if v2 {
                    guard let t = try await client.v2Lookup([id]).tweets.first else { break }
                    tweet = t
                } else {
                    tweet = try await client.show(id)
                }
            }
            found.append(tweet)
            next = tweet.inReplyToStatusID
        }
        guard let top = found.first else { return [] }
        try await gate(v2 ? "/2/tweets/search/recent" : "/search/tweets", for: .thread(root))
        board.count { $0.restRequests += 1 }
        // v1.1 finds replies among tweets to the author; v2 by the conversation (7 days back).
        let replies =
            v2
            ? try await client.v2Search("conversation_id:\(top.extras?.conversationID ?? top.id)", TwitterClient.V2Page(maxResults: 100))
                .tweets
            : try await client.search("to:\(top.user.screenName)", count: 100, sinceID: TweetID(top.id.rawValue - 1)).statuses
        var ids = Set(found.map(\.id))
        for t in replies.sorted(by: { $0.id < $1.id }) where t.inReplyToStatusID.map(ids.contains) == true {
            ids.insert(t.id)
            found.append(t)
        }
        return found
    }

    /// Records a failure in words on the timeline's status.
    func fail(_ id: TimelineID, reason: String, state: SyncState?, refused: Bool = false) {
        let t = now()
        board.update(id) {
            $0.lastError = reason
            $0.lastErrorAt = t
            $0.refused = refused
            if let state { $0.state = state }
        }
    }

    func fail(_ id: TimelineID, _ error: any Error, retry: Double) {
        switch error {
        case let e as BudgetRefusal:
            fail(id, reason: e.description, state: .budgetSpent(until: options.ledger?.endOfDay() ?? retry), refused: true)
        case let e as APIError where e.httpStatus == 429 || e.httpStatus == 420:
            let until = blockedUntil(endpoint(id)) ?? retry
            fail(id, reason: "Rate limited: \(e.explanation)", state: .rateLimited(until: until), refused: true)
        case let e as APIError:
            fail(
                id, reason: e.description, state: .offline(retry: retry, reason: e.explanation), refused: (400..<500).contains(e.httpStatus)
            )
        case let e as TransportError:
            fail(id, reason: e.description, state: .offline(retry: retry, reason: e.description))
        default:
            fail(id, reason: "\(error)", state: .offline(retry: retry, reason: "\(error)"))
        }
    }

    /// Plain words for an error a user sees.
    public nonisolated static func words(_ error: any Error) -> String {
        switch error {
        case let e as APIError: return e.explanation == e.message ? e.message : "\(e.message) — \(e.explanation)"
        case let e as TransportError: return e.description
        default: return "\(error)"
        }
    }
}
