import CMallocInfo
import Foundation
import LinnetTestSupport
import Timeline
import TwitterAPI

/// Launch to first frame with 100k and with a million cached tweets, against the same start
/// with no cache, in the same run.
func launchFigures() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-tuibench-\(getpid())")
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
