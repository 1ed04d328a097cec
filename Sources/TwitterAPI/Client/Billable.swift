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
}
