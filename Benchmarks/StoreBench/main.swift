// The timeline store at 100k tweets: merge throughput, snapshot cost, heap per stored tweet,
// and cache save/load of 10k tweets. Prints `bench: <name> <value> <unit>` lines.
import CMallocInfo
import Foundation
import LinnetCore
import LinnetTestSupport
import Timeline
import TwitterAPI

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

let lines = try Fixtures.data("api/streaming/lines.json").split(separator: UInt8(ascii: "\n")).filter { !$0.isEmpty }.map { Data($0) }
/// `n` distinct tweets: each recorded message decoded afresh (its own strings, users interned
/// as the app does), given a fresh id.
func makeTweets(_ n: Int, _ decoder: V1Decoder) -> [Tweet] {
    (0..<n).compactMap { i in
        guard case .tweet(let o)? = try? decoder.streamMessage(from: lines[i % lines.count]) else { return nil }
        return Tweet(
            id: TweetID(UInt64(1_000_000_000 + i)), createdAt: o.createdAt, user: o.user, text: o.text, displayRange: o.displayRange,
            entities: o.entities, inReplyToStatusID: o.inReplyToStatusID, inReplyToUserID: o.inReplyToUserID,
            inReplyToScreenName: o.inReplyToScreenName, quotedStatus: o.quotedStatus, retweetCount: o.retweetCount,
            favoriteCount: o.favoriteCount, lang: o.lang)
    }
}

let semaphore = DispatchSemaphore(value: 0)
Task.detached {
    let n = 100_000
    let decoder = V1Decoder()
    let heapBefore = cmi_heap_in_use()
    let tweets = makeTweets(n, decoder)
    let store = TimelineStore(cap: 200_000)
    let clock = ContinuousClock()
    // Stream-style arrivals, one at a time, into home (and every fifth into mentions too).
    let t0 = clock.now
    for (i, t) in tweets.enumerated() { await store.add(t, to: i % 5 == 0 ? [.home, .mentions] : [.home]) }
    let mergeSeconds = seconds(clock.now - t0)
    print("bench: store_merge_tweets_per_s \(Int(Double(n) / mergeSeconds)) tweets/s")
    let heapAfter = cmi_heap_in_use()
    // Tweets, users and the store's indexes, all alive (the local array holds only references).
    print("bench: store_heap_bytes_per_tweet_at_100k \((Int(heapAfter) - Int(heapBefore)) / n) bytes")

    // Taking a snapshot, and the first change after one (which copies what it shares: one
    // shard of the tweet table, the changed timeline's views), against a change with no
    // snapshot outstanding.
    let proto = makeTweets(1, decoder)[0]
    let extra = (0..<2).map { Tweet(id: TweetID(9_999_999_990 + UInt64($0)), createdAt: 0, user: proto.user, text: proto.text) }
    let b0 = clock.now
    await store.add(extra[0], to: [.home])
    let baseline = seconds(clock.now - b0)
    var snapshots: [TimelineSnapshot] = []
    let s0 = clock.now
    for _ in 0..<100 { snapshots.append(await store.snapshot()) }
    print("bench: store_snapshot_us \(Int(seconds(clock.now - s0) / 100 * 1e6)) us")
    let c0 = clock.now
    await store.add(extra[1], to: [.home])
    let afterSnapshot = seconds(clock.now - c0)
    print("bench: store_change_without_snapshot_ms \(String(format: "%.3f", baseline * 1000)) ms")
    print("bench: store_first_change_after_snapshot_ms \(String(format: "%.3f", afterSnapshot * 1000)) ms")
    print("bench: store_first_change_vs_plain_ratio \(String(format: "%.1f", afterSnapshot / baseline)) x")
    withExtendedLifetime(snapshots) {}

    // Cache of 10k tweets.
    let small = TimelineStore()
    await small.merge(page: Array(tweets.prefix(10_000)), into: .home, request: PageRequest(count: 10_000))
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-storebench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let cache = TimelineCache(directory: dir, keepPerTimeline: 10_000)
    let w0 = clock.now
    try? cache.save(await small.snapshot())
    print("bench: cache_save_10k_ms \(String(format: "%.1f", seconds(clock.now - w0) * 1000)) ms")
    let size = (try? FileManager.default.attributesOfItem(atPath: cache.fileURL.path)[.size] as? Int) ?? 0
    print("bench: cache_file_bytes_10k \(size) bytes")
    let l0 = clock.now
    guard case .loaded(let loaded) = cache.load() else {
        print("cache did not load")
        semaphore.signal()
        return
    }
    let restored = TimelineStore()
    await restored.restore(loaded)
    print("bench: cache_load_10k_ms \(String(format: "%.1f", seconds(clock.now - l0) * 1000)) ms")

    // A cache of 100k: all of it, and the head the first frame is drawn from.
    let big = TimelineStore(cap: 100_000)
    await big.merge(page: tweets, into: .home, request: PageRequest(count: tweets.count))
    let bigCache = TimelineCache(directory: dir.appendingPathComponent("100k"), keepPerTimeline: 100_000)
    try? bigCache.save(await big.snapshot())
    var loadAll = Double.infinity
    var loadHead = Double.infinity
    for _ in 0..<3 {
        let a0 = clock.now
        if case .loaded(let all) = bigCache.load() { await TimelineStore(cap: 100_000).restore(all) }
        loadAll = min(loadAll, seconds(clock.now - a0))
        let h0 = clock.now
        if case .loaded(let head) = bigCache.load(head: App.firstFrameHead) { await TimelineStore(cap: 100_000).restore(head) }
        loadHead = min(loadHead, seconds(clock.now - h0))
    }
    bench("cache_load_100k_ms", loadAll * 1000, "ms", decimals: 1, goal: .atMost(150))
    bench("cache_load_100k_first_frame_head_ms", loadHead * 1000, "ms", decimals: 1)

    // A million tweets held, and how the bytes are spent. Retweets and quotes keep the tweet
    // they carry, so a "tweet" here is what one stream message holds.
    let million = 1_000_000
    let full = await heapPerTweet(million, .full, lines: lines)
    bench("store_heap_bytes_per_tweet_at_1m", full, "bytes", goal: .atMost(600))
    let textOnly = await heapPerTweet(million, .textOnly, lines: lines)
    let bare = await heapPerTweet(million, .bare, lines: lines)
    bench("store_1m_entities_bytes_per_tweet", full - textOnly, "bytes")
    bench("store_1m_text_bytes_per_tweet", textOnly - bare, "bytes")
    bench("store_1m_objects_ids_and_index_bytes_per_tweet", bare, "bytes")
    let users = userBytes(lines: lines)
    print("users: \(users) bytes for the fixture's authors, once however many tweets they write")
    bench("store_1m_users_bytes_per_tweet", Double(users) / Double(million), "bytes", decimals: 2)
    semaphore.signal()
}
semaphore.wait()
