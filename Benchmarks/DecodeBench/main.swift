import CMallocInfo
// Decoding speed and retained memory of stream tweets, against CPython's json.loads on the
// same bytes. Prints `bench: <name> <value> <unit>` lines.
import Foundation
import LinnetTestSupport
import Spawn
import TwitterAPI

let target = 100_000
let data = try Fixtures.data("api/streaming/lines.json")
let lines = data.split(separator: UInt8(ascii: "\n")).filter { !$0.isEmpty }.map { Data($0) }
let rounds = (target + lines.count - 1) / lines.count
let messages = rounds * lines.count
let bytesPerRound = lines.reduce(0) { $0 + $1.count }
let totalBytes = bytesPerRound * rounds

func decodeAll(keep: Bool) throws -> (Duration, [Tweet]) {
    let decoder = V1Decoder()
    var kept: [Tweet] = []
    if keep { kept.reserveCapacity(messages) }
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<rounds {
        for line in lines {
            if case .tweet(let t) = try decoder.streamMessage(from: line), keep { kept.append(t) }
        }
    }
    return (clock.now - start, kept)
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

// Warm up, then take the best of three.
_ = try decodeAll(keep: false)
var best = Double.infinity
for _ in 0..<3 { best = min(best, seconds(try decodeAll(keep: false).0)) }
let tweetsPerSecond = Double(messages) / best
let mbPerSecond = Double(totalBytes) / best / 1e6
print("decoded \(messages) stream tweets (\(totalBytes) bytes) in \(String(format: "%.3f", best)) s")
print("bench: decode_tweets_per_s \(Int(tweetsPerSecond)) tweets/s")
print("bench: decode_mb_per_s \(String(format: "%.1f", mbPerSecond)) MB/s")

// Retained memory: heap in use while all decoded tweets are alive, per tweet.
let before = cmi_heap_in_use()
let (_, kept) = try decodeAll(keep: true)
let after = cmi_heap_in_use()
let perTweet = Double(Int(after) - Int(before)) / Double(kept.count)
print("bench: retained_bytes_per_tweet \(Int(perTweet)) bytes")
withExtendedLifetime(kept) {}

// Baseline: CPython json.loads over the same lines, best of three.
let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-bench-\(getpid())")
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: dir) }
let linesFile = dir.appendingPathComponent("lines.json")
try data.write(to: linesFile)
let script = """
    import json, sys, time
    lines = [l for l in open(sys.argv[1], 'rb').read().split(b'\\n') if l]
    rounds = int(sys.argv[2])
    best = float('inf')
    for _ in range(4):
        t = time.perf_counter()
        for _ in range(rounds):
            for l in lines:
                json.loads(l)
        best = min(best, time.perf_counter() - t)
    print(best)
    """
let python = try ChildProcess.run("python3", ["-c", script, linesFile.path, String(rounds)], stderr: .inherit)
if python.status == 0, let pySeconds = Double(python.text.trimmingCharacters(in: .whitespacesAndNewlines)) {
    let pyRate = Double(messages) / pySeconds
    print("bench: python_json_loads_tweets_per_s \(Int(pyRate)) tweets/s")
    print("bench: decode_vs_json_loads_ratio \(String(format: "%.2f", tweetsPerSecond / pyRate)) x")
} else {
    print("baseline: python3 json.loads could not run (exit \(python.status))")
}
