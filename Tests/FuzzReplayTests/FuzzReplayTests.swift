import Foundation
import FuzzHarnesses
import Testing

/// Every input kept in `Tests/Fuzz/<harness>/` (the seeds, and any crash `make fuzz` ever
/// found) runs through its harness on every test run, so a fixed crash stays fixed.
@Suite struct FuzzReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    @Test(arguments: Harness.allCases)
    func theCorpusReplaysWithoutACrash(_ harness: Harness) throws {
        let dir = Self.root.appendingPathComponent(harness.rawValue)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(!files.isEmpty, "no inputs in \(dir.path)")
        for f in files {
            let data = try #require(FileManager.default.contents(atPath: dir.appendingPathComponent(f).path))
            harness.run([UInt8](data))
        }
    }
}
