/// What an X API v2 answer carries besides its posts or users: paging, and errors beside data.
public struct V2Meta: Equatable, Sendable {
    public var newestID: TweetID?
    public var oldestID: TweetID?
    public var resultCount: Int?
    /// The token for the next (older) page: `pagination_token` or `next_token` in the request.
    public var nextToken: String?
    public var previousToken: String?
    public init() {}
}

/// A v2 problem: an error object beside data (HTTP 200, `errors: [...]`), a whole error answer
/// (RFC 7807 problem details), or an in-stream error. The v1-style `{"code","message"}` shape
/// reads into the same fields.
public struct V2Problem: Equatable, Sendable, CustomStringConvertible {
    /// `https://api.twitter.com/2/problems/resource-not-found`, …
    public var type: String?
    public var title: String?
    public var detail: String?
    public var status: Int?
    /// v1-style error code (88, 453, …).
    public var code: Int?
    public var message: String?
    public var resourceID: String?
    public var resourceType: String?
    public var parameter: String?
    public var value: String?
    /// Streams: `UpstreamOperationalDisconnect`, or a connection issue (`TooManyConnections`).
    public var disconnectType: String?
    public var connectionIssue: String?
    public var reason: String?

    public init() {}

    /// The last path part of `type` (`resource-not-found`), or the title.
    public var kind: String {
        if let t = type, let slash = t.lastIndex(of: "/") { return String(t[t.index(after: slash)...]) }
        return title ?? ""
    }

    public var description: String {
        let words = detail ?? message ?? title ?? "unknown error"
        if let id = resourceID, !words.contains(id) { return "\(words) (\(resourceType ?? "resource") \(id))" }
        return words
    }
}

/// A v2 answer of posts, read but not joined with its authors.
public struct V2UnjoinedPosts: Sendable {
    let envelope: V2Decoder.Envelope

    /// The users its posts name as author or as the user replied to (of `data` and of the posts
    /// `includes` carried), first seen first, without those `includes` carried.
    public var usersNamed: [UserID] {
        let carried = Set(envelope.users.map(\.id))
        var seen = Set<UserID>()
        var out: [UserID] = []
        let included = envelope.includedOrder.compactMap { envelope.includedPosts[$0] }
        for p in envelope.posts + included {
            for id in [p.authorID, p.inReplyToUserID].compactMap({ $0 }).map(UserID.init)
            where !carried.contains(id) && seen.insert(id).inserted {
                out.append(id)
            }
        }
        return out
    }

    /// What X bills for this answer: every post and user it carried.
    public var billed: Billable { envelope.billed }

    /// The authors of the posts in `data`.
    public var authors: [UserID] { envelope.posts.compactMap { $0.authorID.map(UserID.init) } }

    /// The users `includes` carried.
    public var usersCarried: [User] { envelope.users }
}

/// Posts from a v2 answer, each joined with its author, the posts it references and its media
/// from `includes`: the same `Tweet`s the v1.1 decoder makes.
public struct V2PostsPage: Sendable {
    public var tweets: [Tweet] = []
    public var meta = V2Meta()
    /// Errors the server sent beside the data (a deleted id asked for beside a live one).
    public var errors: [V2Problem] = []
    /// Items of `data` that could not be made into tweets.
    public var problems: [DecodeProblem] = []
    /// What X bills for this answer: every post and user it carried.
    public var billed = Billable()
    public init() {}
}

/// Users from a v2 answer (`users/me`, lookups, followers).
public struct V2UsersPage: Sendable {
    public var users: [User] = []
    public var meta = V2Meta()
    public var errors: [V2Problem] = []
    public var problems: [DecodeProblem] = []
    public var billed = Billable()
    public init() {}
}

/// A rule of the filtered stream that a post matched.
public struct V2MatchingRule: Equatable, Sendable {
    public var id: String
    public var tag: String?
    public init(id: String, tag: String?) {
        self.id = id
        self.tag = tag
    }
}

/// One line of the v2 filtered stream.
public enum V2StreamMessage: Sendable {
    /// A matching post, and the rules it matched.
    case post(Tweet, rules: [V2MatchingRule])
    /// The server is closing the stream (`operational-disconnect`, `TooManyConnections`).
    case disconnect(V2Problem)
    /// Other errors sent on the stream.
    case errors([V2Problem])
    /// A line Linnet has no use for.
    case unknown
}
