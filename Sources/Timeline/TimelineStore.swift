import Locking
import TwitterAPI

/// The single source of truth for tweets: merges REST pages and stream messages in any order,
/// keeps one object per tweet shared by every timeline, applies deletes everywhere (also to
/// tweets that arrive after their delete), marks and fills gaps, keeps the reader's place, caps
/// each timeline, and hands out snapshots.
public actor TimelineStore {
    /// Tweets kept per timeline before the oldest (below the reader) are evicted.
    public let cap: Int
    // Unchecked: only the actor touches them, one call at a time, and a checked access cost
    // about 100 instructions, six for each post a stream adds.
    @exclusivity(unchecked) var tweets: TweetTable
    @exclusivity(unchecked) var held: [TimelineID: Held] = [:]
    @exclusivity(unchecked) var deleted: Set<TweetID> = []
    @exclusivity(unchecked) public private(set) var version: UInt64 = 0
    /// `version` without the reader's place or the mailbox (see `TimelineSnapshot.contentVersion`).
    @exclusivity(unchecked) private var contentVersion: UInt64 = 0
    @exclusivity(unchecked) private var watchers: [Int: AsyncStream<UInt64>.Continuation] = [:]
    private var nextWatcher = 0

    public init(cap: Int = 5000) {
        self.cap = max(1, cap)
        tweets = TweetTable(minimumCapacity: Self.room(forCap: self.cap))
    }

    /// The tweet table's size ahead: one timeline at its cap (at most 20,000 posts: a larger
    /// cap grows as usual).
    static func room(forCap cap: Int) -> Int { min(cap, 20_000) }

    // MARK: - Reading

    /// An immutable picture of every timeline for the UI: ids, gaps, anchors and read markers,
    /// over a tweet table shared with the store (no copy; the store copies a shard only when it
    /// changes one that a snapshot still holds). `version` rises with every change.
    public func snapshot() -> TimelineSnapshot {
        let s = makeSnapshot()
        current.withLock { $0 = s }
        published = true
        return s
    }

    /// The last snapshot made, while nothing has changed since, from any thread: the reader's
    /// loop takes it without a hop to the store (two thread wake-ups a key).
    public nonisolated func currentSnapshot() -> TimelineSnapshot? { current.withLock { $0 } }

    private func makeSnapshot() -> TimelineSnapshot {
        TimelineSnapshot(
            version: version, tweets: tweets, timelines: Held.views(&held), mutedUsers: mutedUsers, mailbox: mailbox,
            contentVersion: contentVersion)
    }

    private nonisolated let current = Locked<TimelineSnapshot?>(nil)
    /// Whether `current` holds one (else a stream's post takes no lock).
    @exclusivity(unchecked) private var published = false

    /// The account's direct messages.
    public internal(set) var mailbox = Mailbox()

    /// Adds a page of messages (or one just sent); returns the new ones from other people.
    @discardableResult
    public func mergeMessages(_ messages: [DirectMessage], users: [User], me: UserID, older: String?? = nil, loaded: Bool = true)
        -> [DirectMessage]
    {
        mailbox.me = me
        let incoming = mailbox.merge(messages, users: users)
        if let older { mailbox.older = older }
        mailbox.loaded = mailbox.loaded || loaded
        changed(posts: false)
        return incoming
    }

    public func markConversationRead(_ id: String) {
        if mailbox.markRead(id) { changed(posts: false) }
    }

    /// The account's mutes on the server, as last read.
    public private(set) var mutedUsers: Set<UserID> = []

    public func setMutedUsers(_ users: Set<UserID>) {
        guard users != mutedUsers else { return }
        mutedUsers = users
        changed()
    }

    public func view(_ id: TimelineID) -> TimelineView { held[id]?.makeView() ?? TimelineView() }

    public func tweet(_ id: TweetID) -> Tweet? { tweets[id] }

    /// The newest id a timeline holds.
    public func newest(_ id: TimelineID) -> TweetID? { held[id]?.ascending.last }

    /// The id `depth` places below the newest held at or below `ceiling` (or the oldest held),
    /// going deeper only while `free` says a held tweet may be read again (on v2: read already
    /// today, so not billed again).
    public func floor(_ id: TimelineID, below ceiling: TweetID, depth: Int, free: (TweetID) -> Bool = { _ in true }) -> TweetID? {
        held[id]?.floor(below: ceiling, depth: depth, free: free)
    }

    /// Versions as the store changes (the reader's place moved by `setAnchor` raises the
    /// version but is not sent). A burst of changes wakes a slow reader once: only the latest
    /// version waits in the buffer.
    public func changes() -> AsyncStream<UInt64> {
        let (stream, continuation) = AsyncStream<UInt64>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = nextWatcher
        nextWatcher += 1
        watchers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.stopWatching(id) } }
        return stream
    }

    private func stopWatching(_ id: Int) { watchers[id] = nil }

    /// `posts`: whether the timelines or mutes changed, not only the place or the mailbox.
    func changed(posts: Bool = true) {
        version += 1
        if posts { contentVersion += 1 }
        if published {
            current.withLock { $0 = nil }
            published = false
        }
        if !watchers.isEmpty { for c in watchers.values { c.yield(version) } }
    }

    // MARK: - Merging

    /// Adds a REST page. A full page that shares nothing with what was held may not have reached
    /// it: the store marks a gap below its oldest tweet. A page fetched with `max_id` fills the
    /// gap it was asked for.
    public func merge(page: [Tweet], into id: TimelineID, request: PageRequest) {
        var h = take(id) ?? Held()
        let wasEmpty = h.ascending.isEmpty
        let overlaps = page.contains { h.contains($0.id) }
        if let max = request.maxID, let filled = h.gapsBelow.filter({ $0 > max }).min() {
            h.gapsBelow.remove(filled)
        }
        // An older version of an edited post is not shown: its newest version is.
        for t in page where !deleted.contains(t.id) && t.extras?.newestVersion == nil { store(t, in: &h) }
        if request.marksGaps, let oldest = page.map(\.id).min(), page.count >= request.count, !wasEmpty, !overlaps,
            let first = h.ascending.first, first < oldest
        {
            h.gapsBelow.insert(oldest)
        }
        h.view = nil
        held[id] = h
        evict(id)
        replaceOlderVersions(page)
        changed()
    }

    /// The newest version of an edited post replaces its older ones everywhere, now and if they
    /// arrive later.
    private func replaceOlderVersions(_ tweets: [Tweet]) {
        for t in tweets { for old in t.extras?.olderVersions ?? [] where !deleted.contains(old) { delete(old) } }
    }

    /// Adds a tweet from a stream (or a post of our own) to the given timelines.
    public func add(_ tweet: Tweet, to ids: [TimelineID]) {
        guard deleted.isEmpty || !deleted.contains(tweet.id), tweet.extras?.newestVersion == nil else { return }
        for id in ids {
            // Set for each timeline: trimming an earlier one may have let the post go.
            tweets[tweet.id] = tweet
            // Changed in place (one lookup, no copy of the id array); trimmed past a sixteenth.
            let count = held[id, default: Held()].adding(tweet.id)
            if count > cap + cap / 16 { evict(id) }
        }
        if tweet.extras?.olderVersions.isEmpty == false { replaceOlderVersions([tweet]) }
        changed()
    }

    /// A timeline taken out of the table to change: a copy left behind would share its id
    /// array, and the first write would copy all of it (a memmove per tweet at 100k).
    private func take(_ id: TimelineID) -> Held? { held.removeValue(forKey: id) }

    /// Drops the tweet object once no timeline in the table holds it (one taken out to be
    /// changed counts as not holding it). A few binary searches instead of a count per tweet.
    private func release(_ id: TweetID) {
        if !held.values.contains(where: { $0.contains(id) }) { tweets[id] = nil }
    }

    func store(_ t: Tweet, in h: inout Held) {
        _ = h.insert(t.id)
        tweets[t.id] = t
    }

    /// Removes a tweet everywhere, now and if it arrives later.
    public func delete(_ id: TweetID) {
        deleted.insert(id)
        var touched = false
        for tid in Array(held.keys) {
            guard let (i, found) = held[tid]?.position(id), found, var h = take(tid) else { continue }
            h.ascending.remove(at: i)
            h.gapsBelow.remove(id)
            // A deleted anchor moves to the next older tweet.
            if h.anchor == id { h.anchor = i > 0 ? h.ascending[i - 1] : h.ascending.first }
            h.view = nil
            held[tid] = h
            touched = true
        }
        if tweets.removeValue(forKey: id) != nil || touched {
            changed()
        }
    }

    /// Takes a tweet out of one timeline without a tombstone (it left that timeline, or a
    /// reconcile found it gone); the object goes when no timeline holds it.
    public func remove(_ id: TweetID, from tl: TimelineID) {
        guard unlink(id, from: tl) else { return }
        changed()
    }

    /// Takes a tweet out of every timeline without a tombstone, and says where it was, so an
    /// optimistic delete can be undone.
    public func removeEverywhere(_ id: TweetID) -> (tweet: Tweet, timelines: [TimelineID])? {
        guard let tweet = tweets[id] else { return nil }
        let places = held.keys.filter { held[$0]?.contains(id) == true }
        for tl in places { _ = unlink(id, from: tl) }
        tweets[id] = nil
        changed()
        return (tweet, places)
    }

    /// After a complete fetch of everything newer than `floor` up to `ceiling`: tweets held in
    /// that range and not among `present` are gone from the server's timeline.
    public func reconcile(_ tl: TimelineID, above floor: TweetID?, upTo ceiling: TweetID, present: Set<TweetID>) -> Int {
        guard let h = held[tl] else { return 0 }
        let gone = h.ascending.filter { id in id <= ceiling && (floor.map { id > $0 } ?? true) && !present.contains(id) }
        for id in gone { _ = unlink(id, from: tl) }
        if !gone.isEmpty { changed() }
        return gone.count
    }

    private func unlink(_ id: TweetID, from tl: TimelineID) -> Bool {
        guard let (i, found) = held[tl]?.position(id), found, var h = take(tl) else { return false }
        h.ascending.remove(at: i)
        h.gapsBelow.remove(id)
        if h.anchor == id { h.anchor = i > 0 ? h.ascending[i - 1] : h.ascending.first }
        h.view = nil
        held[tl] = h
        release(id)
        return true
    }

    /// Replaces a tweet's object (a like or retweet count changed) where it is held.
    public func update(_ tweet: Tweet) {
        guard tweets[tweet.id] != nil, !deleted.contains(tweet.id) else { return }
        tweets[tweet.id] = tweet
        changed()
    }

    /// A post's new state (a like, a retweet) everywhere it shows: the post held on its own and
    /// every retweet of it, so their cards show the same counts.
    public func updateContent(_ content: Tweet) {
        var touched = false
        var retweets: [Tweet] = []
        for (_, t) in tweets where t.retweetedStatus?.id == content.id { retweets.append(t.replacingContent(content)) }
        for t in retweets where !deleted.contains(t.id) {
            tweets[t.id] = t
            touched = true
        }
        // (A retweet's cut copy never replaces a whole post held on its own.)
        if tweets[content.id] != nil, !deleted.contains(content.id), !content.isTruncated {
            tweets[content.id] = content
            touched = true
        }
        if touched { changed() }
    }

    // MARK: - Reading position

    // The view made for the last snapshot keeps its ids: only the place changes (building
    // them again copied every id of the timeline, 800 KB at 100k, at each scroll).
    public func markRead(_ id: TimelineID, upTo tweet: TweetID) {
        guard let marker = held[id].map(\.readMarker), marker.map({ tweet > $0 }) ?? true else { return }
        held[id]?.readMarker = tweet
        held[id]?.view?.readMarker = tweet
        changed(posts: false)
    }

    /// Only the reader sets its place, after drawing it, and nothing it draws reads it back: a
    /// new version, but no wake-up (which drew the same frame again after every scroll).
    public func setAnchor(_ id: TimelineID, at tweet: TweetID?) {
        held[id, default: Held()].anchor = tweet
        held[id]?.view?.anchor = tweet
        version += 1
        // The reader's next snapshot, made here, off its loop.
        if published { current.withLock { $0 = makeSnapshot() } }
    }

    // MARK: - Bounds

    /// Drops the oldest tweets beyond the cap, never the anchor or anything newer; the oldest
    /// kept becomes a gap to page back into. (`add` calls it only once the cap is passed by a
    /// sixteenth: trimming after each post moved the whole id array every time.)
    func evict(_ id: TimelineID) {
        guard let count = held[id]?.ascending.count, count > cap else { return }
        var drop = count - cap
        if let a = held[id]?.anchor, let (i, found) = held[id]?.position(a), found { drop = min(drop, i) }
        guard drop > 0, var h = take(id) else { return }
        for d in h.ascending[0..<drop] { release(d) }
        h.ascending.removeFirst(drop)
        if let oldest = h.ascending.first {
            h.gapsBelow = h.gapsBelow.filter { $0 >= oldest }
            h.gapsBelow.insert(oldest)
        }
        h.view = nil
        held[id] = h
    }

    /// Tweets held, over all timelines.
    public var tweetCount: Int { tweets.count }
}
