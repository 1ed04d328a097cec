import FoundationEssentials

/// A timeline as either API reads it.
public enum Feed: Hashable, Sendable {
    case home
    case mentions
    /// A user's own posts, by screen name.
    case user(String)
    /// Posts a user liked, by screen name (empty: the reader's).
    case likes(String)
    /// A list, named `owner/slug`.
    case list(String)
    case search(String)
}

/// One page asked of a feed, in v1.1's terms: `sinceID` exclusive, `maxID` inclusive.
public struct PageAsk: Sendable, Equatable {
    public var count: Int
    public var sinceID: TweetID?
    public var maxID: TweetID?
    public init(count: Int, sinceID: TweetID? = nil, maxID: TweetID? = nil) {
        self.count = count
        self.sinceID = sinceID
        self.maxID = maxID
    }
}

/// A page of posts in the shared model, with the items that could not be read.
public struct FeedPage: Sendable {
    public var tweets: [Tweet]
    public var problems: [DecodeProblem]
    /// What the server said beside the posts (a referenced post gone), in its words.
    public var notes: [String]
    public init(tweets: [Tweet] = [], problems: [DecodeProblem] = [], notes: [String] = []) {
        self.tweets = tweets
        self.problems = problems
        self.notes = notes
    }
    /// How many items the server returned (unreadable ones count: the page was not short).
    public var returned: Int { tweets.count + problems.count }
}

/// A post to make.
public struct Draft: Sendable, Equatable {
    public var text: String
    public var replyTo: TweetID?
    /// Whether the server is to fill in the reply's mentions (a reply to one's own post
    /// mentions nobody; v1.1 then refuses it unless asked to fill them in).
    public var fillInMentions: Bool
    public var mediaIDs: [String]
    public var quote: TweetID?
    /// The quoted post's author, when known (v1.1 quotes by the post's address, which names them).
    public var quotedAuthor: String?
    public init(
        text: String, replyTo: TweetID? = nil, fillInMentions: Bool = true, mediaIDs: [String] = [], quote: TweetID? = nil,
        quotedAuthor: String? = nil
    ) {
        self.text = text
        self.replyTo = replyTo
        self.fillInMentions = fillInMentions
        self.mediaIDs = mediaIDs
        self.quote = quote
        self.quotedAuthor = quotedAuthor
    }
}

/// What a post became: the server's post, or only its id (v2 answers a create with an id).
public enum Published: Sendable {
    case tweet(Tweet)
    case id(TweetID)
    public var id: TweetID {
        switch self {
        case .tweet(let t): t.id
        case .id(let id): id
        }
    }
}

/// Writes an access level allows or refuses together: a like and its undoing, a retweet and
/// its undoing, posts, deletes.
public enum WriteKind: Sendable, Hashable { case post, quote, retweet, like, delete, follow, mute, block }

/// One API as Linnet reads and writes through it: its endpoints, paging rules, write semantics
/// and what its access levels refuse, in the shared model. The sync engine, the reader and the
/// CLI hold a face and never ask which API it is; `TwitterClient.face()` picks one.
public protocol APIFace: Sendable {
    var client: TwitterClient { get }
    /// How config.toml and `linnet accounts` name it.
    var name: String { get }

    // MARK: Facts

    /// The most posts a page may hold (nil: what the caller asks).
    var largestPage: Int? { get }
    /// Whether Home and Mentions come from a user stream and plain-word searches from the
    /// filter stream (v1.1); otherwise every pane is polled.
    var hasUserStream: Bool { get }
    /// Whether each read is billed (pay-per-use): the usage ledger and the cost meter apply.
    var billsReads: Bool { get }
    /// Whether likes, retweets and deletes answer with the post (otherwise with a flag only,
    /// and timelines carry no like or retweet flags of the reader's own).
    var writesAnswerWithPost: Bool { get }
    /// Whether a page of likes or of a list below a given post can be asked for (otherwise
    /// they are read a newest page at a time, by token).
    var pagesLikesAndListsByID: Bool { get }
    /// The rate-limit family each kind of read counts against.
    func family(_ feed: Feed) -> String
    /// The family a single post is read from, the one a thread pane waits on, and the one a
    /// thread's replies are found with.
    var lookupFamily: String { get }
    var threadFamily: String { get }
    var threadRepliesFamily: String { get }
    var messagesFamily: String { get }
    /// Writes the key's access level cannot make, known before anything is asked, and whether
    /// a reply is allowed only where the author mentioned or quoted the reader.
    func refusedOnLevel(selfServe: Bool) -> (kinds: Set<WriteKind>, repliesOnlyWhereEngaged: Bool)

    // MARK: Reads

    /// The reader, known by name as well as by id (their own panes need no lookup).
    func know(reader: User)
    /// A page of a feed. `me` is the reader's id when known (a face that needs it and lacks it
    /// asks the server once).
    func page(_ feed: Feed, _ ask: PageAsk, me: UserID?) async throws -> FeedPage
    /// The same page as the server sent its items, one JSON value each (`--api-json`).
    func rawItems(_ feed: Feed, _ ask: PageAsk, me: UserID?) async throws -> [JSONValue]
    /// One post by id; nil when the server has it no more.
    func post(_ id: TweetID) async throws -> Tweet?
    /// Replies to a thread's top post, among those the API can find (v1.1: posts to the
    /// author; v2: the conversation, 7 days back).
    func replies(to top: Tweet) async throws -> [Tweet]

    // MARK: Writes

    func publish(_ draft: Draft) async throws -> Published
    /// A like made or undone; the post as the server now has it, or nil for a flag only.
    func setLiked(_ on: Bool, _ id: TweetID, me: UserID) async throws -> Tweet?
    /// A retweet made or undone; the server's answer, or nil for a flag only.
    func setRetweeted(_ on: Bool, _ id: TweetID, me: UserID) async throws -> Tweet?
    /// Deletes a post; the deleted post, or nil for a flag only.
    func delete(_ id: TweetID) async throws -> Tweet?
}

extension TwitterClient {
    /// The face of this client's API (each call makes a new one with empty id caches: hold it).
    public func face() -> any APIFace {
        switch api {
        case .v1: V1Face(client: self)
        case .v2: V2Face(client: self)
        }
    }
}

extension TwitterClient.API {
    /// Whether X bills each read on this API (the usage ledger applies).
    public var billsReads: Bool { self == .v2 }

    /// The API a name means (`v1` for v1.1 too); nil for anything else.
    public init?(named name: String) {
        guard let api = Self(rawValue: name) ?? (name == "v1" ? .v1 : nil) else { return nil }
        self = api
    }

    /// Whether searches can stream through filtered-stream rules set with the app's token.
    public var hasFilteredStreamRules: Bool { self == .v2 }

    /// How a user signs this API's requests, given both kinds of credential: OAuth 1.0a on
    /// v1.1, OAuth 2.0 on v2.
    public func userAuth(oauth1: OAuthCredentials, oauth2: OAuth2Session) -> TwitterAuth {
        switch self {
        case .v1: .user(oauth1)
        case .v2: .oauth2Session(oauth2)
        }
    }
}
