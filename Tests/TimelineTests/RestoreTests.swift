import Testing
import TwitterAPI

@testable import Timeline

/// Restoring a cache into a store that already holds tweets (the head, then the whole file, at
/// launch), against the rule written out here: each cached timeline's ids that the cache has
/// and were not deleted, newest first, once each; the cached tweet where both have one; the
/// store's own timelines and tweets otherwise left as they were.
@Suite struct RestoreTests {
    static let user = User(id: UserID(7), screenName: "ada", name: "Ada")

    static func tweet(_ id: UInt64, _ text: String) -> Tweet {
        Tweet(id: TweetID(id), createdAt: Int64(id), user: user, text: text)
    }

    /// How the cache was made: by Linnet (every tweet it holds named by a timeline, every id
    /// named held), larger or smaller than the store (the store's table or the cache's is
    /// kept) or into an empty one (the head at launch), or by hand (ids without tweets, tweets
    /// no timeline names).
    enum Made: CaseIterable { case byLinnetLarger, byLinnetSmaller, byLinnetIntoEmpty, byHand }

    @Test(arguments: Made.allCases, 0..<30)
    func restoredAsEachTweetStoredOnItsOwn(made: Made, seed: Int) async {
        var rng = Seeded(seed)
        // Half the seeds trim: timelines past a cap of 3 or 12, sharing tweets.
        let cap = [3, 12, 5000, 5000][rng.next(4)]
        let store = TimelineStore(cap: cap)
        var own: [TweetID: Tweet] = [:]
        // The store's own: some in home and mentions, a search only it has.
        for _ in 0..<(made == .byLinnetIntoEmpty ? 0 : 10 + rng.next(60)) {
            let t = Self.tweet(UInt64(1 + rng.next(200)), "own")
            let into: [TimelineID] = [[.home], [.mentions], [.home, .mentions], [.search("x")]][rng.next(4)]
            await store.add(t, to: into)
            own[t.id] = t
        }
        var deleted = Set<TweetID>()
        for _ in 0..<(made == .byLinnetIntoEmpty ? 0 : rng.next(6)) {
            let id = TweetID(UInt64(1 + rng.next(200)))
            await store.delete(id)
            deleted.insert(id)
        }
        let before = await store.snapshot()
        var views: [TimelineID: [TweetID]] = [:]
        var table = TweetTable()
        func cachedTweet(_ id: UInt64) { table[TweetID(id)] = Self.tweet(id, "cached") }
        switch made {
        case .byHand:
            // More tweets than the store holds, and views naming some it lacks, out of order
            // and twice.
            let most = min(200, before.tweets.count + 1 + rng.next(120))
            while table.count < most { cachedTweet(UInt64(1 + rng.next(200))) }
            for id in [TimelineID.home, .mentions] where rng.next(4) > 0 {
                views[id] = (0..<rng.next(80)).map { _ in TweetID(UInt64(1 + rng.next(210))) }
            }
        case .byLinnetLarger, .byLinnetSmaller, .byLinnetIntoEmpty:
            // Each view's ids and exactly their tweets, as the writer keeps them.
            let most = made == .byLinnetSmaller ? 1 + rng.next(before.tweets.count) : 1 + before.tweets.count + rng.next(60)
            while table.count < most {
                let id = UInt64(1 + rng.next(210))
                let into: [TimelineID] = [[.home], [.mentions], [.home, .mentions]][rng.next(3)]
                for v in into { views[v, default: []].append(TweetID(id)) }
                cachedTweet(id)
            }
            for (v, ids) in views { views[v] = Set(ids).sorted(by: >) }
        }
        var cachedViews: [TimelineID: TimelineView] = [:]
        for v in [TimelineID.home, .mentions] {
            guard let ids = views[v] else { continue }
            // The anchor anywhere (in a fixed order: the seed says where), so it also stops a trim.
            let anchor = ids.isEmpty ? nil : ids[rng.next(ids.count)]
            cachedViews[v] = TimelineView(ids: ids, gapsBelow: Set(ids.prefix(2)), readMarker: ids.last, anchor: anchor)
        }
        #expect((table.count > before.tweets.count) == (made != .byLinnetSmaller), "which table is kept, seed \(seed)")
        await store.restore(TimelineSnapshot(tweets: table, timelines: cachedViews))
        let after = await store.snapshot()

        for (id, view) in cachedViews {
            // Each id the cache holds and that was not deleted, newest first, once; then the
            // oldest past the cap trimmed, never the anchor or newer, the oldest kept a gap.
            var ascending = Array(Set(view.ids.filter { table[$0] != nil && !deleted.contains($0) })).sorted()
            var gaps = view.gapsBelow
            var drop = ascending.count - cap
            if let a = view.anchor, let i = ascending.firstIndex(of: a) { drop = min(drop, i) }
            if drop > 0 {
                ascending.removeFirst(drop)
                gaps = gaps.filter { $0 >= ascending[0] }.union([ascending[0]])
            }
            let got = after.timelines[id]
            #expect(got?.ids == ascending.reversed(), "\(id), seed \(seed)")
            #expect(got?.gapsBelow == gaps, "\(id)'s gaps, seed \(seed)")
            #expect(got?.readMarker == view.readMarker && got?.anchor == view.anchor, "\(id), seed \(seed)")
            for t in ascending { #expect(after.tweets[t] === table[t], "\(t) is the cached tweet, seed \(seed)") }
        }
        for (id, view) in before.timelines where cachedViews[id] == nil {
            #expect(after.timelines[id] == view, "\(id) untouched, seed \(seed)")
        }
        for (id, view) in after.timelines {
            for t in view.ids {
                // A file by hand may hold a tweet no view names; which copy is kept is then
                // not said. Linnet's own files have none.
                let either = after.tweets[t] === table[t] || after.tweets[t] === own[t]
                #expect(made == .byHand ? either : after.tweets[t] === (table[t] ?? own[t]), "\(t) in \(id), seed \(seed)")
            }
        }
        for id in deleted { #expect(after.tweets[id] == nil, "deleted \(id) came back, seed \(seed)") }
        guard made != .byHand else { return }
        // Nothing of the cache's stays that no timeline names (the trimmed let go).
        let named = Set(after.timelines.values.flatMap(\.ids))
        for (t, _) in after.tweets where !named.contains(t) {
            #expect(own[t] != nil && table[t] == nil, "\(t) kept, named by none, seed \(seed)")
        }
    }

    /// One timeline trims tweets the other keeps. Which is placed first follows the dictionary's
    /// order, fixed within a run: of the two cases, one places the trimming timeline first.
    @Test(arguments: [(TimelineID.home, TimelineID.mentions), (.mentions, .home)])
    func aTweetOneTimelineTrimsAndAnotherKeepsStays(trims: TimelineID, keeps: TimelineID) async {
        let store = TimelineStore(cap: 3)
        var table = TweetTable()
        for id in UInt64(1)...6 { table[TweetID(id)] = Self.tweet(id, "cached") }
        let all = (UInt64(1)...6).reversed().map { TweetID($0) }
        let views = [trims: TimelineView(ids: all), keeps: TimelineView(ids: Array(all.suffix(3)))]
        await store.restore(TimelineSnapshot(tweets: table, timelines: views))
        let after = await store.snapshot()
        #expect(after.timelines[trims]?.ids == Array(all.prefix(3)))
        #expect(after.timelines[trims]?.gapsBelow == [TweetID(4)])
        #expect(after.timelines[keeps]?.ids == Array(all.suffix(3)))
        for id in all { #expect(after.tweets[id] === table[id], "\(id)") }
        #expect(after.tweets.count == 6)
    }

    /// At launch: the head (each timeline's newest), then the whole file, into an empty store;
    /// the same as the whole file alone.
    @Test func theHeadThenTheWholeFile() async {
        var table = TweetTable()
        for id in UInt64(1)...40 { table[TweetID(id)] = Self.tweet(id, "cached") }
        let home = (UInt64(1)...40).reversed().map { TweetID($0) }
        let mentions = home.filter { $0.rawValue % 3 == 0 }
        let whole = [
            TimelineID.home: TimelineView(ids: home, gapsBelow: [TweetID(20)], readMarker: TweetID(35), anchor: TweetID(38)),
            .mentions: TimelineView(ids: mentions, readMarker: TweetID(30)),
        ]
        var headTable = TweetTable()
        var head: [TimelineID: TimelineView] = [:]
        for (id, v) in whole {
            let ids = Array(v.ids.prefix(5))
            for t in ids { headTable[t] = table[t] }
            head[id] = TimelineView(ids: ids, gapsBelow: [ids[4]], readMarker: v.readMarker, anchor: v.anchor)
        }
        let store = TimelineStore(cap: 10)
        await store.restore(TimelineSnapshot(tweets: headTable, timelines: head))
        await store.restore(TimelineSnapshot(tweets: table, timelines: whole))
        let after = await store.snapshot()
        // Home keeps its ten newest (the anchor, 38, is among them), the oldest kept a gap.
        #expect(after.timelines[.home]?.ids == Array(home.prefix(10)))
        #expect(after.timelines[.home]?.gapsBelow == [TweetID(31)])
        #expect(after.timelines[.home]?.readMarker == TweetID(35) && after.timelines[.home]?.anchor == TweetID(38))
        #expect(after.timelines[.mentions]?.ids == Array(mentions.prefix(10)))
        #expect(after.timelines[.mentions]?.gapsBelow == [TweetID(12)])
        let named = Set(home.prefix(10) + mentions.prefix(10))
        #expect(Set(after.tweets.map(\.key)) == named)
        for id in named { #expect(after.tweets[id] === table[id], "\(id)") }
    }
}

/// A small seeded generator (SplitMix64), so a failing seed can be run again.
struct Seeded {
    var state: UInt64
    init(_ seed: Int) { state = UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
}
