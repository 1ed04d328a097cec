import Foundation
import LinnetCore
import Locking
import Spawn
import Testing
import Timeline
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// `kill -9` at any moment of a save: 50 times, a process saving the cache and the drafts in a
/// loop is killed at a varying point; every time, what is on disk loads whole and is the last
/// completed save or the one after it, never a mix and never nothing.
@Suite struct KillDuringSaveTests {
    static var saveLoop: String {
        // The helper is built beside the test bundle.
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let p = candidate.appendingPathComponent("SaveLoop").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/SaveLoop").path
    }

    @Test func fiftyKillsLeaveAValidCacheAndTheLatestDraft() async throws {
        let program = Self.saveLoop
        try #require(FileManager.default.isExecutableFile(atPath: program), "SaveLoop not built at \(program)")
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linnet-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var random = SystemRandomNumberGenerator()
        var survived = 0
        for attempt in 0..<50 {
            // Let it finish a few rounds (a varying number), then kill it at a varying moment
            // of the next one; the waiting on a thread of its own, off the task pool.
            let rounds = attempt % 4 + 1
            let pause = UInt32.random(in: 0...15_000, using: &random)
            let printed = try await Blocking.run {
                let child = try ChildProcess(program, [dir.path])
                var printed = ""
                while printed.split(separator: "\n").count < rounds {
                    guard let bytes = child.read(timeout: 10) else { break }
                    printed += String(decoding: bytes, as: UTF8.self)
                }
                usleep(pause)
                child.send(SIGKILL)
                _ = child.wait()
                while let bytes = child.read(timeout: 0), !bytes.isEmpty { printed += String(decoding: bytes, as: UTF8.self) }
                return printed
            }
            let done = printed.split(separator: "\n").compactMap { UInt64($0) }.max() ?? 0
            #expect(done >= UInt64(rounds), "the loop printed \(printed)")
            // The cache: a whole save, the last completed or the next.
            guard case .loaded(let snapshot) = TimelineCache(directory: dir.appendingPathComponent("cache")).load() else {
                Issue.record("attempt \(attempt): the cache did not load after kill -9")
                continue
            }
            let anchor = (snapshot.timelines[.home]?.anchor?.rawValue ?? 0) - 1001
            #expect(snapshot.timelines[.home]?.ids.count == 600)
            #expect(anchor == done % 600 || anchor == (done + 1) % 600, "attempt \(attempt): cache of round \(anchor), last done \(done)")
            // The drafts: readable, the last completed save or the next.
            let found = DraftStore(directory: dir.appendingPathComponent("drafts")).read()
            #expect(found.problem == nil)
            let text = found.drafts.first?.text ?? ""
            #expect(text == "draft \(done)" || text == "draft \(done + 1)", "attempt \(attempt): \(text), last done \(done)")
            survived += 1
        }
        #expect(survived == 50)
    }
}
