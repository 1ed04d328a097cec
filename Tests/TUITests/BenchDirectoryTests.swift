import Foundation
import LinnetTestSupport
import Testing

/// A benchmark's directory: those of runs whose process is gone are removed first; a running
/// process's stays, and so does this one's.
@Suite struct BenchDirectoryTests {
    @Test func leftoversOfDeadRunsGoOthersStay() throws {
        let prefix = "linnet-dirtest-\(UInt32.random(in: 0...UInt32.max))"
        let tmp = FileManager.default.temporaryDirectory
        // A process that has ended: its number names a leftover.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = tmp.appendingPathComponent("\(prefix)-\(ended.processIdentifier)")
        let living = tmp.appendingPathComponent("\(prefix)-1")  // init: always running
        // Not a process's number: a word, a sign (`kill` would ask about a group), zero.
        let others = ["notanumber", "-\(ended.processIdentifier)", "+\(ended.processIdentifier)", "0"].map {
            tmp.appendingPathComponent("\(prefix)-\($0)")
        }
        // This process's number from a run before it: gone too, so nothing stale is read.
        let reused = tmp.appendingPathComponent("\(prefix)-\(getpid())")
        let made = [dead, living, reused] + others
        defer { for d in made { try? FileManager.default.removeItem(at: d) } }
        for d in made { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try Data("x".utf8).write(to: dead.appendingPathComponent("cache"))

        let mine = benchDirectory(prefix)
        #expect(mine.lastPathComponent == "\(prefix)-\(getpid())")
        #expect(!FileManager.default.fileExists(atPath: dead.path), "a dead run's directory is removed")
        #expect(!FileManager.default.fileExists(atPath: reused.path), "one left under this process's number is removed")
        #expect(FileManager.default.fileExists(atPath: living.path), "a running process's directory stays")
        for d in others { #expect(FileManager.default.fileExists(atPath: d.path), "\(d.lastPathComponent) stays") }
    }
}
