import Foundation
import Glibc
import LinnetTestSupport
import Timeline
import TwitterAPI

/// Resident memory of this process, from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

final class SoakProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    private var finished = false
    var tweets: Int { lock.withLock { stored } }
    var done: Bool { lock.withLock { finished } }
    func add() { lock.withLock { stored += 1 } }
    func finish() { lock.withLock { finished = true } }
}

/// `count` new tweets from the simulator's firehose, `perSecond` a second, through libcurl, the
/// framer and the decoder into a store capped at 5,000 (as the app's home pane is); resident
/// memory sampled every `every` seconds. Prints the samples and the end against the level.
func memorySoak(base: String, count: Int, perSecond: Int, every: Double = 10) {
    let progress = SoakProgress()
    let cap = 5000
    Task.detached {
        let http = HTTPClient()
        let decoder = V1Decoder()
        let store = TimelineStore(cap: cap)
        var framer = StreamFramer(framing: .delimited)
        do {
            var request = HTTPRequest(
                method: "GET", url: base + "/_sim/firehose?distinct=1&count=\(count)&rate=\(perSecond)")
            request.receiveBufferBytes = 256 * 1024
            for try await part in http.stream(request) {
                guard case .bytes(let b) = part else { continue }
                for event in framer.feed(b) {
                    guard case .message(let m) = event, case .tweet(let t) = try decoder.streamMessage(bytes: m) else { continue }
                    await store.add(t, to: [.home])
                    progress.add()
                }
            }
        } catch {
            print("soak: the stream failed: \(error)")
        }
        let held = await store.tweetCount
        print("soak: the store holds \(held) tweets (cap \(cap), trimmed a sixteenth past it)")
        progress.finish()
    }
    var samples: [(seconds: Double, tweets: Int, rss: Int)] = []
    let start = Date()
    while !progress.done {
        Thread.sleep(forTimeInterval: 0.25)
        let t = Date().timeIntervalSince(start)
        if t >= Double(samples.count + 1) * every || progress.done {
            samples.append((t, progress.tweets, residentBytes()))
            let s = samples.last!
            print(
                "soak: \(String(format: "%6.1f", s.seconds)) s  \(s.tweets) tweets  RSS \(String(format: "%.1f", Double(s.rss) / 1e6)) MB")
        }
    }
    guard samples.count >= 4, let last = samples.last else {
        print("soak: too short to judge (\(samples.count) samples); raise SOAK_TWEETS or lower SOAK_RATE")
        return
    }
    // Levelled off: the highest sample in the second quarter, once the cap is long reached.
    let quarter = samples.count / 4
    let level = samples[quarter..<max(quarter + 1, samples.count / 2)].map(\.rss).max() ?? last.rss
    bench("soak_tweets", Double(last.tweets), "tweets", goal: .atLeast(Double(count)))
    bench("soak_seconds", last.seconds, "s", decimals: 1)
    bench("soak_rss_levelled_mb", Double(level) / 1e6, "MB", decimals: 1)
    bench("soak_rss_end_mb", Double(last.rss) / 1e6, "MB", decimals: 1)
    bench("soak_rss_end_vs_levelled_ratio", Double(last.rss) / Double(level), "x", decimals: 3, goal: .atMost(1.10))
}
