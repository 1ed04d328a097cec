import Bedrock
import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// A settings file that could not be used: which file, which line when known, and why.
public struct FileProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var reason: String
    public init(file: String, line: Int?, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }
    public var description: String { Sanitizer.visible("\(file)\(line.map { ":\($0)" } ?? ""): \(reason)") }
}

/// A TOML file parsed for Linnet's settings (themes, config, accounts) by `TOMLParser`: syntax
/// errors carry their line, and a wrong value is pinned to the line where its key is written.
public struct TOMLFile {
    public let table: TOMLTable
    public let file: String
    private let lines: [String]

    public init(_ text: String, file: String) throws(FileProblem) {
        do {
            table = try TOMLParser.parse(text)
        } catch {
            throw FileProblem(file: file, line: error.line, reason: error.reason)
        }
        self.file = file
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmed() }
    }

    /// The first line that sets `key` (bare or quoted) or opens the table `[key]`.
    public func line(of key: String) -> Int? {
        lines.firstIndex { $0.hasPrefix(key + " ") || $0.hasPrefix(key + "=") || $0.hasPrefix("\"\(key)\"") || $0 == "[\(key)]" }.map {
            $0 + 1
        }
    }

    /// A problem with the value of `key`.
    public func problem(_ key: String, _ reason: String) -> FileProblem { FileProblem(file: file, line: line(of: key), reason: reason) }
}
