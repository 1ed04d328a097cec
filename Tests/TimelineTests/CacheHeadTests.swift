import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// Format 6: the head a first frame reads holds each timeline's newest tweets and ids only, so
/// it is the same size whatever the file keeps; the rest brings the older ids back (#29).
@Suite struct CacheHeadTests {
    func tempDir() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("linnet-cachehead-\(UUID().uuidString)")
    }

    /// `count` tweets in home, newest id first from the same top, with a gap low down.
    func snapshot(_ count: Int) async throws -> TimelineSnapshot {
        let model = try V1Decoder().tweet(from: try Fixtures.data("api/models_status_quoted_tweet.json"))
        let tweets = (0..<count).map { i in
            Tweet(id: TweetID(UInt64(10_000_000 - i)), createdAt: model.createdAt - Int64(i), user: model.user, text: "post \(i)")
        }
        let store = TimelineStore(cap: count)
        await store.merge(page: tweets, into: .home, request: PageRequest(count: count))
        await store.setAnchor(.home, at: tweets[count - 5].id)
        await store.markRead(.home, upTo: tweets[3].id)
        return await store.snapshot()
    }

    @Test func theHeadDoesNotGrowWithTheFile() async throws {
        var heads: [Int] = []
        for count in [300, 3000] {
            let dir = tempDir()
            defer { try? FileManager.default.removeItem(at: dir) }
            let cache = TimelineCache(directory: dir, keepPerTimeline: count)
            let snap = try await snapshot(count)
            try cache.save(snap)
            let bytes = [UInt8](try Data(contentsOf: cache.fileURL))
            heads.append(try #require(TimelineCache.headEnd(bytes)))
            guard case .loaded(let head) = cache.load(headOnly: true), case .loaded(let all) = cache.load() else {
                Issue.record("the cache of \(count) did not load")
                continue
            }
            #expect(head.timelines[.home]?.ids == Array(snap.timelines[.home]!.ids.prefix(TimelineCache.headPerTimeline)))
            #expect(head.tweets.count == TimelineCache.headPerTimeline)
            // Whole again: every id in order, the reading state, the anchor deep down.
            #expect(all.timelines == snap.timelines)
            #expect(all.tweets.count == count)
        }
        #expect(heads[0] == heads[1], "head bytes for 300 and for 3000 tweets: \(heads)")
    }

    /// A file over the bound is not read whole, but its head still gives the first frame.
    @Test func aFileOverTheBoundStillShowsItsHead() async throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = TimelineCache(directory: dir, keepPerTimeline: 300)
        try cache.save(try await snapshot(300))
        // Sparse: the size is there, the disk is not used.
        #expect(truncate(cache.fileURL.path, off_t(TimelineCache.maxFileBytes + 1)) == 0)
        guard case .loaded(let head) = cache.load(headOnly: true) else {
            Issue.record("the head did not load")
            return
        }
        #expect(head.timelines[.home]?.ids.count == TimelineCache.headPerTimeline)
        guard case .refused(let why) = cache.load() else {
            Issue.record("a file over the bound was read whole")
            return
        }
        #expect(why.contains("more than the \(TimelineCache.maxFileBytes) Linnet reads"), "\(why)")
    }
}
