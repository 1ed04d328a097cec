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

    @Test(arguments: 0..<40)
    func restoredAsEachTweetStoredOnItsOwn(seed: Int) async {
        var rng = Seeded(seed)
        let store = TimelineStore()
        var own: [TweetID: Tweet] = [:]
        // The store's own: some in home and mentions, a search only it has.
        for _ in 0..<rng.next(60) {
            let t = Self.tweet(UInt64(1 + rng.next(200)), "own")
            let into: [TimelineID] = [[.home], [.mentions], [.home, .mentions], [.search("x")]][rng.next(4)]
            await store.add(t, to: into)
            own[t.id] = t
        }
        var deleted = Set<TweetID>()
        for _ in 0..<rng.next(6) {
            let id = TweetID(UInt64(1 + rng.next(200)))
            await store.delete(id)
            deleted.insert(id)
        }
        let before = await store.snapshot()
        // The cache: more tweets than the store holds (so its table is lent), views that name
        // some it lacks, out of order and twice (a damaged or hand-made file).
        var table = TweetTable()
        for _ in 0..<(before.tweets.count + 1 + rng.next(120)) {
            let t = Self.tweet(UInt64(1 + rng.next(200)), "cached")
            table[t.id] = t
        }
        var views: [TimelineID: TimelineView] = [:]
        for id in [TimelineID.home, .mentions] where rng.next(4) > 0 {
            var ids = (0..<rng.next(80)).map { _ in TweetID(UInt64(1 + rng.next(210))) }
            if rng.next(2) == 0 { ids.sort(by: >) }
            views[id] = TimelineView(ids: ids, gapsBelow: Set(ids.prefix(1)), readMarker: ids.last, anchor: ids.first)
        }
        let cached = TimelineSnapshot(tweets: table, timelines: views)
        await store.restore(cached)
        let after = await store.snapshot()

        for (id, view) in views {
            let expected = Array(Set(view.ids.filter { table[$0] != nil && !deleted.contains($0) })).sorted(by: >)
            #expect(after.timelines[id]?.ids == expected, "\(id), seed \(seed)")
            #expect(after.timelines[id]?.anchor == view.anchor)
            for t in expected { #expect(after.tweets[t] === table[t], "\(t) is the cached tweet") }
        }
        for (id, view) in before.timelines where views[id] == nil {
            #expect(after.timelines[id]?.ids == view.ids, "\(id) untouched, seed \(seed)")
            for t in view.ids { #expect(after.tweets[t] === (table[t] ?? own[t]), "\(t) in \(id), seed \(seed)") }
        }
        for id in deleted { #expect(after.tweets[id] == nil, "deleted \(id) came back, seed \(seed)") }
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
