import Foundation
import Yams

/// Locates and reads the test fixtures kept in the repository (`Tests/Fixtures`).
public enum Fixtures {
    /// An error that names the fixture that could not be read.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The fixtures folder, found from this source file's place in the package
    /// (`Sources/LinnetTestSupport/Fixtures.swift` → `Tests/Fixtures`).
    public static func root() throws -> URL {
        let package = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = package.appendingPathComponent("Tests/Fixtures", isDirectory: true)
        guard FileManager.default.fileExists(atPath: dir.path) else {
            throw Missing(description: "the fixtures folder \(dir.path) is missing from the checkout")
        }
        return dir
    }

    /// URL of a fixture, given its path inside the fixtures folder.
    public static func url(_ path: String) throws -> URL {
        try root().appendingPathComponent(path)
    }

    /// The bytes of a fixture.
    public static func data(_ path: String) throws -> Data {
        let u = try url(path)
        guard let d = FileManager.default.contents(atPath: u.path) else {
            throw Missing(description: "fixture \(u.path) cannot be read")
        }
        return d
    }

    /// Every file in a fixture folder with the given extension, sorted by name.
    public static func files(in folder: String, withExtension ext: String) throws -> [URL] {
        let dir = try url(folder)
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == ext }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// A YAML fixture parsed into plain values (dictionaries, arrays, strings, numbers).
    public static func yaml(_ path: String) throws -> Any {
        let text = String(decoding: try data(path), as: UTF8.self)
        guard let value = try Yams.load(yaml: text) else {
            throw Missing(description: "fixture \(path) is empty")
        }
        return value
    }

    /// The cases of one section of a twitter-text conformance file.
    public static func conformanceCases(_ file: String, section: String) throws -> [[String: Any]] {
        guard let top = try yaml("twitter-text/\(file)") as? [String: Any],
            let tests = top["tests"] as? [String: Any],
            let cases = tests[section] as? [[String: Any]]
        else {
            throw Missing(description: "twitter-text/\(file) has no section \(section)")
        }
        return cases
    }
}
