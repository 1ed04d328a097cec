/// A tweet as Linnet keeps it: the full text (never the 140-character cut when the full text
/// exists), its entities, and the tweets it retweets or quotes. Immutable and shared between
/// timelines.
public final class Tweet: Sendable, Equatable, CustomStringConvertible {
    public let id: TweetID
    /// Unix seconds.
    public let createdAt: Int64
    public let user: User
    /// The full text as Twitter delivered it (HTML-escaped; see `displayText`).
    public let text: String
    /// The part of `text` meant to be shown, in code points (hides leading reply mentions and a
    /// trailing media link); nil means all of it.
    public let displayRange: Range<Int>?
    public let entities: Entities
    public let inReplyToStatusID: TweetID?
    public let inReplyToUserID: UserID?
    public let inReplyToScreenName: String?
    /// For a retweet: the original tweet.
    public let retweetedStatus: Tweet?
    /// For a quote tweet: the quoted tweet, when Twitter included it.
    public let quotedStatus: Tweet?
    public let quotedStatusID: TweetID?
    public let retweetCount: Int
    public let favoriteCount: Int
    public let isFavorited: Bool
    public let isRetweeted: Bool
    /// True when only a compatibility-mode cut of the text was available.
    public let isTruncated: Bool
    public let lang: String?

    public init(
        id: TweetID, createdAt: Int64, user: User, text: String, displayRange: Range<Int>? = nil,
        entities: Entities = Entities(), inReplyToStatusID: TweetID? = nil, inReplyToUserID: UserID? = nil,
        inReplyToScreenName: String? = nil, retweetedStatus: Tweet? = nil, quotedStatus: Tweet? = nil,
        quotedStatusID: TweetID? = nil, retweetCount: Int = 0, favoriteCount: Int = 0, isFavorited: Bool = false,
        isRetweeted: Bool = false, isTruncated: Bool = false, lang: String? = nil
    ) {
        self.id = id
        self.createdAt = createdAt
        self.user = user
        self.text = text
        self.displayRange = displayRange
        self.entities = entities
        self.inReplyToStatusID = inReplyToStatusID
        self.inReplyToUserID = inReplyToUserID
        self.inReplyToScreenName = inReplyToScreenName
        self.retweetedStatus = retweetedStatus
        self.quotedStatus = quotedStatus
        self.quotedStatusID = quotedStatusID ?? quotedStatus?.id
        self.retweetCount = retweetCount
        self.favoriteCount = favoriteCount
        self.isFavorited = isFavorited
        self.isRetweeted = isRetweeted
        self.isTruncated = isTruncated
        self.lang = lang
    }

    /// The tweet whose content a reader wants: the original for a retweet, else this one.
    public var content: Tweet { retweetedStatus ?? self }

    public static func == (a: Tweet, b: Tweet) -> Bool {
        a === b
            || (a.id == b.id && a.createdAt == b.createdAt && a.user == b.user && a.text == b.text
                && a.displayRange == b.displayRange && a.entities == b.entities
                && a.inReplyToStatusID == b.inReplyToStatusID && a.inReplyToUserID == b.inReplyToUserID
                && a.inReplyToScreenName == b.inReplyToScreenName && a.retweetedStatus == b.retweetedStatus
                && a.quotedStatus == b.quotedStatus && a.quotedStatusID == b.quotedStatusID
                && a.retweetCount == b.retweetCount && a.favoriteCount == b.favoriteCount
                && a.isFavorited == b.isFavorited && a.isRetweeted == b.isRetweeted
                && a.isTruncated == b.isTruncated && a.lang == b.lang)
    }

    public var description: String { "Tweet \(id) by @\(user.screenName)" }
}
