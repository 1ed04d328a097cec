import TwitterAPI

/// A timeline the store keeps.
public enum TimelineID: Hashable, Sendable, CustomStringConvertible {
    case home
    case mentions
    case search(String)
    case user(String)
    case thread(TweetID)
    /// Tweets a user liked (newest tweet first: the store orders by id, not by when the like was made).
    case likes(String)
    /// A list's tweets, the list named `owner/slug`.
    case list(String)
    /// The account's direct messages, a conversation to a row.
    case messages
    /// One conversation, by X's conversation id.
    case conversation(String)

    public var description: String {
        switch self {
        case .home: return "Home"
        case .mentions: return "Mentions"
        case .search(let q): return "Search: \(q)"
        case .user(let name): return "@\(name)"
        case .thread(let id): return "Thread \(id)"
        case .likes(let name): return "Likes of @\(name)"
        case .list(let ref): return "List \(ref)"
        case .messages: return "Messages"
        case .conversation(let id): return "Conversation \(id)"
        }
    }
}

/// What a REST page asked for, so the store can tell whether it left a gap.
public struct PageRequest: Sendable, Equatable {
    public var count: Int
    public var sinceID: TweetID?
    public var maxID: TweetID?
    /// Whether a full page that does not reach what is held leaves a gap: not for a timeline
    /// nothing below a post can be asked of (a marker would promise what cannot be loaded).
    public var marksGaps: Bool
    public init(count: Int, sinceID: TweetID? = nil, maxID: TweetID? = nil, marksGaps: Bool = true) {
        self.count = count
        self.sinceID = sinceID
        self.maxID = maxID
        self.marksGaps = marksGaps
    }
}
