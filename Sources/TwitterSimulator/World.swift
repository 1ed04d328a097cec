import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// The simulated Twitter: accounts, tweets, credentials, limits, faults and the record of every
/// request. One actor, so every answer sees one consistent state.
actor World {
    struct Consumer: Codable {
        var secret: String
        var xauth: Bool
        var name: String
    }

    struct AccessToken: Codable {
        var secret: String
        var userID: UInt64
        var consumerKey: String
        var revoked = false
    }

    struct RequestToken {
        var secret: String
        var consumerKey: String
        var callback: String
        var verifier: String?
        var userID: UInt64?
        var denied = false
    }

    /// Who a request authenticated as.
    enum Identity: Sendable {
        case user(userID: UInt64, consumerKey: String, token: String)
        case app(consumerKey: String)

        var userID: UInt64? {
            if case .user(let id, _, _) = self { return id }
            return nil
        }

        /// The key rate limits are counted under: the token for users, the app for bearers.
        var limitKey: String {
            switch self {
            case .user(_, _, let token): return "user:" + token
            case .app(let key): return "app:" + key
            }
        }
    }

    /// One request as the log keeps it.
    struct LoggedRequest: Sendable {
        var method: String
        var path: String
        var auth: String
        var status: Int
        var at: Double
        /// The endpoint's rate-limit window after this request counted, when it has one.
        var remaining: Int? = nil
        var reset: Int64? = nil
        /// The paging parameters it carried (no other: a form may hold a password).
        var paging: [(String, String)] = []
    }

    static let loggedParameters: Set<String> = [
        "max_results", "since_id", "until_id", "pagination_token", "next_token", "count", "max_id", "query",
    ]

    let config: SimulatorConfiguration
    let credentials: SimulatorCredentials
    var users: [UInt64: SimUser] = [:]
    var userByName: [String: UInt64] = [:]
    var tweets: [UInt64: SimTweet] = [:]
    /// Every id ever created, ascending; deleted ones stay here and in `deleted`.
    var createdIDs: [UInt64] = []
    var deleted: Set<UInt64> = []
    /// Mentions and hashtags by tweet, found when first asked: the simulator starts (and the
    /// demo draws its first frame) without waiting for the backlog's (about 5.6M instructions).
    lazy var tags = Tags(tweets.values)
    var mentionsByTweet: [UInt64: [String]] { tags.mentions }
    var hashtagsByTweet: [UInt64: [String]] { tags.hashtags }
    var consumers: [String: Consumer] = [:]
    var accessTokens: [String: AccessToken] = [:]
    var requestTokens: [String: RequestToken] = [:]
    var bearerByConsumer: [String: String] = [:]
    var consumerByBearer: [String: String] = [:]
    var oauth2Pending: [String: OAuth2Pending] = [:]
    var v2Rules: [String: [V2Rule]] = [:]
    var usage = Usage()
    var muting: [UInt64: Set<UInt64>] = [:]
    var blocking: [UInt64: Set<UInt64>] = [:]
    var bookmarks: [UInt64: [UInt64]] = [:]
    var media: [UInt64: SimMedia] = [:]
    var lists: [SimList] = []
    var messages: [SimMessage] = []
    var oauth2Codes: [String: OAuth2Code] = [:]
    var oauth2Access: [String: OAuth2Grant] = [:]
    var oauth2Refresh: [String: OAuth2Grant] = [:]
    var nonces: [String: Int64] = [:]
    var limits = RateLimiter()
    var faults: FaultPlan
    var log: [LoggedRequest] = []
    lazy var recorder: RequestRecorder? = config.recordRequestsPath.flatMap(RequestRecorder.init(path:))
    var lastStatusText: [UInt64: String] = [:]
    var clockOffset: Int64 = 0
    var lastIDMillis: UInt64 = 0
    var sequence: UInt64 = 0
    var rng: SimRandom
    var subscribers: [Int: StreamSubscriber] = [:]
    var nextSubscriberID = 0
    var reverseAuthHeaders: Set<String> = []
    var followerCounts: [UInt64: Int] = [:]
    var statusCounts: [UInt64: Int] = [:]

    /// A world from the seed, or from a saved state; `bearer`, the demo app's bearer token.
    init(config: SimulatorConfiguration, state: SimulatorState? = nil, bearer: String? = nil) {
        self.config = config
        faults = config.faults
        var rng = SimRandom(seed: config.seed)
        var s: SimulatorState
        if let state {
            s = state
        } else {
            let g = WorldGenerator.generate(config: config, rng: &rng)
            s = SimulatorState(
                version: SimulatorState.currentVersion, users: g.users, tweets: g.tweets, deleted: [],
                consumers: g.consumers, accessTokens: g.accessTokens, credentials: g.credentials)
        }
        credentials = s.credentials
        if let bearer {
            bearerByConsumer[s.credentials.consumerKey] = bearer
            consumerByBearer[bearer] = s.credentials.consumerKey
        }
        self.rng = rng
        consumers = s.consumers
        accessTokens = s.accessTokens
        deleted = Set(s.deleted)
        for u in s.users {
            users[u.id] = u
            userByName[u.screenName.lowercased()] = u.id
            for f in u.following { followerCounts[f, default: 0] += 1 }
        }
        // Sorted where they lie: a generated world's posts are not copied (832 at the demo's start).
        var sorted = s.tweets
        s.tweets = []
        sorted.sort { $0.id < $1.id }
        for t in sorted {
            tweets[t.id] = t
            createdIDs.append(t.id)
            if !deleted.contains(t.id), t.supersededBy == nil { statusCounts[t.userID, default: 0] += 1 }
        }
        lastIDMillis = sorted.last.map { ($0.id >> 22) + 1_288_834_974_657 } ?? 0
        (lists, messages) = Self.makeListsAndMessages(
            userIDs: Array(users.keys), me: credentials.userID, newestMs: sorted.last.map(\.createdAtMs) ?? 1_767_225_600_000)
    }

    /// Lower-cased mentions and hashtags by tweet (none for retweets), for timelines and search.
    struct Tags {
        var mentions: [UInt64: [String]] = [:]
        var hashtags: [UInt64: [String]] = [:]

        init(_ tweets: some Sequence<SimTweet>) { for t in tweets { add(t) } }

        mutating func add(_ t: SimTweet) {
            let (m, h) = World.index(t)
            mentions[t.id] = m
            hashtags[t.id] = h
        }
    }

    /// Lower-cased mentions and hashtags of a tweet (none for retweets).
    static func index(_ t: SimTweet) -> ([String], [String]) {
        guard t.retweetedID == nil else { return ([], []) }
        let mentions = Extractor.mentions(in: t.text).compactMap { e -> String? in
            if case .mention(let name, _) = e.kind { return name.lowercased() }
            return nil
        }
        let tags = Extractor.hashtags(in: t.text).compactMap { e -> String? in
            if case .hashtag(let tag) = e.kind { return tag.lowercased() }
            return nil
        }
        return (mentions, tags)
    }

    // MARK: - Clock and ids

    /// Server time in Unix seconds (tests may shift it to provoke clock-skew errors).
    var now: Int64 { Int64(Date().timeIntervalSince1970) + clockOffset }
    var nowMillis: UInt64 { UInt64(max(0, Int64(Date().timeIntervalSince1970 * 1000) + clockOffset * 1000)) }

    /// A fresh snowflake id, always above every earlier one.
    func nextID(atMillis ms: UInt64? = nil) -> UInt64 {
        var t = ms ?? nowMillis
        if t < lastIDMillis { t = lastIDMillis }
        if t == lastIDMillis {
            sequence += 1
            if sequence > 0xFFF {
                t += 1
                sequence = 0
            }
        } else {
            sequence = 0
        }
        lastIDMillis = t
        return ((t - 1_288_834_974_657) << 22) | (1 << 12) | sequence
    }

    // MARK: - Store

    func insert(_ t: SimTweet) {
        if tweets[t.id] == nil { statusCounts[t.userID, default: 0] += 1 }
        tweets[t.id] = t
        if let last = createdIDs.last, t.id < last {
            let at = createdIDs.firstIndex { $0 > t.id } ?? createdIDs.count
            createdIDs.insert(t.id, at: at)
        } else if createdIDs.last != t.id {
            createdIDs.append(t.id)
        }
        tags.add(t)
    }

    func user(named name: String) -> SimUser? {
        var n = name
        if n.hasPrefix("@") { n.removeFirst() }
        return userByName[n.lowercased()].flatMap { users[$0] }
    }

    /// Live tweets, newest first.
    func liveTweetsNewestFirst() -> [SimTweet] {
        // An older version of an edited post is read by its id only, never in a timeline.
        createdIDs.reversed().compactMap { deleted.contains($0) ? nil : tweets[$0].flatMap { $0.supersededBy == nil ? $0 : nil } }
    }

    // MARK: - Log

    func record(_ request: SimRequest, auth: String, status: Int, window: RateLimiter.Window? = nil) {
        if let recorder { recorder.append(request, status: status) }
        log.append(
            LoggedRequest(
                method: request.method, path: request.path, auth: auth, status: status,
                at: Date().timeIntervalSince1970, remaining: window?.remaining, reset: window?.reset,
                paging: request.parameters.filter { Self.loggedParameters.contains($0.0) }))
        if log.count > 200_000 { log.removeFirst(100_000) }
    }
}
