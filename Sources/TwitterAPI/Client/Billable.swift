import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// What X bills for, as one successful answer showed it (docs/PROTOCOL-V2.md §1): the posts
/// and users it carried (in `data` and in `includes`) and the writes it made.
public struct Billable: Equatable, Sendable {
    /// Posts in `data`.
    public var posts: [UInt64] = []
    /// Whose posts they were when the call reads one user's own list (mentions, posts,
    /// bookmarks): reads of the account's own are billed as "owned reads".
    public var owner: UserID?
    /// Posts in `includes` (quoted, retweeted, replied to): ordinary post reads.
    public var includedPosts: [UInt64] = []
    /// Users in `data` (`users/me`) and in `includes` (authors, mentioned users).
    public var users: [UInt64] = []
    public var creates = 0
    public var createsWithURL = 0
    public var deletes = 0
    public var interactions = 0
    public init() {}

    public var isEmpty: Bool { self == Billable() }
}

/// Where a client reports what its answers cost: the account's usage ledger.
public protocol UsageRecording: Sendable {
    func record(_ billed: Billable)
    /// Whether a call that may cost up to `worstCase` fits today's budget: nil to send it (its
    /// worst case then held against the budget until `settle`), or why not, in words (the
    /// ledger counts the refusal).
    func admit(_ worstCase: Billable) -> String?
    /// An admitted call has ended: what it held against the budget is let go (its answer's
    /// own cost is recorded by `record`).
    func settle(_ worstCase: Billable)
    /// Writes what was counted where it is kept (a command about to end).
    func persist() throws
    /// Whose own reads are owned reads, once known.
    func identify(_ me: UserID)
}

extension UsageRecording {
    public func admit(_ worstCase: Billable) -> String? { nil }
    public func settle(_ worstCase: Billable) {}
    public func persist() throws {}
    public func identify(_ me: UserID) {}
}

/// A call not sent because what it could cost would pass `budget_per_day`.
public struct BudgetRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension Billable {
    /// What an X API v2 call is priced at before it is sent (its ids unknown: zeros): every post
    /// a page may hold (`max_results`, or 100) with one object for each expansion that can add
    /// one (author, referenced post and its author, replied-to and mentioned user; more
    /// mentions are possible, and mostly read already that day), the users a people page may
    /// hold, a write's own price (a post with a link at that price). Nil for calls X does not
    /// bill (sign-in, rules, lists, messages) and for v1.1.
    public static func worstCase(method: String, path: String, params: [(String, String)], json: Data?) -> Billable? {
        guard path.hasPrefix("/2/"), !path.hasPrefix("/2/oauth2/") else { return nil }
        // A query written into the path (`linnet api GET '/2/…?max_results=5'`) counts as parameters.
        let question = path.firstIndex(of: "?")
        let inPath = question.map { PercentEncoding.parseForm(String(path[path.index(after: $0)...])) } ?? []
        let parts = path[..<(question ?? path.endIndex)].split(separator: "/").map(String.init)
        let params = inPath + params
        func param(_ name: String) -> String? { params.last { $0.0 == name }?.1 }
        let listed = (param("ids") ?? param("usernames")).map { $0.split(separator: ",").count }
        let n = min(1000, listed ?? Int(param("max_results") ?? "") ?? 100)
        var b = Billable()
        let method = method.uppercased()
        let last = parts.last ?? ""
        if method == "GET" {
            let expansions = Set((param("expansions") ?? "").split(separator: ",").map(String.init))
            let postPages: Set<String> = [
                "reverse_chronological", "mentions", "tweets", "liked_tweets", "bookmarks", "recent", "all", "quote_tweets",
            ]
            let userPages: Set<String> = ["followers", "following", "muting", "blocking", "members", "liking_users", "retweeted_by"]
            if parts == ["2", "tweets"] {
                b.posts = Array(repeating: 0, count: n)
            } else if parts.count == 3, parts[1] == "tweets", UInt64(parts[2]) != nil {
                b.posts = [0]
            } else if postPages.contains(last) {
                b.posts = Array(repeating: 0, count: n)
                if ["mentions", "tweets", "liked_tweets", "bookmarks"].contains(last), parts.count >= 3, parts[1] == "users",
                    let id = UInt64(parts[2])
                {
                    b.owner = UserID(id)
                }
            } else if userPages.contains(last) {
                b.users = Array(repeating: 0, count: n)
            } else if parts.count >= 2, parts[1] == "users" {
                b.users = Array(repeating: 0, count: listed ?? 1)
            } else {
                return nil
            }
            // Each expansion asked for may bring one more object a post: its author, the post it
            // references and that post's author, the user it replies to, a user it mentions.
            if !b.posts.isEmpty {
                let n = b.posts.count
                let userExpansions = ["author_id", "referenced_tweets.id.author_id", "in_reply_to_user_id", "entities.mentions.username"]
                b.users += Array(repeating: 0, count: n * userExpansions.filter(expansions.contains).count)
                if expansions.contains("referenced_tweets.id") { b.includedPosts = Array(repeating: 0, count: n) }
            }
            return b
        }
        switch (method, parts.count >= 2 ? parts[1] : "", last) {
        case ("POST", "tweets", "tweets"):
            // Priced by what it says (its `text`, not the JSON around it): with a link, as
            // twitter-text finds one, or without.
            let text = json.flatMap { try? JSONValue.parse($0) }?["text"]?.stringValue ?? ""
            if Extractor.urls(in: text).isEmpty { b.creates = 1 } else { b.createsWithURL = 1 }
        case ("POST", "dm_conversations", "messages"): b.interactions = 1
        case ("DELETE", "tweets", _) where parts.count == 3: b.deletes = 1
        case (_, "users", _) where parts.count >= 4 && ["likes", "retweets", "following"].contains(parts[3]): b.interactions = 1
        default: return nil
        }
        return b
    }
}

extension Billable {
    /// What X bills for one successful answer, read from the answer itself: every post and
    /// user it carried (posts in `data` where the call reads posts, users in `data` wherever
    /// they are users, and everything in `includes`), owned reads by the path's owner, and a
    /// write's own price. Nil for calls X does not bill (v1.1, sign-in).
    public static func billed(method: String, path: String, params: [(String, String)], json: Data?, body: Data) -> Billable? {
        guard path.hasPrefix("/2/"), !path.hasPrefix("/2/oauth2/") else { return nil }
        let shape = worstCase(method: method, path: path, params: params, json: json)
        guard method.uppercased() == "GET" else { return shape }
        guard let answer = try? JSONValue.parse(body) else { return nil }
        func ids(_ value: JSONValue?, where keep: (JSONValue) -> Bool = { _ in true }) -> [UInt64] {
            let items: [JSONValue]
            switch value {
            case .array(let a)?: items = a
            case .object?: items = [value!]
            default: items = []
            }
            return items.filter(keep).compactMap { $0["id"]?.stringValue.flatMap(UInt64.init) }
        }
        var b = Billable()
        if shape?.posts.isEmpty == false {
            b.posts = ids(answer["data"])
            b.owner = shape?.owner
        } else {
            // Users have a `username`; lists, messages and rules in `data` are not billed.
            b.users = ids(answer["data"]) { $0["username"] != nil }
        }
        // X's includes name posts `tweets` (and, in newer answers, `posts`).
        b.includedPosts = ids(answer["includes"]?["tweets"]) + ids(answer["includes"]?["posts"])
        b.users += ids(answer["includes"]?["users"])
        return b
    }
}
