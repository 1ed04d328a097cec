import TwitterAPI

/// One timeline as a snapshot shows it: ids newest first, where tweets may be missing, and the
/// reader's place.
public struct TimelineView: Sendable, Equatable {
    /// Ids held, newest first.
    public var ids: [TweetID] = []
    /// Ids below which tweets may be missing (a page did not reach what was already held).
    public var gapsBelow: Set<TweetID> = []
    /// The newest tweet the reader has seen.
    public var readMarker: TweetID?
    /// The tweet the reader is looking at; newer arrivals stay above it.
    public var anchor: TweetID?

    /// Tweets newer than the read marker (all of them before anything was read).
    public var unreadCount: Int {
        guard let r = readMarker else { return ids.count }
        return ids.prefix { $0 > r }.count
    }

    /// Tweets newer than the anchor: the "N new" above the reader.
    public var newAboveAnchor: Int {
        guard let a = anchor else { return 0 }
        return ids.prefix { $0 > a }.count
    }

    /// The oldest id held (for `max_id` paging).
    public var oldest: TweetID? { ids.last }
    /// The newest id held (for `since_id` polling).
    public var newest: TweetID? { ids.first }

    public init(ids: [TweetID] = [], gapsBelow: Set<TweetID> = [], readMarker: TweetID? = nil, anchor: TweetID? = nil) {
        self.ids = ids
        self.gapsBelow = gapsBelow
        self.readMarker = readMarker
        self.anchor = anchor
    }
}

/// An immutable picture of the store, cheap to hand to the UI: it shares storage with the
/// store until the store next changes.
public struct TimelineSnapshot: Sendable {
    public let version: UInt64
    /// Rises when the timelines or mutes change, not for the reader's place (anchor, read
    /// marker) or the mailbox: what is worked out from the posts (the filters' views) is kept
    /// while only those move.
    public let contentVersion: UInt64
    public let tweets: TweetTable
    public let timelines: [TimelineID: TimelineView]
    /// Accounts the reader muted on the server: their tweets stay held, panes hide them.
    public let mutedUsers: Set<UserID>
    /// The account's direct messages.
    public let mailbox: Mailbox

    public init(
        version: UInt64 = 0, tweets: TweetTable = TweetTable(), timelines: [TimelineID: TimelineView] = [:], mutedUsers: Set<UserID> = [],
        mailbox: Mailbox = Mailbox(), contentVersion: UInt64? = nil
    ) {
        self.version = version
        self.contentVersion = contentVersion ?? version
        self.tweets = tweets
        self.timelines = timelines
        self.mutedUsers = mutedUsers
        self.mailbox = mailbox
    }

    /// The same picture with another mailbox.
    public func with(mailbox: Mailbox) -> TimelineSnapshot {
        TimelineSnapshot(
            version: version, tweets: tweets, timelines: timelines, mutedUsers: mutedUsers, mailbox: mailbox, contentVersion: contentVersion
        )
    }

    /// The tweets of a timeline, newest first.
    public func tweets(in id: TimelineID) -> [Tweet] {
        (timelines[id]?.ids ?? []).compactMap { tweets[$0] }
    }
}
