import Foundation
import TOMLKit
import TweetText

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

/// A TOML file parsed for Linnet's settings (themes, config, accounts): syntax errors carry
/// TOMLKit's line, and a wrong value is pinned to the line where its key is written.
public struct TOMLFile {
    public let table: TOMLTable
    public let file: String
    private let lines: [String]

    public init(_ text: String, file: String) throws(FileProblem) {
        try Self.checkTableHeaders(text, file: file)
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw FileProblem(file: file, line: Int(e.source.begin.line), reason: e.description)
        } catch {
            throw FileProblem(file: file, line: nil, reason: "\(error)")
        }
        self.file = file
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// TOMLKit's parser (toml++) stops the whole program on an assertion when a table header's
    /// name starts with a character no key may start with (`[!keys]`, `[.a]`), which a typo in
    /// config.toml can do. Such a line is refused here first, in words (a line that starts
    /// with `[` is a table header to that parser, even inside an array).
    static func checkTableHeaders(_ text: String, file: String) throws(FileProblem) {
        // Bytes, not Characters: "\r\n" is one Character and would hide the line break. The
        // parser skips a byte-order mark before the first line, so this does too.
        var bytes = Substring(text).utf8[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        for (n, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            var rest = line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            guard rest.first == 0x5B else { continue }  // [
            rest = rest.dropFirst()
            if rest.first == 0x5B { rest = rest.dropFirst() }
            rest = rest.drop { $0 == 0x20 || $0 == 0x09 }
            let c = rest.first ?? 0x0A
            let allowed =
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == 0x5F || c == 0x2D || c == 0x22 || c == 0x27 || c == 0x5D
            if !allowed {
                let found =
                    c == 0x0A || c == 0x0D
                    ? "the end of the line" : c < 0x20 || c >= 0x7F ? "byte \(c)" : "\"\(Character(Unicode.Scalar(c)))\""
                throw FileProblem(
                    file: file, line: n + 1, reason: "a table name must start with a letter, a digit, _ or -, or be quoted (found \(found))"
                )
            }
        }
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
