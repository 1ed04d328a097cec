import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Reading endpoints: timelines, single tweets, users, rate limits.
extension World {
    struct ReadOptions {
        var count: Int
        var sinceID: UInt64?
        var maxID: UInt64?
        var mode: TweetEncoder.Mode
        var trimUser: Bool
        var includeEntities: Bool
        var excludeReplies: Bool
        var includeRetweets: Bool
    }

    /// Parses the common paging and shape parameters, or answers 400 for malformed ones.
    func readOptions(_ r: SimRequest, defaultCount: Int = 20, maxCount: Int = 200) throws(SimResponse) -> ReadOptions {
        func id(_ name: String) throws(SimResponse) -> UInt64? {
            guard let text = r.param(name), !text.isEmpty else { return nil }
            guard let v = UInt64(text) else { throw .error(400, code: 44, "\(name) parameter is invalid.") }
            return v
        }
        let since = try id("since_id")
        let max = try id("max_id")
        let count = r.param("count").flatMap { Int($0) }.map { Swift.max(1, Swift.min(maxCount, $0)) } ?? defaultCount
        return ReadOptions(
            count: count, sinceID: since, maxID: max, mode: r.param("tweet_mode") == "extended" ? .extended : .compat,
            trimUser: Self.truthy(r.param("trim_user")), includeEntities: r.param("include_entities").map(Self.truthy) ?? true,
            excludeReplies: Self.truthy(r.param("exclude_replies")), includeRetweets: r.param("include_rts").map(Self.truthy) ?? true)
    }

    static func truthy(_ s: String?) -> Bool {
        guard let s = s?.lowercased() else { return false }
        return s == "true" || s == "1" || s == "t" || s == "yes"
    }

    /// since_id exclusive, max_id inclusive, newest first, at most `count`.
    func page(_ newestFirst: [SimTweet], _ o: ReadOptions) -> [SimTweet] {
        var out: [SimTweet] = []
        for t in newestFirst {
            if let m = o.maxID, t.id > m { continue }
            if let s = o.sinceID, t.id <= s { break }
            out.append(t)
            if out.count == o.count { break }
        }
        return out
    }

    func encoder(viewer: UInt64?, _ o: ReadOptions) -> TweetEncoder {
        TweetEncoder(
            world: snapshot, viewer: viewer, mode: o.mode, trimUser: o.trimUser, includeEntities: o.includeEntities)
    }

    var snapshot: TweetEncoder.WorldSnapshot {
        TweetEncoder.WorldSnapshot(
            users: users, userByName: userByName, tweets: tweets, followerCounts: followerCounts, statusCounts: statusCounts,
            muting: muting, blocking: blocking)
    }

    func timelineJSON(_ list: [SimTweet], viewer: UInt64?, _ o: ReadOptions) -> SimResponse {
        let enc = encoder(viewer: viewer, o)
        return .json(200, .array(page(list, o).map { enc.tweet($0) }))
    }

    // MARK: - Timelines (ground truth for tests too)

    func homeTweets(of userID: UInt64) -> [SimTweet] {
        let following = Set(users[userID]?.following ?? []).union([userID])
        let muted = (muting[userID] ?? []).union(blocking[userID] ?? [])
        return liveTweetsNewestFirst().filter { following.contains($0.userID) && !muted.contains($0.userID) }
    }

    func mentionTweets(of userID: UInt64) -> [SimTweet] {
        guard let name = users[userID]?.screenName.lowercased() else { return [] }
        return liveTweetsNewestFirst().filter {
            $0.retweetedID == nil && $0.userID != userID && (mentionsByTweet[$0.id] ?? []).contains(name)
        }
    }

    func userTweets(of userID: UInt64) -> [SimTweet] {
        liveTweetsNewestFirst().filter { $0.userID == userID }
    }

    // MARK: - Endpoints

    /// The user a request names by `user_id` or `screen_name`.
    func namedUser(_ r: SimRequest) -> SimUser? {
        if let idText = r.param("user_id") { return UInt64(idText).flatMap { users[$0] } }
        return r.param("screen_name").flatMap { user(named: $0) }
    }

    /// The user named by `user_id` or `screen_name`, or the token's user when neither is given.
    func namedUserOrSelf(_ r: SimRequest, _ identity: Identity) -> SimUser? {
        if r.param("user_id") == nil && r.param("screen_name") == nil { return identity.userID.flatMap { users[$0] } }
        return namedUser(r)
    }

    func verifyCredentials(_ identity: Identity) -> SimResponse {
        guard let id = identity.userID, let u = users[id] else {
            return .error(403, code: 220, "Your credentials do not allow access to this resource.")
        }
        return .json(200, TweetEncoder(world: snapshot, viewer: id, mode: .compat).user(u))
    }

    func home(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        guard let id = identity.userID else { return .error(403, code: 220, "Your credentials do not allow access to this resource.") }
        let o = try readOptions(r)
        var list = homeTweets(of: id)
        if o.excludeReplies { list = list.filter { $0.inReplyToStatusID == nil } }
        return timelineJSON(Array(list.prefix(800)), viewer: id, o)
    }

    func mentions(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        guard let id = identity.userID else { return .error(403, code: 220, "Your credentials do not allow access to this resource.") }
        let o = try readOptions(r)
        return timelineJSON(Array(mentionTweets(of: id).prefix(800)), viewer: id, o)
    }

    func userTimeline(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        guard
            let u = namedUserOrSelf(r, identity)
        else {
            return .error(404, code: 34, "Sorry, that page does not exist.")
        }
        let o = try readOptions(r)
        var list = userTweets(of: u.id)
        if !o.includeRetweets { list = list.filter { $0.retweetedID == nil } }
        if o.excludeReplies { list = list.filter { $0.inReplyToStatusID == nil } }
        return timelineJSON(Array(list.prefix(3200)), viewer: identity.userID, o)
    }

    func show(_ r: SimRequest, _ identity: Identity, id idText: String?) throws(SimResponse) -> SimResponse {
        guard let text = idText ?? r.param("id"), let id = UInt64(text) else {
            return .error(404, code: 144, "No status found with that ID.")
        }
        guard let t = tweets[id], !deleted.contains(id) else { return .error(404, code: 144, "No status found with that ID.") }
        let o = try readOptions(r)
        return .json(200, encoder(viewer: identity.userID, o).tweet(t))
    }

    func usersShow(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let u = namedUser(r) else { return .error(404, code: 50, "User not found.") }
        return .json(200, TweetEncoder(world: snapshot, viewer: identity.userID, mode: .compat).user(u))
    }

    func rateLimitStatus(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        var isApp = false
        if case .app = identity { isApp = true }
        let wanted = r.param("resources").map { Set($0.split(separator: ",").map(String.init)) }
        var families: [String: [(String, J)]] = [:]
        // v1.1 lists its own endpoints (GETs, as X did); v2 has no such call.
        for endpoint in RateLimiter.table.keys.sorted() where endpoint.hasPrefix("/") && !endpoint.hasPrefix("/2/") {
            let family = RateLimiter.family(endpoint)
            if let w = wanted, !w.contains(family) { continue }
            if isApp, RateLimiter.table[endpoint]?.app == nil { continue }
            let win = limits.peek(
                key: identity.limitKey, endpoint: endpoint, app: isApp, now: now, windowSeconds: config.rateLimitWindowSeconds)
            families[family, default: []].append(
                (
                    endpoint,
                    .object([
                        ("limit", .int(win.limit)), ("remaining", .int(win.remaining)), ("reset", .int(win.reset)),
                    ])
                ))
        }
        let context: J =
            isApp
            ? .object([("application", .string("1"))])
            : .object([("access_token", .string(identity.limitKey.replacingAll("user:", with: "")))])
        return .json(
            200,
            .object([
                ("rate_limit_context", context),
                ("resources", .object(families.keys.sorted().map { ($0, .object(families[$0] ?? [])) })),
            ]))
    }
}
