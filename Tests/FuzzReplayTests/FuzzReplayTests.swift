import Foundation
import FuzzHarnesses
import Locking
import Testing

/// Every input kept in `Tests/Fuzz/<harness>/` (the seeds, and any crash `make fuzz` ever
/// found) runs through its harness on every test run, so a fixed crash stays fixed.
@Suite struct FuzzReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// Each corpus on a thread of its own: replaying is seconds of work under a sanitizer, and on
    /// the task pool's few threads it would hold up every test that needs them (the simulators).
    @Test(arguments: Harness.allCases)
    func theCorpusReplaysWithoutACrash(_ harness: Harness) async throws {
        let dir = Self.root.appendingPathComponent(harness.rawValue)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(!files.isEmpty, "no inputs in \(dir.path)")
        let inputs = try files.map { f in try #require(FileManager.default.contents(atPath: dir.appendingPathComponent(f).path)) }
        let replayed = try await Blocking.run {
            for data in inputs { harness.run([UInt8](data)) }
            return inputs.count
        }
        #expect(replayed == files.count)
    }
}
