import Foundation
import Testing
import TwitterSimulator

@testable import TwitterAPI

/// Linnet's UTF-8 check against the standard library's (`String(validating:)`, Unicode's table
/// 3-7), and a v2 post's text kept as bytes the way a `String` of it would hold them.
struct UTF8CheckTests {
    private func linnet(_ bytes: [UInt8]) -> Bool { JSONReader.isValidUTF8(bytes) }
    private func swift(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// Every edge of the table: overlong forms, surrogates, past U+10FFFF, cut sequences, stray
    /// continuation bytes, each after a run of ASCII long enough for the sixteen-byte pass.
    @Test(
        arguments: [
            [0x41], [0xC2, 0x80], [0xC1, 0xBF], [0xC0, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xE3, 0x81], [0xF0, 0x9F, 0x90], [0xC3],
            [0xE3, 0x41, 0x81],
        ] as [[UInt8]])
    func edgesAgreeWithTheStandardLibrary(_ sequence: [UInt8]) {
        for prefix in [0, 5, 16, 37] {
            let bytes = Array(repeating: UInt8(ascii: "a"), count: prefix) + sequence + [UInt8(ascii: "z")]
            #expect(linnet(bytes) == swift(bytes), "\(prefix) ASCII bytes, then \(sequence)")
            #expect(linnet(Array(bytes.dropLast())) == swift(Array(bytes.dropLast())), "\(sequence) at the very end")
        }
    }

    /// Random bytes, mostly pieces of real UTF-8 with some cut, swapped or altered: both
    /// checks agree on every one (a fixed seed, so a failure can be run again).
    @Test func randomBytesAgreeWithTheStandardLibrary() {
        var rng = SimRandom(state: 0x5EED_0F_C0DE)
        let pieces: [[UInt8]] = ["a", "é", "日", "🐦", "\u{10FFFF}", "\u{7F}", "\u{800}", "\u{FFFF}"].map { Array($0.utf8) }
        var valid = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(rng.next() % 24) { bytes += pieces[Int(rng.next() % UInt64(pieces.count))] }
            if !bytes.isEmpty, rng.next() % 2 == 0 {
                bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            let a = linnet(bytes)
            #expect(a == swift(bytes), "\(bytes)")
            if a { valid += 1 }
        }
        #expect(valid > 5_000 && valid < 19_000, "both kinds were tried (\(valid) valid)")
    }

    /// A post's text and its note's with invalid bytes read as a `String` of them reads:
    /// each bad sequence one U+FFFD, and the entities' ranges counted on that text.
    @Test func invalidUTF8InAPostsTextIsReplaced() throws {
        var json = Data(#"{"data":{"id":"9","text":"a"#.utf8)
        json += [0xED, 0xA0, 0x80, 0x20]
        json += Data(#"@cd","entities":{"mentions":[{"start":5,"end":8,"username":"cd"}]},"note_tweet":{"text":"#.utf8)
        json += Data(#""long "#.utf8) + [0xC0, 0x80] + Data(#" text""#.utf8)
        json += Data(#"}},"includes":{}}"#.utf8)
        let note = try #require(try V2Decoder().posts(from: json).tweets.first)
        #expect(note.text == "long \u{FFFD}\u{FFFD} text")
        #expect(note.text == String(decoding: [UInt8]("long ".utf8) + [0xC0, 0x80] + [UInt8](" text".utf8), as: UTF8.self))
        #expect(note.textBytes == Array(note.text.utf8), "the bytes kept are repaired, not as sent")

        var plain = Data(#"{"data":{"id":"9","text":"a"#.utf8)
        plain += [0xED, 0xA0, 0x80, 0x20]
        plain += Data(#"@cd","entities":{"mentions":[{"start":5,"end":8,"username":"cd"}]}}}"#.utf8)
        let t = try #require(try V2Decoder().posts(from: plain).tweets.first)
        #expect(t.text == "a\u{FFFD}\u{FFFD}\u{FFFD} @cd")
        #expect(t.entities.mentions.map(\.range) == [5..<8])
        #expect(t.textBytes == Array(t.text.utf8))
    }
}
