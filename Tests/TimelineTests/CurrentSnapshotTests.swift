import Testing
import TwitterAPI

@testable import Timeline

/// The snapshot the reader takes without a hop to the store is the store's state: after any
/// change it is gone or made again, never an older picture.
@Suite struct CurrentSnapshotTests {
    static let ann = User(id: UserID(1), screenName: "ann", name: "Ann")
    static let bob = User(id: UserID(2), screenName: "bob", name: "Bob")

    static func tweet(_ id: UInt64, likes: Int = 0) -> Tweet {
        Tweet(id: TweetID(id), createdAt: 0, user: ann, text: "post \(id)", favoriteCount: likes)
    }

    /// What a snapshot shows, compared field by field (the table by the posts it holds).
    static func differences(_ a: TimelineSnapshot, _ b: TimelineSnapshot) -> [String] {
        var out: [String] = []
        if a.version != b.version { out.append("version \(a.version) against \(b.version)") }
        if a.contentVersion != b.contentVersion { out.append("content version") }
        if a.timelines != b.timelines { out.append("timelines \(a.timelines) against \(b.timelines)") }
        if a.mutedUsers != b.mutedUsers { out.append("mutes") }
        if a.mailbox != b.mailbox { out.append("mailbox") }
        if a.tweets.count != b.tweets.count { out.append("\(a.tweets.count) posts against \(b.tweets.count)") }
        for id in Set(b.timelines.values.flatMap(\.ids)) {
            let (x, y) = (a.tweets[id], b.tweets[id])
            if x?.text != y?.text || x?.favoriteCount != y?.favoriteCount
                || x?.retweetedStatus?.favoriteCount != y?.retweetedStatus?.favoriteCount
            {
                out.append("post \(id.rawValue)")
            }
        }
        return out
    }

    @Test func theCurrentSnapshotIsNeverOlderThanTheStore() async {
        var state: UInt64 = 20_261_128
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        let store = TimelineStore(cap: 40)
        #expect(store.currentSnapshot() == nil, "nothing handed out yet")
        let timelines: [TimelineID] = [.home, .mentions]
        var checked = 0
        var held = 0
        var saved: TimelineSnapshot?
        for step in 0..<3000 {
            let tl = timelines[next(2)]
            let id = UInt64(next(120) + 1)
            switch next(14) {
            case 0:
                await store.merge(
                    page: (0..<next(6)).map { _ in Self.tweet(UInt64(next(120) + 1)) }, into: tl, request: PageRequest(count: 3))
            case 1: await store.add(Self.tweet(id), to: [tl])
            case 2: await store.delete(TweetID(id))
            case 3: await store.remove(TweetID(id), from: tl)
            case 4: _ = await store.removeEverywhere(TweetID(id))
            case 5:
                let present = Set((0..<next(40)).map { _ in TweetID(UInt64(next(120) + 1)) })
                _ = await store.reconcile(tl, above: TweetID(id / 2), upTo: TweetID(id), present: present)
            case 6: await store.update(Self.tweet(id, likes: step))
            case 7:
                await store.add(
                    Tweet(id: TweetID(id + 1000), createdAt: 0, user: Self.bob, text: "RT", retweetedStatus: Self.tweet(id)), to: [tl])
                await store.updateContent(Self.tweet(id, likes: step))
            case 8: await store.markRead(tl, upTo: TweetID(id))
            case 9, 10: await store.setAnchor(tl, at: next(5) == 0 ? nil : TweetID(id))
            case 11: await store.setMutedUsers(next(2) == 0 ? [] : [UserID(UInt64(next(3)))])
            case 12:
                let m = DirectMessage(id: id, senderID: UserID(2), recipientID: UserID(1), text: "hi", createdAtMs: Int64(id) * 1000)
                await store.mergeMessages([m], users: [Self.bob], me: UserID(1))
                if next(2) == 0 { await store.markConversationRead("1-2") }
            default:
                if let s = saved, next(4) == 0 { await store.restore(s) } else { saved = await store.snapshot() }
            }
            if let current = store.currentSnapshot() {
                let fresh = await store.snapshot()
                let wrong = Self.differences(current, fresh)
                #expect(wrong.isEmpty, "step \(step): \(wrong)")
                checked += 1
            }
            // Handed out again at times, as the reader's loop does after a change.
            if next(2) == 0 {
                _ = await store.snapshot()
                held += 1
            }
        }
        // Most changes came after a snapshot was handed out, and some left one standing.
        #expect(held > 1000 && checked > 300, "handed out \(held), checked \(checked)")
    }

    /// The reader setting its place leaves a snapshot ready, with the place and the new version.
    @Test func settingThePlaceMakesTheSnapshotAgain() async {
        let store = TimelineStore()
        await store.merge(page: (1...5).map { Self.tweet($0) }, into: .home, request: PageRequest(count: 20))
        let before = await store.snapshot()
        await store.setAnchor(.home, at: TweetID(3))
        let current = store.currentSnapshot()
        #expect(current?.version == before.version + 1)
        #expect(current?.timelines[.home]?.anchor == TweetID(3))
        #expect(current?.timelines[.home]?.ids == before.timelines[.home]?.ids)
    }
}
