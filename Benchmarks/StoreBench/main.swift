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
    // `StoreBench --count load N`: a cache of `countedTweets` saved, then loaded and restored
    // N times, for callgrind to count (the loads' part is the difference between two N).
    if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--count", let times = Int(CommandLine.arguments[3]) {
        await countedLoads(makeTweets(countedTweets, decoder), times: times)
        semaphore.signal()
        return
    }
    // `StoreBench cache`: the cache figures alone (for a profiler).
    if CommandLine.arguments.dropFirst().first == "cache" {
        await cacheFigures(makeTweets(n, decoder))
        semaphore.signal()
        return
    }
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

    await cacheFigures(tweets)

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
