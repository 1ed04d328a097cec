import TwitterAPI

/// The single source of truth for tweets: merges REST pages and stream messages in any order,
/// keeps one object per tweet shared by every timeline, applies deletes everywhere (also to
/// tweets that arrive after their delete), marks and fills gaps, keeps the reader's place, caps
/// each timeline, and hands out snapshots.
public actor TimelineStore {
    /// Tweets kept per timeline before the oldest (below the reader) are evicted.
    public let cap: Int
    private var tweets: [TweetID: Tweet] = [:]
    private var references: [TweetID: Int] = [:]
    private var views: [TimelineID: TimelineView] = [:]
    private var deleted: Set<TweetID> = []
    private var users: [UserID: User] = [:]
    public private(set) var version: UInt64 = 0
    private var watchers: [Int: AsyncStream<UInt64>.Continuation] = [:]
    private var nextWatcher = 0

    public init(cap: Int = 5000) { self.cap = max(1, cap) }

    // MARK: - Reading

    public func snapshot() -> TimelineSnapshot {
        TimelineSnapshot(version: version, tweets: tweets, timelines: views)
    }

    public func view(_ id: TimelineID) -> TimelineView { views[id] ?? TimelineView() }

    /// Versions as the store changes. A burst of changes wakes a slow reader once: only the
    /// latest version waits in the buffer.
    public func changes() -> AsyncStream<UInt64> {
        let (stream, continuation) = AsyncStream<UInt64>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = nextWatcher
        nextWatcher += 1
        watchers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.stopWatching(id) } }
        return stream
    }

    private func stopWatching(_ id: Int) { watchers[id] = nil }

    private func changed() {
        version += 1
        for c in watchers.values { c.yield(version) }
    }

    // MARK: - Merging

    /// Adds a REST page. A page fetched with `since_id` that came back full may not have reached
    /// the tweets already held: the store marks a gap below its oldest tweet. A page fetched
    /// with `max_id` fills the gap it was asked for.
    public func merge(page: [Tweet], into id: TimelineID, request: PageRequest) {
        var view = views[id] ?? TimelineView()
        let heldBefore = Set(view.ids)
        if let max = request.maxID, let filled = view.gapsBelow.filter({ $0 > max }).min() {
            view.gapsBelow.remove(filled)
        }
        insert(page.filter { !deleted.contains($0.id) }, into: &view)
        // A full page that shares nothing with what was held may not have reached it.
        let pageIDs = page.map(\.id)
        if let oldest = pageIDs.min(), page.count >= request.count, !heldBefore.isEmpty,
            !pageIDs.contains(where: heldBefore.contains), view.ids.contains(where: { $0 < oldest })
        {
            view.gapsBelow.insert(oldest)
        }
        views[id] = view
        evict(id)
        changed()
    }

    /// Adds tweets from a stream (or a post of our own) to the given timelines.
    public func add(_ tweet: Tweet, to ids: [TimelineID]) {
        guard !deleted.contains(tweet.id) else { return }
        for id in ids {
            var view = views[id] ?? TimelineView()
            insert([tweet], into: &view)
            views[id] = view
            evict(id)
        }
        changed()
    }

    /// Removes a tweet everywhere, now and if it arrives later.
    public func delete(_ id: TweetID) {
        deleted.insert(id)
        var touched = false
        for (tid, var view) in views {
            guard let i = view.ids.firstIndex(of: id) else { continue }
            view.ids.remove(at: i)
            view.gapsBelow.remove(id)
            if view.anchor == id { view.anchor = i < view.ids.count ? view.ids[i] : view.ids.last }
            views[tid] = view
            touched = true
        }
        if tweets.removeValue(forKey: id) != nil || touched {
            references[id] = nil
            changed()
        }
    }

    /// Replaces a tweet's object (a like or retweet count changed) where it is held.
    public func update(_ tweet: Tweet) {
        guard tweets[tweet.id] != nil, !deleted.contains(tweet.id) else { return }
        tweets[tweet.id] = interned(tweet)
        changed()
    }

    private func insert(_ page: [Tweet], into view: inout TimelineView) {
        var set = Set(view.ids)
        var added = false
        for t in page where !set.contains(t.id) {
            set.insert(t.id)
            view.ids.append(t.id)
            references[t.id, default: 0] += 1
            added = true
        }
        for t in page { tweets[t.id] = interned(t) }
        if added { view.ids.sort(by: >) }
    }

    /// The same user object for every tweet by them, the newest details winning.
    private func interned(_ t: Tweet) -> Tweet {
        users[t.user.id] = t.user
        return t
    }

    // MARK: - Reading position

    public func markRead(_ id: TimelineID, upTo tweet: TweetID) {
        guard var view = views[id] else { return }
        if view.readMarker.map({ tweet > $0 }) ?? true {
            view.readMarker = tweet
            views[id] = view
            changed()
        }
    }

    public func setAnchor(_ id: TimelineID, at tweet: TweetID?) {
        var view = views[id] ?? TimelineView()
        view.anchor = tweet
        views[id] = view
        changed()
    }

    // MARK: - Bounds

    /// Drops the oldest tweets beyond the cap, never the anchor or anything newer.
    private func evict(_ id: TimelineID) {
        guard var view = views[id], view.ids.count > cap else { return }
        var keep = cap
        if let a = view.anchor, let i = view.ids.firstIndex(of: a) { keep = max(keep, i + 1) }
        guard view.ids.count > keep else { return }
        let dropped = view.ids[keep...]
        view.ids.removeLast(view.ids.count - keep)
        view.gapsBelow = view.gapsBelow.filter { $0 >= view.ids.last ?? TweetID(0) }
        // The oldest kept tweet may have more below it now: that is a gap to page into.
        if let last = view.ids.last { view.gapsBelow.insert(last) }
        views[id] = view
        for d in dropped {
            references[d, default: 1] -= 1
            if references[d] == 0 {
                references[d] = nil
                tweets[d] = nil
            }
        }
    }

    /// Starts from a cached snapshot (before any network call); what the network brings later
    /// merges into it.
    public func restore(_ cached: TimelineSnapshot) {
        for (id, view) in cached.timelines {
            var v = view
            v.ids = view.ids.filter { cached.tweets[$0] != nil && !deleted.contains($0) }
            for t in v.ids {
                if let tweet = cached.tweets[t] { tweets[t] = interned(tweet) }
                references[t, default: 0] += 1
            }
            views[id] = v
            evict(id)
        }
        changed()
    }

    /// Tweets held, over all timelines.
    public var tweetCount: Int { tweets.count }
}
