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
        switch id {
        case .thread: face.threadFamily
        case .messages, .conversation: face.messagesFamily
        case .home: face.family(.home)
        case .mentions: face.family(.mentions)
        case .user(let name): face.family(.user(name))
        case .likes(let name): face.family(.likes(name))
        case .list(let ref): face.family(.list(ref))
        case .search(let q): face.family(.search(q))
        }
    }

    /// Waits while the client's rate-limit schedule holds the endpoint (a spent window, a 429).
    func gate(_ endpoint: String, for id: TimelineID) async throws {
        while true {
            let t = now()
            guard case .wait(let until, let reason) = client.rateLimits.schedule.gate(endpoint, now: t) else { return }
            board.count { $0.rateLimitWaits += 1 }
            board.update(id) { $0.state = .rateLimited(until: until) }
            if reason == .backoff {
                try await options.clock.sleep(seconds: until - t)
                // Served (a scaled clock may have shortened it); a later refusal stays.
                client.rateLimits.apply(.served(endpoint: endpoint, until: until))
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
        let feed: Feed
        switch id {
        case .home: feed = .home
        case .mentions: feed = .mentions
        case .user(let name): feed = .user(name)
        case .likes(let name): feed = .likes(name)
        case .list(let ref): feed = .list(ref)
        case .search(let q): feed = .search(q)
        case .thread, .messages, .conversation: return ([], 0)
        }
        let family = endpoint(id)
        try await gate(family, for: id)
        board.count { $0.restRequests += 1 }
        let ask = PageAsk(count: affordablePage(min(face.largestPage ?? .max, r.count)), sinceID: r.sinceID, maxID: r.maxID)
        do {
            let page = try await face.page(feed, ask, me: account.id)
            return readable(id, page.tweets, page.problems)
        } catch let e as APIError where e.httpStatus == 429 || e.httpStatus == 420 {
            // The client holds the family of the call refused; a refused lookup on the way (a
            // user's id, a list's, authors) holds the pane's family too, so it is not polled
            // into the same refusal.
            client.rateLimits.apply(.refused(endpoint: family, retryAt: e.retryAt, now: now()))
            throw e
        }
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

    /// This session's like and repost state on a page or streamed post, applied in the same
    /// engine turn that hands it to the store: a like made while the page was on its way is
    /// either applied here or reaches the store after this page. Where pages carry the reader's
    /// own flags (v1.1), a page asked for after the write (`asked`, the writes it knew of) is
    /// the server's word and kept: a like undone on another device shows as undone.
    func withSessionFlags(_ tweets: [Tweet], asked: UInt64? = nil) -> [Tweet] {
        guard !sessionLiked.isEmpty || !sessionReposted.isEmpty else { return tweets }
        return tweets.map { withSessionFlags($0, asked: asked) }
    }

    func withSessionFlags(_ t: Tweet, asked: UInt64? = nil) -> Tweet {
        let c = t.content
        let trusted = face.writesAnswerWithPost ? asked : nil
        func after(_ f: SessionFlag?) -> Bool? {
            guard let f else { return nil }
            if let trusted, f.write <= trusted { return nil }
            return f.on
        }
        let liked = after(sessionLiked[c.id])
        let reposted = after(sessionReposted[c.id])
        guard liked != nil || reposted != nil else { return t }
        // A v1.1 page read before the write has counts to match its flags: they move with the
        // flags. v2 pages (no flags) and streams already count this session's like or repost.
        return t.replacingContent(c.with(favorited: liked, retweeted: reposted, counts: trusted != nil))
    }

    /// A conversation: the tweet, the tweets it replies to (up to 20 up), and replies to any of
    /// them the face can find.
    func thread(_ root: TweetID) async throws -> [Tweet] {
        var found: [Tweet] = []
        var next: TweetID? = root
        while let id = next, found.count < 20 {
            let tweet: Tweet
            if let held = await store.tweet(id) {
                tweet = held
            } else {
                try await gate(face.lookupFamily, for: .thread(root))
                board.count { $0.restRequests += 1 }
                guard let t = try await face.post(id) else { break }
                tweet = t
            }
            found.append(tweet)
            next = tweet.inReplyToStatusID
        }
        guard let top = found.first else { return [] }
        try await gate(face.threadRepliesFamily, for: .thread(root))
        board.count { $0.restRequests += 1 }
        let replies = try await face.replies(to: top)
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
            let until = client.rateLimits.schedule.refusedUntil(endpoint(id)) ?? retry
            fail(id, reason: "Rate limited: \(e.explanation)", state: .rateLimited(until: until), refused: true)
        case let e as APIError:
            fail(
                id, reason: e.description, state: .offline(retry: retry, reason: e.explanation), refused: (400..<500).contains(e.httpStatus)
            )
        case let e as TransportError:
            // Without libcurl no retry can work: the pane says so as a refusal.
            let missing = if case .noLibcurl = e { true } else { false }
            fail(id, reason: e.description, state: .offline(retry: retry, reason: e.description), refused: missing)
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
