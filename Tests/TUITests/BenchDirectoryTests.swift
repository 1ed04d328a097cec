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
        let other = tmp.appendingPathComponent("\(prefix)-notanumber")
        for d in [dead, living, other] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try Data("x".utf8).write(to: dead.appendingPathComponent("cache"))
        defer { for d in [dead, living, other] { try? FileManager.default.removeItem(at: d) } }

        let mine = benchDirectory(prefix)
        #expect(mine.lastPathComponent == "\(prefix)-\(getpid())")
        #expect(!FileManager.default.fileExists(atPath: dead.path), "a dead run's directory is removed")
        #expect(FileManager.default.fileExists(atPath: living.path), "a running process's directory stays")
        #expect(FileManager.default.fileExists(atPath: other.path), "a name without a process number stays")
    }
}
