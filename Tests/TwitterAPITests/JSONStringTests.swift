import Foundation
import Testing
import TwitterSimulator

@testable import TwitterAPI

/// Strings: escapes read, checked and copied, closing quotes found, texts made valid UTF-8.
@Suite struct JSONStringTests {
    func read<T>(_ json: String, _ body: (inout JSONReader) throws -> T) throws -> T { try JSONReaderTests().read(json, body) }

    /// Escapes in bytes skipped are checked as reading their strings checks them: a string
    /// alone (with the same words as reading it), inside an object or array, or as a key.
    @Test func escapesInSkippedBytesAreCheckedAsReadingChecksThem() throws {
        let cases: [(String, Bool)] = [
            (#""a\qb""#, false), (#""\u12G4""#, false), (#""\u12""#, false), (#""x\u""#, false), (#""\x""#, false),
            (#""\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00""#, true), (#""\"]\\""#, true),
        ]
        for (string, valid) in cases {
            let read = Result { try self.read(string) { try $0.readString() } }
            for json in [string, "[1," + string + "]", #"{"k":"# + string + "}", "{" + string + ":1}"] {
                let checked = Result {
                    try self.read(json) { r -> Int in
                        try r.skipValue()
                        try r.checkEscapes(from: 0)
                        return r.offset
                    }
                }
                switch checked {
                case .success(let end): #expect(valid && end == json.utf8.count, "\(json)")
                case .failure(let e as JSONError):
                    #expect(!valid && e.message.contains("escape"), "\(json): \(e.message)")
                    if json == string, case .failure(let r as JSONError) = read { #expect(e.message == r.message, "\(json)") }
                case .failure(let e): Issue.record("\(json): \(e)")
                }
            }
        }
    }

    /// `\\u` escapes read four digits at once: every value in either case gives its number,
    /// and any byte that is not a hex digit, at any of the four places, is refused.
    @Test func hexEscapesOfEveryValueAndEveryByte() {
        func word(_ s: [UInt8]) -> UInt32 { s.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) } }
        for v in 0..<0x10000 {
            let lower = Array(String(format: "%04x", v).utf8)
            let upper = Array(String(format: "%04X", v).utf8)
            #expect(JSONReader.hex4(word(lower)) == UInt32(v))
            #expect(JSONReader.hex4(word(upper)) == UInt32(v))
        }
        let hex = Set("0123456789abcdefABCDEF".utf8)
        for at in 0..<4 {
            for b in 0...255 {
                var digits = Array("a1F9".utf8)
                digits[at] = UInt8(b)
                #expect((JSONReader.hex4(word(digits)) != nil) == hex.contains(UInt8(b)), "byte \(b) at \(at)")
            }
        }
    }

    /// A text's bytes (`appendUTF8`) are those of the `String` read from it,
    /// which repairs the whole: with escapes, only the bytes copied as they stood can be
    /// invalid, and they are still checked. Pieces of every kind in seeded orders: ASCII runs
    /// short and past sixteen bytes, escapes, valid sequences, and invalid bytes.
    @Test func textBytesAreThoseOfTheStringWhateverTheEscapes() throws {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array(String(repeating: "b", count: 19).utf8), Array(#"\u00e9"#.utf8), Array(#"\n"#.utf8),
            Array(#"\ud83d\ude00"#.utf8), Array(#"\ud83d"#.utf8), Array("é日😀".utf8), [0xFF], [0xC3], [0xE3, 0x81], [0xED, 0xA0, 0x80],
            Array(String(repeating: "ü", count: 9).utf8),
        ]
        var random = SimRandom(state: 32)
        let arena = ByteBuffer(capacity: 16)
        for _ in 0..<2_000 {
            let body = (0..<Int.random(in: 1...6, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            let json = [UInt8(ascii: "\"")] + body + [UInt8(ascii: "\"")]
            let (string, range) = try json.withUnsafeBytes { raw in
                var a = JSONReader(raw)
                var b = JSONReader(raw)
                return (try a.readString(), try b.appendUTF8(to: arena))
            }
            let name = String(decoding: body, as: UTF8.self)
            #expect(range.map { Array(arena[$0]) } == Array(string.utf8), "\(name)")
        }
    }

    /// A string's closing quote, found sixteen bytes at a time with backslashes passed inside a
    /// block, is the one a byte-by-byte reading finds: quotes and backslashes at every place of
    /// a block and across blocks (an escape's second byte first in the next), runs of
    /// backslashes, strings that never close, from every start.
    @Test func theClosingQuoteIsTheOneReadByteByByte() {
        func model(_ b: [UInt8], _ from: Int) -> (at: Int, escaped: Bool)? {
            var i = from
            var escaped = false
            while i < b.count {
                if b[i] == UInt8(ascii: "\"") { return (i, escaped) }
                if b[i] == UInt8(ascii: "\\") {
                    escaped = true
                    i += 2
                } else {
                    i += 1
                }
            }
            return nil
        }
        func check(_ bytes: [UInt8], _ from: Int) {
            bytes.withUnsafeBytes { raw in
                let found = JSONReader(raw).closingQuote(from: from)
                let expected = model(bytes, from)
                #expect(
                    found?.at == expected?.at && found?.escaped == expected?.escaped,
                    "\(String(decoding: bytes, as: UTF8.self)) from \(from)")
            }
        }
        // Each pattern at every place of the first blocks.
        for pattern in [#"\"x""#, #"\\""#, #"\u0041""#, #"\\\"""#, #""\""#, #"\"#, #"\\\\\\\"\"""#] {
            for k in 0..<40 { check(Array((String(repeating: "a", count: k) + pattern).utf8), 0) }
        }
        var random = SimRandom(state: 31)
        let alphabet = Array("a\"\\u".utf8)
        for round in 0..<4_000 {
            let length = Int.random(in: 0...70, using: &random)
            // Mostly letters, so quotes and backslashes fall at every place, alone and in runs.
            let rare = round % 3 == 0 ? 2 : 8
            let bytes = (0..<length).map { _ in
                Int.random(in: 0..<rare, using: &random) == 0 ? alphabet.randomElement(using: &random)! : 0x61
            }
            let from = length == 0 ? 0 : Int.random(in: 0...length, using: &random)
            check(bytes, from)
        }
    }

    /// Escapes in a string read into a `String` and into bytes alike, whatever surrounds them.
    @Test func escapedStringsReadAlikeAsStringsAndBytes() throws {
        let cases: [(String, String)] = [
            (#""a\u00e9b""#, "aéb"), (#""\ud83d\ude00!""#, "😀!"), (#""\ud83dx""#, "\u{FFFD}x"), (#""\ude00""#, "\u{FFFD}"),
            (#""\ud83d\u0041""#, "\u{FFFD}A"), (#""tab\there\n\"q\"\\/\/""#, "tab\there\n\"q\"\\//"),
            (#""\u0627\u0644\u0639\u0631\u0628\u064a\u0629""#, "العربية"), (#""\u20ac""#, "€"),
        ]
        for (json, text) in cases {
            #expect(try read(json) { try $0.readString() } == text, "\(json)")
            let bytes = ByteBuffer(capacity: 16)
            bytes.append(1)
            bytes.append(2)
            _ = try read(json) { try $0.appendString(to: bytes) }
            #expect(Array(bytes.bytes) == [1, 2] + Array(text.utf8), "\(json)")
        }
        // Invalid UTF-8 beside an escape is repaired as in a string without one.
        let raw = try Data([0x22, 0x5C, 0x6E, 0xFF, 0x41, 0x22]).withUnsafeBytes { raw in
            var r = JSONReader(raw)
            return try r.readString()
        }
        #expect(raw == "\n\u{FFFD}A")
        // A lone high surrogate at the end, and one before a whole pair (read again after it).
        #expect(try read(#""\ud83d""#) { try $0.readString() } == "\u{FFFD}")
        #expect(try read(#""\ud83d\ud83d\ude00""#) { try $0.readString() } == "\u{FFFD}😀")
        // Bad escapes: at the end of the input, and with the closing quote among the digits.
        for bad in [#""\u12""#, #""\u12", 1"#, #""\u12G4""#, #""\x""#, #""\u""#, #""\u0041\u12G4""#, #""\u0041\u0627\u""#] {
            #expect(throws: JSONError.self) { try self.read(bad) { try $0.readString() } }
            let bytes = ByteBuffer()
            #expect(throws: JSONError.self) { try self.read(bad) { try $0.appendString(to: bytes) } }
        }
    }
}
