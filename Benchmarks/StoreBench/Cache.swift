import Foundation
import LinnetTestSupport
import Timeline
import TwitterAPI

/// Saving and loading the cache: 10k tweets, then 100k whole and its first-frame head.
func cacheFigures(_ tweets: [Tweet]) async {
    let clock = ContinuousClock()
    // Cache of 10k tweets.
    let small = TimelineStore(cap: 10_000)
    await small.merge(page: Array(tweets.prefix(10_000)), into: .home, request: PageRequest(count: 10_000))
    let dir = benchDirectory("linnet-storebench")
    defer { if ProcessInfo.processInfo.environment["KEEP"] == nil { try? FileManager.default.removeItem(at: dir) } }
    let cache = TimelineCache(directory: dir, keepPerTimeline: 10_000)
    let w0 = clock.now
    try? cache.save(await small.snapshot())
    print("bench: cache_save_10k_ms \(String(format: "%.1f", seconds(clock.now - w0) * 1000)) ms")
    let size = (try? FileManager.default.attributesOfItem(atPath: cache.fileURL.path)[.size] as? Int) ?? 0
    print("bench: cache_file_bytes_10k \(size) bytes")
    let l0 = clock.now
    guard case .loaded(let loaded) = cache.load() else {
        print("cache did not load")
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
    let bigSize = (try? FileManager.default.attributesOfItem(atPath: bigCache.fileURL.path)[.size] as? Int) ?? 0
    print("bench: cache_file_bytes_100k \(bigSize) bytes")
    var loadAll = Double.infinity
    var loadHead = Double.infinity
    // Each store is freed after its clock stops: freeing is not loading.
    for _ in 0..<3 {
        let a0 = clock.now
        let whole = TimelineStore(cap: 100_000)
        if case .loaded(let all) = bigCache.load() { await whole.restore(all) }
        loadAll = min(loadAll, seconds(clock.now - a0))
        let h0 = clock.now
        let head = TimelineStore(cap: 100_000)
        if case .loaded(let first) = bigCache.load(headOnly: true) { await head.restore(first) }
        loadHead = min(loadHead, seconds(clock.now - h0))
        withExtendedLifetime((whole, head)) {}
    }
    bench("cache_load_100k_ms", loadAll * 1000, "ms", decimals: 1, goal: .atMost(150))
    bench("cache_load_100k_first_frame_head_ms", loadHead * 1000, "ms", decimals: 1)
    // The steady companion of the time above, which this machine's moods moved by a third.
    if let perLoad = instructionsPerItem(executable: CommandLine.arguments[0], arguments: ["--count", "load"], n: 1) {
        bench("cache_load_instructions_per_tweet", perLoad / Double(countedTweets), "instructions")
    }
}

/// Tweets in the cache whose loading callgrind counts.
let countedTweets = 5_000

/// Saves `tweets` as a cache, then loads and restores it `times` times.
func countedLoads(_ tweets: [Tweet], times: Int) async {
    let dir = benchDirectory("linnet-storecount")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = TimelineStore(cap: tweets.count)
    await store.merge(page: tweets, into: .home, request: PageRequest(count: tweets.count))
    let cache = TimelineCache(directory: dir, keepPerTimeline: tweets.count)
    try? cache.save(await store.snapshot())
    for _ in 0..<times {
        let whole = TimelineStore(cap: tweets.count)
        guard case .loaded(let all) = cache.load() else { fatalError("the counted cache did not load") }
        await whole.restore(all)
        let held = await whole.snapshot().timelines[.home]?.ids.count
        precondition(held == tweets.count, "the counted cache restored \(held ?? 0) tweets")
    }
}
