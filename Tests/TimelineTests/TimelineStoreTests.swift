import Testing
import TwitterAPI

@testable import Timeline

/// The store's rules, tested directly on values.
@Suite struct TimelineStoreTests {
    static let ann = User(id: UserID(1), screenName: "ann", name: "Ann")

    static func tweet(_ id: UInt64, _ text: String = "t") -> Tweet {
        Tweet(id: TweetID(id), createdAt: 0, user: ann, text: "\(text) \(id)")
    }

    static func page(_ ids: [UInt64]) -> [Tweet] { ids.map { tweet($0) } }

    /// The newest version of an edited post replaces the older ones, in every timeline, and an
    /// older version arriving later (a page, a stream) is not shown.
    @Test func editsReplaceTheirOlderVersions() async {
        let store = TimelineStore()
        await store.merge(page: Self.page([5, 10]), into: .home, request: PageRequest(count: 20))
        await store.add(Self.tweet(10), to: [.mentions])
        let newest = Tweet(id: TweetID(30), createdAt: 0, user: Self.ann, text: "fixed", extras: TweetExtras(olderVersions: [TweetID(10)]))
        await store.merge(page: [newest], into: .home, request: PageRequest(count: 20))
        #expect(await store.view(.home).ids == [TweetID(30), TweetID(5)])
        #expect(await store.view(.mentions).ids.isEmpty)
        let stale = Tweet(id: TweetID(10), createdAt: 0, user: Self.ann, text: "typo", extras: TweetExtras(newestVersion: TweetID(30)))
        await store.add(stale, to: [.home])
        let middle = Tweet(id: TweetID(20), createdAt: 0, user: Self.ann, text: "almost", extras: TweetExtras(newestVersion: TweetID(30)))
        await store.merge(page: [middle], into: .home, request: PageRequest(count: 20))
        #expect(await store.view(.home).ids == [TweetID(30), TweetID(5)])
    }

    /// A like on a retweet shows on the original held on its own too, and on every other
    /// retweet of it: their cards count the same.
    @Test func aPostsNewStateShowsEverywhereItIsHeld() async {
        let store = TimelineStore()
        let original = Tweet(id: TweetID(5), createdAt: 0, user: Self.ann, text: "original", retweetCount: 2, favoriteCount: 10)
        let bob = User(id: UserID(2), screenName: "bob", name: "Bob")
        let rt1 = Tweet(id: TweetID(8), createdAt: 0, user: bob, text: "RT", retweetedStatus: original)
        let rt2 = Tweet(id: TweetID(9), createdAt: 0, user: bob, text: "RT", retweetedStatus: original)
        await store.merge(page: [original, rt1, rt2], into: .home, request: PageRequest(count: 20))
        let liked = Tweet(
            id: TweetID(5), createdAt: 0, user: Self.ann, text: "original", retweetCount: 2, favoriteCount: 11, isFavorited: true)
        await store.updateContent(liked)
        for id in [5, 8, 9] as [UInt64] {
            let c = await store.tweet(TweetID(id))?.content
            #expect(c?.favoriteCount == 11 && c?.isFavorited == true, "tweet \(id): \(String(describing: c))")
        }
    }

    @Test func pagesInAnyOrderDeduplicateAndSortNewestFirst() async {
        let store = TimelineStore()
        await store.merge(page: Self.page([5, 4, 3]), into: .home, request: PageRequest(count: 20))
        await store.merge(page: Self.page([9, 8, 5]), into: .home, request: PageRequest(count: 20, sinceID: TweetID(5)))
        await store.add(Self.tweet(7), to: [.home, .mentions])
        await store.add(Self.tweet(7), to: [.home])
        let s = await store.snapshot()
        #expect(s.timelines[.home]?.ids == [9, 8, 7, 5, 4, 3].map { TweetID($0) })
        #expect(s.timelines[.mentions]?.ids == [TweetID(7)])
        #expect(s.tweets.count == 6, "one object per tweet across timelines")
    }

    @Test func deletesApplyEverywhereBeforeAndAfterTheTweet() async {
        let store = TimelineStore()
        await store.merge(page: Self.page([3, 2, 1]), into: .home, request: PageRequest(count: 20))
        await store.add(Self.tweet(2), to: [.mentions])
        await store.delete(TweetID(2))
        await store.delete(TweetID(10))
        await store.add(Self.tweet(10), to: [.home])
        await store.merge(page: Self.page([10, 3]), into: .home, request: PageRequest(count: 20))
        let s = await store.snapshot()
        #expect(s.timelines[.home]?.ids == [TweetID(3), TweetID(1)])
        #expect(s.timelines[.mentions]?.ids == [])
        #expect(s.tweets[TweetID(2)] == nil && s.tweets[TweetID(10)] == nil)
    }

    @Test func fullPageThatMissesHeldTweetsLeavesAGapThatOlderPagesFill() async {
        let store = TimelineStore()
        await store.merge(page: Self.page([10, 9]), into: .home, request: PageRequest(count: 2))
        // Reconnected after a while: a full page of newer tweets that does not reach 10.
        await store.merge(page: Self.page([30, 29]), into: .home, request: PageRequest(count: 2, sinceID: TweetID(10)))
        #expect(await store.view(.home).gapsBelow == [TweetID(29)])
        // Paging down from the gap: a short page reaches the held tweets and closes it.
        await store.merge(page: Self.page([28, 27]), into: .home, request: PageRequest(count: 5, maxID: TweetID(28)))
        #expect(await store.view(.home).gapsBelow.isEmpty)
        // A partial page after since_id is complete: no gap.
        await store.merge(page: Self.page([40]), into: .home, request: PageRequest(count: 2, sinceID: TweetID(30)))
        #expect(await store.view(.home).gapsBelow.isEmpty)
        #expect(await store.view(.home).ids.map(\.rawValue) == [40, 30, 29, 28, 27, 10, 9])
    }

    @Test func anchorKeepsThePlaceAndCountsNewAbove() async {
        let store = TimelineStore()
        await store.merge(page: Self.page([5, 4, 3]), into: .home, request: PageRequest(count: 20))
        await store.setAnchor(.home, at: TweetID(4))
        for id in 6...8 { await store.add(Self.tweet(UInt64(id)), to: [.home]) }
        let v = await store.view(.home)
        #expect(v.anchor == TweetID(4) && v.newAboveAnchor == 4)
        await store.delete(TweetID(4))
        #expect(await store.view(.home).anchor == TweetID(3), "a deleted anchor moves to the next older tweet")
    }

    @Test func unreadCountsFollowTheReadMarker() async {
        let store = TimelineStore()
        await store.merge(page: Self.page([5, 4, 3]), into: .mentions, request: PageRequest(count: 20))
        #expect(await store.view(.mentions).unreadCount == 3)
        await store.markRead(.mentions, upTo: TweetID(4))
        #expect(await store.view(.mentions).unreadCount == 1)
        await store.markRead(.mentions, upTo: TweetID(2))
        #expect(await store.view(.mentions).readMarker == TweetID(4), "the marker never moves back")
        await store.add(Self.tweet(9), to: [.mentions])
        #expect(await store.view(.mentions).unreadCount == 2)
    }

    @Test func capEvictsTheOldestBelowTheReaderOnly() async {
        let store = TimelineStore(cap: 5)
        await store.merge(page: Self.page(Array((1...8).reversed())), into: .home, request: PageRequest(count: 200))
        var v = await store.view(.home)
        #expect(v.ids.map(\.rawValue) == [8, 7, 6, 5, 4])
        #expect(v.gapsBelow == [TweetID(4)], "what was evicted can be paged back in")
        #expect(await store.tweetCount == 5)
        await store.setAnchor(.home, at: TweetID(4))
        for id in 9...12 { await store.add(Self.tweet(UInt64(id)), to: [.home]) }
        v = await store.view(.home)
        #expect(v.ids.last == TweetID(4), "the anchor and everything newer stay")
        // A tweet evicted from one timeline stays while another holds it.
        await store.add(Self.tweet(4), to: [.mentions])
        await store.setAnchor(.home, at: nil)
        await store.add(Self.tweet(13), to: [.home])
        #expect(await store.snapshot().tweets[TweetID(4)] != nil)
    }

    /// A post added to two timelines, the first of which trims it straight away (it is older
    /// than all it keeps), is still held, whole, by the second.
    @Test func aPostTrimmedFromOneTimelineStaysInTheNext() async {
        let store = TimelineStore(cap: 16)
        await store.merge(page: Self.page(Array((100...115).reversed())), into: .home, request: PageRequest(count: 200))
        await store.add(Self.tweet(116), to: [.home])
        #expect(await store.view(.home).ids.count == 17, "a stream trims past a sixteenth")
        await store.add(Self.tweet(50), to: [.home, .user("ann")])
        #expect(await !store.view(.home).ids.contains(TweetID(50)))
        #expect(await store.view(.user("ann")).ids == [TweetID(50)])
        #expect(await store.snapshot().tweets(in: .user("ann")).map(\.id) == [TweetID(50)])
    }

    @Test func snapshotsDoNotChangeAfterwards() async {
        let store = TimelineStore()
        await store.merge(page: Self.page([2, 1]), into: .home, request: PageRequest(count: 20))
        let before = await store.snapshot()
        await store.add(Self.tweet(3), to: [.home])
        await store.delete(TweetID(1))
        #expect(before.tweets(in: .home).map(\.id.rawValue) == [2, 1])
        let after = await store.snapshot()
        #expect(after.version > before.version)
        #expect(after.tweets(in: .home).map(\.id.rawValue) == [3, 2])
    }

    @Test func aBurstOfChangesWakesTheReaderFewTimes() async {
        let store = TimelineStore()
        let changes = await store.changes()
        for id in 1...1000 { await store.add(Self.tweet(UInt64(id)), to: [.home]) }
        var wakes = 0
        var last: UInt64 = 0
        for await v in changes {
            wakes += 1
            last = v
            break
        }
        #expect(wakes == 1 && last == 1000, "only the newest version waits for a slow reader")
    }

    @Test func reconcileDropsOnlyWhatTheServerNoLongerHasInRange() async {
        let store = TimelineStore()
        await store.merge(page: Self.page([9, 8, 7, 6, 5, 4, 3]), into: .home, request: PageRequest(count: 20))
        await store.add(Self.tweet(8), to: [.mentions])
        #expect(await store.floor(.home, below: TweetID(8), depth: 2) == TweetID(6))
        #expect(await store.floor(.home, below: TweetID(100), depth: 50) == TweetID(3))
        // A fetch of everything above 4 returned 9, 7, 5: 8 and 6 are gone from home.
        let n = await store.reconcile(.home, above: TweetID(4), upTo: TweetID(9), present: Set([9, 7, 5].map { TweetID($0) }))
        #expect(n == 2)
        #expect(await store.view(.home).ids == [9, 7, 5, 4, 3].map { TweetID($0) })
        // Not a delete: 8 stays in mentions and may come back to home.
        #expect(await store.view(.mentions).ids == [TweetID(8)])
        #expect(await store.tweet(TweetID(6)) == nil)
        await store.add(Self.tweet(6), to: [.home])
        #expect(await store.view(.home).ids.contains(TweetID(6)))
    }

    @Test func removeEverywhereCanBeUndone() async {
        let store = TimelineStore()
        await store.merge(page: Self.page([3, 2, 1]), into: .home, request: PageRequest(count: 20))
        await store.add(Self.tweet(2), to: [.user("ann")])
        guard let removed = await store.removeEverywhere(TweetID(2)) else {
            Issue.record("nothing removed")
            return
        }
        #expect(Set(removed.timelines) == [.home, .user("ann")])
        #expect(await store.view(.home).ids == [TweetID(3), TweetID(1)])
        await store.add(removed.tweet, to: removed.timelines)
        #expect(await store.view(.home).ids == [3, 2, 1].map { TweetID($0) })
        #expect(await store.view(.user("ann")).ids == [TweetID(2)])
    }
}
