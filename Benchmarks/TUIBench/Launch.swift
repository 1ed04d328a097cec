import CMallocInfo
import Foundation
import LinnetTestSupport
import Timeline
import TwitterAPI

/// Launch to first frame with 100k and with a million cached tweets, against the same start
/// with no cache, in the same run.
func launchFigures() async throws {
    let dir = benchDirectory("linnet-tuibench")
    defer { try? FileManager.default.removeItem(at: dir) }
    for (count, name) in [(cachedTweets, "100k"), (1_000_000, "1m")] {
        let bytes = try await writeCache(count, to: dir)
        // The store that wrote it is gone; its memory goes back too, or every fork below would
        // copy its page tables (tens of milliseconds at a million tweets) and count them.
        _ = cmi_trim()
        // The frame is there when the newest cached post's author is (not only the status bar).
        let line = Recorded.lines[(count - 1) % Recorded.lines.count]
        let newest = (try? V1Decoder().streamMessage(from: line)).flatMap { m -> String? in
            if case .tweet(let t) = m { "@" + t.user.screenName } else { nil }
        }
        var warm: [Double] = []
        var cold: [Double] = []
        for _ in 0..<5 {
            if let t = onPty(["launch"], keys: [], marker: "@" + account).firstMarker { cold.append(t) }
            if let t = onPty(["launch", dir.path, String(count)], keys: [], marker: newest ?? "@" + account).firstMarker { warm.append(t) }
        }
        let w = warm.sorted()[warm.count / 2]
        let e = cold.sorted()[cold.count / 2]
        print(
            "launch to first frame (median of 5): \(String(format: "%.1f", w * 1000)) ms with \(name) cached tweets, \(String(format: "%.1f", e * 1000)) ms with none"
        )
        bench("tui_launch_first_frame_\(name)_cached_ms", w * 1000, "ms", decimals: 1, goal: .atMost(50))
        print("bench: tui_launch_first_frame_empty_\(name)_run_ms \(String(format: "%.1f", e * 1000)) ms")
        print("bench: tui_launch_cache_ratio_\(name) \(String(format: "%.2f", w / e)) x (to no cache, same run)")
        print("bench: tui_launch_cache_file_bytes_\(name) \(bytes) bytes")
        if let h = FileHandle(forReadingAtPath: TimelineCache(directory: dir).fileURL.path),
            let head = TimelineCache.headEnd([UInt8](h.readData(ofLength: 64)))
        {
            print("bench: tui_launch_cache_head_bytes_\(name) \(head) bytes (what the first frame reads)")
        }
    }
}

/// A cache of `count` tweets in home, as the last session left it; the file's bytes.
func writeCache(_ count: Int, to dir: URL) async throws -> Int {
    let cache = TimelineCache(directory: dir, keepPerTimeline: count)
    do {
        let store = TimelineStore(cap: count)
        await store.merge(page: makeTweets(count), into: .home, request: PageRequest(count: count))
        try cache.save(await store.snapshot())
    }
    let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: [.fileSizeKey])
    return try files.reduce(0) { $0 + (try $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) }
}

/// Instructions from `exec` to the first frame, counted by callgrind (steady where the
/// milliseconds over ssh move by a quarter from one run to the next): the demo, every thread
/// (the simulator's world is made beside the terminal's set-up), and `less` on a text, on a
/// pseudo-terminal of 160x50 each. The demo ends itself at its first frame
/// (`LINNET_EXIT_AFTER_FIRST_FRAME`); `less` is quit when its first line is shown.
func firstFrameInstructions(linnet: String, text: URL) {
    let dir = benchDirectory("linnet-firstcount")
    defer { try? FileManager.default.removeItem(at: dir) }
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let copy = dir.appendingPathComponent("linnet").path
    guard strippedCopy(of: linnet, to: copy),
        let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: FileManager.default.isExecutableFile)
    else {
        print("first frame: no valgrind or objcopy; no instruction count")
        return
    }
    var env = homeEnvironment(dir)
    env["SWIFT_DETERMINISTIC_HASHING"] = "1"
    env["LINNET_EXIT_AFTER_FIRST_FRAME"] = "1"
    // The count, or what went wrong, in words.
    func count(_ argv: [String], marker: String?) -> (Double?, String) {
        let out = dir.appendingPathComponent("callgrind.out").path
        try? FileManager.default.removeItem(atPath: out)
        let p = PtyProgram([valgrind, "--tool=callgrind", "--callgrind-out-file=\(out)"] + argv, environment: env)
        if let marker {
            guard p.waitFor(marker, seconds: 120) != nil else {
                p.stop(quit: Array("q".utf8))
                return (nil, "no first frame within 120 s")
            }
            p.drain(quiet: 500, most: 5000)
            p.send(Array("q".utf8))
        }
        // Read until it ends (valgrind runs it some fifty times slower); a count is kept only
        // from a run that ended well (the demo ends with 0 at its first frame).
        // By the clock: once the terminal's side is closed a drain returns at once, and a count
        // of drains would end in milliseconds while valgrind still writes its file.
        var status: Int32 = 0
        var ended = false
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(120) {
            if waitpid(p.pid, &status, WNOHANG) == p.pid {
                ended = true
                break
            }
            if p.drain(quiet: 100, most: 100).bytes == 0 { usleep(20_000) }
        }
        guard ended else {
            p.stop(quit: [])
            return (nil, "still running after \(Int(seconds(ContinuousClock.now - start))) s")
        }
        close(p.master)
        guard status == 0 else { return (nil, "ended with wait status \(status)") }
        return (callgrindTotal(out), "no totals in callgrind's file")
    }
    let firstLine = ((try? String(contentsOf: text, encoding: .utf8)) ?? "").prefix { $0 != "\n" }.prefix(12)
    let (demo, demoWhy) = count([copy, "demo", "--tweets-per-minute", "0"], marker: nil)
    let (less, lessWhy) = count(["less", text.path], marker: String(firstLine))
    guard let demo, let less else {
        let why = (demo == nil ? demoWhy : "counted", less == nil ? lessWhy : "counted")
        print("first frame: no instruction count (the demo: \(why.0); less: \(why.1))")
        return
    }
    print("bench: demo_first_frame_instructions \(Int(demo)) instructions (less: \(Int(less)))")
    print("bench: demo_first_frame_vs_less_instructions_ratio \(String(format: "%.1f", demo / less)) x")
}
