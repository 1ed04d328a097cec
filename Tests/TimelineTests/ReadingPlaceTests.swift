import Testing
import Timeline
import TwitterAPI

/// Moving the reader's place (the anchor a scroll sets, the read marker) changes only the place
/// in the timeline a snapshot shows: its ids are the last snapshot's, not built again.
@Suite struct ReadingPlaceTests {
    static let user = User(id: UserID(7), screenName: "ann", name: "Ann")

    static func store(_ count: Int) async -> (TimelineStore, [Tweet]) {
        let tweets = (0..<count).map { i in
            Tweet(id: TweetID(UInt64(5_000_000 - i)), createdAt: 1_700_000_000 - Int64(i), user: user, text: "post \(i)")
        }
        let store = TimelineStore(cap: count)
        await store.merge(page: tweets, into: .home, request: PageRequest(count: count))
        return (store, tweets)
    }

    static func storage(_ v: TimelineView?) -> UnsafeRawPointer? { v?.ids.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }

    @Test func theAnchorAndTheMarkerMoveWithoutBuildingTheIdsAgain() async throws {
        let (store, tweets) = await Self.store(1_000)
        let first = await store.snapshot()
        await store.setAnchor(.home, at: tweets[40].id)
        await store.markRead(.home, upTo: tweets[2].id)
        let moved = await store.snapshot()
        let view = try #require(moved.timelines[.home])
        #expect(moved.version > first.version)
        // The posts did not change: what is worked out from them alone may be kept. Nor do
        // they when the mailbox does.
        #expect(moved.contentVersion == first.contentVersion)
        await store.mergeMessages([], users: [], me: Self.user.id)
        let polled = await store.snapshot()
        #expect(polled.version > moved.version && polled.contentVersion == first.contentVersion)
        #expect(view.anchor == tweets[40].id && view.readMarker == tweets[2].id)
        #expect(view.newAboveAnchor == 40 && view.unreadCount == 2)
        #expect(view.ids == tweets.map(\.id))
        #expect(Self.storage(view) == Self.storage(first.timelines[.home]))
        // The earlier snapshot is as it was.
        #expect(first.timelines[.home]?.anchor == nil && first.timelines[.home]?.readMarker == nil)
    }

    @Test func aMarkerNeverMovesBackAndAnAnchorOnAnEmptyTimelineIsKept() async throws {
        let (store, tweets) = await Self.store(100)
        await store.markRead(.home, upTo: tweets[5].id)
        let version = await store.snapshot().version
        await store.markRead(.home, upTo: tweets[50].id)
        #expect(await store.snapshot().version == version)
        #expect(await store.snapshot().timelines[.home]?.readMarker == tweets[5].id)
        // A place set before the timeline holds anything is there once it does.
        await store.setAnchor(.mentions, at: tweets[3].id)
        #expect(await store.snapshot().timelines[.mentions]?.anchor == tweets[3].id)
        let before = await store.snapshot().contentVersion
        await store.merge(page: Array(tweets[0..<10]), into: .mentions, request: PageRequest(count: 10))
        #expect(await store.snapshot().contentVersion > before)
        let mentions = try #require(await store.snapshot().timelines[.mentions])
        #expect(mentions.anchor == tweets[3].id && mentions.ids == tweets[0..<10].map(\.id))
    }

    /// Whether a value waits in the stream now: the store yields inside its own calls, so one
    /// that was yielded is there before the call returns (the wait, long enough for a loaded
    /// machine to start the reading task, only ends the other case).
    static func woken(_ changes: AsyncStream<UInt64>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                var it = changes.makeAsyncIterator()
                return await it.next() != nil
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: 2_000_000_000)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// The reader sets its place after drawing it: that is a new version, not a wake-up (which
    /// drew the same frame again after each scroll). A new read marker does wake it: the tabs
    /// count what is unread.
    @Test func settingThePlaceWakesNoReader() async throws {
        let (store, tweets) = await Self.store(50)
        let before = await store.snapshot().version
        let watching = await store.changes()
        await store.setAnchor(.home, at: tweets[9].id)
        #expect(!(await Self.woken(watching)))
        let after = await store.snapshot()
        #expect(after.version > before && after.timelines[.home]?.anchor == tweets[9].id)
        let changes = await store.changes()
        await store.markRead(.home, upTo: tweets[1].id)
        #expect(await Self.woken(changes))
    }
}
