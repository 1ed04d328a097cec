import Bedrock
import Foundation
import Testing

/// Bedrock stands in for the parts of Foundation the binary no longer links; each helper is
/// checked against the Foundation call it replaces, on the same seeded random texts.
@Suite struct BedrockTests {
    /// Texts built from the pieces where the two could differ: every kind of space and line end,
    /// CR LF, combining marks, emoji sequences, and the characters being searched for.
    static func texts(_ count: Int, seed: UInt64) -> [String] {
        let pieces = [
            " ", "\t", "\n", "\r", "\r\n", "\u{85}", "\u{A0}", "\u{2003}", "\u{3000}", "\u{2028}", "\u{2029}", "\u{200B}", "\u{FEFF}",
            "a", "Z", "é", "e\u{301}", "ß", "日本", "🏳️‍🌈", "👩🏽‍💻", "\\", "\"", "%", "ab", "b", "/", "~", "..", "x",
        ]
        var rng = seed
        func next() -> Int {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: rng >> 33)
        }
        return (0..<count).map { _ in (0..<(next() % 12)).map { _ in pieces[next() % pieces.count] }.joined() }
    }

    @Test func trimmingAsFoundationTrims() {
        for t in Self.texts(3000, seed: 7) {
            #expect(t.trimmed() == t.trimmingCharacters(in: .whitespaces), "\(Array(t.unicodeScalars))")
            #expect(t.trimmedLines() == t.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(t.unicodeScalars))")
            #expect(t.trimmedNewlines() == t.trimmingCharacters(in: .newlines), "\(Array(t.unicodeScalars))")
        }
    }

    @Test func replacingAndFindingAsFoundationDoes() {
        let targets = ["\n", "\r\n", "ab", "\\", "e", "\u{301}", "🏳️‍🌈", "\"", "x"]
        for (i, t) in Self.texts(3000, seed: 11).enumerated() {
            let target = targets[i % targets.count]
            #expect(
                t.replacingAll(target, with: "<>") == t.replacingOccurrences(of: target, with: "<>", options: .literal),
                "\(Array(t.unicodeScalars))")
            let mine = t.scalarRange(of: target).map { t.unicodeScalars.distance(from: t.startIndex, to: $0.lowerBound) }
            let theirs = t.range(of: target, options: .literal).map { t.unicodeScalars.distance(from: t.startIndex, to: $0.lowerBound) }
            #expect(mine == theirs, "\(Array(t.unicodeScalars)) / \(Array(target.unicodeScalars))")
        }
    }

    /// TweetLength counts NFC through the standard library's normaliser, not ICU's.
    @Test func nfcAsFoundationComposes() {
        let extra = ["e\u{301}\u{323}", "\u{1100}\u{1161}\u{11A8}", "A\u{30A}", "\u{212B}", "\u{FB2C}", "ḍ̇", "\u{0F73}", "Å"]
        for t in Self.texts(2000, seed: 3) + extra {
            #expect(
                String(decoding: t._nfcCodeUnits, as: UTF8.self) == t.precomposedStringWithCanonicalMapping, "\(Array(t.unicodeScalars))")
        }
    }

    @Test func numbersAsPrintfFormatsThem() {
        let values: [Double] = [0, 0.004, 0.005, 0.0049999, 1.005, 2.675, 12.5, 1e9, -3.14159, 0.1 + 0.2]
        for v in values {
            for f in ["%.1f", "%.2f", "%.3f", "$%.3f"] { #expect(cFormat(f, v) == String(format: f, v)) }
        }
        for n in [0, 7, 255, 4096, 65535] {
            for f in ["%02x", "%04X", "\\u%04x", "%04d"] { #expect(cFormat(f, n) == String(format: f, n)) }
        }
        #expect(cFormat("%04d-%02d-%02d", 2026, 11, 25) == "2026-11-25")
        // Past the first buffer, the whole text.
        #expect(cFormat("%0300d", 7) == String(format: "%0300d", 7))
    }

    @Test func pathsAsNSStringReadsThem() {
        for p in ["/a/b", "/a/b/", "a", "", "/", "~/x/y.png", "x//y", "/tmp/a b/ü.jpg"] {
            #expect(Path.lastComponent(p) == (p as NSString).lastPathComponent, "\(p)")
        }
        for (folder, name) in [("/a", "b"), ("/a/", "b"), ("a", "b.c"), ("/", "x")] {
            #expect(Path.join(folder, name) == (folder as NSString).appendingPathComponent(name))
        }
        #expect(Path.expandingTilde("~/x/y") == ("~/x/y" as NSString).expandingTildeInPath)
        #expect(Path.expandingTilde("/abs/~x") == "/abs/~x")
    }

    @Test func aStartedThreadRunsItsWork() async {
        let done = await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in startThread { c.resume(returning: true) } }
        #expect(done)
    }

    /// The environment read once is the one Foundation reads (nothing in Linnet changes it).
    @Test func theEnvironmentReadOnceIsTheProcesses() {
        #expect(ProcessEnvironment.values == ProcessInfo.processInfo.environment)
        #expect(ProcessEnvironment.values["PATH"] == getenv("PATH").map { String(cString: $0) })
    }
}
