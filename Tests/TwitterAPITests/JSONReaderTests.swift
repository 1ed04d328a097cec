import Foundation
import Testing
import TwitterSimulator

@testable import TwitterAPI

@Suite struct JSONReaderTests {
    func read<T>(_ json: String, _ body: (inout JSONReader) throws -> T) throws -> T {
        try Data(json.utf8).withUnsafeBytes { raw in
            var r = JSONReader(raw)
            return try body(&r)
        }
    }

    @Test(arguments: [
        (#""plain""#, "plain"), (#""a\"b""#, "a\"b"), (#""a\\""#, "a\\"), (#""a\\\"b""#, "a\\\"b"),
        (#""\\\\""#, "\\\\"), (#""x\/y""#, "x/y"), (#""tab\tnl\n""#, "tab\tnl\n"), (#""\u00e9\u65e5""#, "é日"),
        (#""""#, ""), ("\"日本語 🐦\"", "日本語 🐦"),
    ])
    func strings(json: String, expected: String) throws {
        #expect(try read(json) { try $0.readString() } == expected)
        // Skipping must stop at the same place reading does.
        let skipped = try read(json + " ,") { r -> Int in
            try r.skipValue()
            return r.offset
        }
        #expect(skipped == json.utf8.count)
    }

    @Test func keysWithEscapesMatch() throws {
        let found = try read(#"{"id_\u0073tr":"1","x":2}"#) { r -> [String] in
            var keys: [String] = []
            try r.readObject { r, key in
                keys.append(key.equals("id_str") ? "matched" : key.string)
                try r.skipValue()
            }
            return keys
        }
        #expect(found == ["matched", "x"])
    }

    @Test func numbers() throws {
        #expect(try read("18446744073709551615") { try $0.readUInt64() } == UInt64.max)
        #expect(throws: JSONError.self) { try self.read("18446744073709551616") { try $0.readUInt64() } }
        #expect(try read("-9223372036854775808") { try $0.readInt64() } == Int64.min)
        #expect(try read("0.042") { try $0.readDouble() } == 0.042)
        #expect(throws: JSONError.self) { try self.read("1.5") { try $0.readInt64() } }
    }

    @Test func valueTreeRoundTrips() throws {
        let json = #"{"a":[1,2.5,-3e2,true,false,null],"b":{"c":"q\"\n☃"},"id":583754843887570945}"#
        let v = try JSONValue.parse(Data(json.utf8))
        #expect(v.serialized == json)
        #expect(try JSONValue.parse(Data(v.pretty.utf8)) == v)
        #expect(v["id"]?.intValue == 583_754_843_887_570_945)
        #expect(JSONValue.quote("\u{1B}[2J") == "\"\\u001b[2J\"")
    }

    @Test func identicalUserObjectsShareOneUserAndChangedOnesDoNot() throws {
        let d = V1Decoder()
        let a = #"{"id_str":"1","screen_name":"ann","name":"Ann","followers_count":10}"#
        let b = #"{"id_str":"1","screen_name":"ann","name":"Ann","followers_count":11}"#
        let u1 = try d.user(from: Data(a.utf8))
        let u2 = try d.user(from: Data(a.utf8))
        let u3 = try d.user(from: Data(b.utf8))
        #expect(u1 === u2)
        #expect(u3.followersCount == 11 && u1.followersCount == 10)
        #expect(d.internedUserCount == 1)
    }

    /// Ids as v2 sends them, read in place when they are plain digits, and the slower way
    /// (escapes, 20 digits, junk) agreeing with what the number is.
    @Test(arguments: [
        (#""1800000000000000003""#, UInt64(1_800_000_000_000_000_003) as UInt64?), (#""0007""#, 7),
        (#""9999999999999999999""#, 9_999_999_999_999_999_999), (#""18446744073709551615""#, UInt64.max),
        (#""18446744073709551616""#, nil), (#""12a""#, nil), (#""""#, nil), (#""\u0031\u0032""#, 12), ("42", 42), ("null", nil),
    ])
    func idsAreRead(_ json: String, _ id: UInt64?) throws {
        let (value, rest) = try read(json + ",true") { r -> (UInt64?, Bool?) in
            let v = try r.lenientID()
            try r.expect(UInt8(ascii: ","), "a comma")
            return (v, try r.optionalBool())
        }
        #expect(value == id)
        #expect(rest == true, "the reader ends past the id")
    }

    /// A time is parsed from the document's bytes; one written with escapes, the same.
    @Test func timesAreReadInPlaceOrUnescaped() throws {
        let plain = try read(#""2026-11-23T10:00:00.000Z""#) { try $0.optionalTime(TwitterDate.parseAny(utf8:)) }
        let escaped = try read(#""2026-11-23T10:00:00\u002E000Z""#) { try $0.optionalTime(TwitterDate.parseAny(utf8:)) }
        let v1 = try read(#""Wed Jun 06 20:07:10 +0000 2012""#) { try $0.optionalTime(TwitterDate.parse(utf8:)) }
        #expect(plain == 1_795_428_000 && escaped == plain)
        #expect(v1 == TwitterDate.parse("Wed Jun 06 20:07:10 +0000 2012") && v1 == 1_339_013_230)
        #expect(try read("1795428000") { try $0.optionalTime(TwitterDate.parseAny(utf8:)) } == nil, "a number is not a time")
        #expect(try read(#""Wed Jux 06 20:07:10 +0000 2012""#) { try $0.optionalTime(TwitterDate.parse(utf8:)) } == nil)
    }

    /// Invalid UTF-8 in a time is read as a `String` of it reads (U+FFFD, three bytes), not as
    /// the bytes: the weekday is not checked, so the length decides.
    @Test func aTimeWithInvalidUTF8IsReadAsItsString() throws {
        func time(_ bytes: [UInt8]) throws -> Int64? {
            try Data([0x22] + bytes + [0x22]).withUnsafeBytes { raw in
                var r = JSONReader(raw)
                return try r.optionalTime(TwitterDate.parse(utf8:))
            }
        }
        let rest = Array(" Jun 06 20:07:10 +0000 2012".utf8)
        #expect(try time([0xFF] + rest) == 1_339_013_230)
        #expect(try time([0xFF, 0xFF, 0xFF] + rest) == nil)
        #expect(throws: JSONError.self) { try self.read(#""Wed Jun 06"#) { try $0.optionalTime(TwitterDate.parse(utf8:)) } }
    }

    /// Ids of every length read eight digits at a time agree with `UInt64(_:)`, also with a
    /// byte next to the digits' range (`/`, `:`, `?`, `@`, `é`) at each place.
    @Test func idsOfEveryLengthAgreeWithTheirNumber() throws {
        // Past 24 digits, so a bound letting a third chunk in would be seen.
        let digits = Array("98765432109876543210123456789012")
        for n in 1...digits.count {
            var cases = [String(digits[..<n])]
            for odd in ["/", ":", "?", "@", "é"] {
                for at in 0..<n {
                    var s = digits[..<n].map(String.init)
                    s[at] = odd
                    cases.append(s.joined())
                }
            }
            for text in cases {
                let got = try read("\"\(text)\"") { try $0.lenientID() }
                #expect(got == UInt64(text), "\(text)")
            }
        }
    }

    /// `true`, `false` and `null`, compared a word at a time, are read and skipped whole, and
    /// anything short of them (cut by the end, a letter changed, the wrong literal) is refused.
    @Test func literalsAreReadWholeAndNothingLessIs() throws {
        for (json, bool) in [("true", true), ("false", false), ("true,", true), ("false]", false)] {
            #expect(try read(json) { try $0.readBool() } == bool)
            #expect(try read("[" + json.prefix(while: \.isLetter) + "]") { r in try r.skipValue() } == ())
        }
        #expect(try read("null") { $0.readNull() })
        #expect(try read("[null,true,false]") { r in try r.skipValue() } == ())
        for bad in ["tru", "fals", "nul", "t", "f", "n", "trUe", "falsy", "nulL", "nill"] {
            #expect(throws: JSONError.self, "\(bad)") { try self.read(bad) { try $0.readBool() } }
            #expect(throws: JSONError.self, "\(bad)") { try self.read("[" + bad + "]") { r in try r.skipValue() } }
        }
        #expect(throws: JSONError.self) { try self.read("null") { try $0.readBool() } }
        for bad in ["nul", "n", "nulL", "true", "Null"] {
            #expect(try !read(bad) { $0.readNull() }, "\(bad)")
        }
        #expect(throws: JSONError.self) { try self.read("[truex]") { r in try r.skipValue() } }
    }

    /// A number's digits, read eight at a time for the first sixteen, give the number at every
    /// length up to 32, whatever byte ends them; past `UInt64.max` it is refused, not wrapped.
    @Test func numbersOfEveryLengthAgreeWithTheirValue() throws {
        let digits = Array("18446744073709551615987654321012")
        for n in 1...digits.count {
            for end in ["", ",", "]", " ", "x"] {
                let text = String(digits[..<n])
                let read = Result { try self.read(text + end) { r -> UInt64 in try r.readUInt64() } }
                if let value = UInt64(text) {
                    #expect(try read.get() == value, "\(text)\(end)")
                } else {
                    #expect(throws: JSONError.self, "\(text)\(end)") { try read.get() }
                }
            }
            // A digit changed at each place for a byte that ends the number there.
            for at in 0..<n {
                var changed = digits[..<n].map(String.init)
                changed[at] = ":"
                let text = changed.joined()
                let leading = String(digits[..<at])
                let got = try? self.read(text) { r -> UInt64 in try r.readUInt64() }
                #expect(got == (at == 0 ? nil : UInt64(leading)), "\(text)")
            }
        }
        #expect(throws: JSONError.self) { try self.read("12345678901.5") { r -> UInt64 in try r.readUInt64() } }
    }

    /// A number's end, found eight digits at a time, is where a byte-by-byte reading stops:
    /// digits in runs of every length, then any byte (those past 0xF9 carry when 6 is added).
    @Test func aNumberEndsWhereReadByteByByte() {
        let numberBytes = Set("0123456789-+.eE".utf8)
        var random = SimRandom(state: 33)
        for round in 0..<6_000 {
            let digits = (0..<(round % 40)).map { _ in UInt8.random(in: 0x30...0x39, using: &random) }
            let after = (0..<Int.random(in: 1...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let bytes = digits + after
            let from = Int.random(in: 0...min(3, bytes.count), using: &random)
            let expected = bytes[from...].firstIndex { !numberBytes.contains($0) } ?? bytes.count
            let found = bytes.withUnsafeBufferPointer { JSONReader.numberEnd($0.baseAddress!, from: from, bytes.count) }
            #expect(found == expected, "\(bytes) from \(from)")
        }
    }

    /// An entity's `[start, end]`: the compact form read in one pass, any other the general
    /// way, alike; the reader ends past the value either way.
    @Test(arguments: [
        ("[12,34]", 12..<34 as Range<Int>?), ("[0,0]", 0..<0), ("[ 1 , 2 ]", 1..<2), ("[5,3]", nil), ("[1,2,3]", nil), ("[1]", nil),
        ("[-1,2]", nil), ("[1234567890,1234567891]", 1_234_567_890..<1_234_567_891), ("[123456789,999999999]", 123_456_789..<999_999_999),
        ("[1.5,2]", nil), ("[01,2]", 1..<2), ("null", nil), (#""[1,2]""#, nil), ("[]", nil), ("[1,1234567890]", 1..<1_234_567_890),
        ("[117, 140]", 117..<140), ("[1,  2]", 1..<2), ("[1 ,2]", 1..<2), ("[1,\t2]", 1..<2), ("[1, 2 ]", 1..<2), ("[1, -2]", nil),
    ])
    func rangesAreRead(_ json: String, _ range: Range<Int>?) throws {
        let (value, rest) = try read(json + ",true") { r -> (Range<Int>?, Bool?) in
            let v = try r.optionalRange()
            try r.expect(UInt8(ascii: ","), "a comma")
            return (v, try r.optionalBool())
        }
        #expect(value == range)
        #expect(rest == true, "the reader ends past the range")
    }

    /// A range cut short by the end of the input is refused, not read past the end.
    @Test func aRangeRunningToTheEndIsRefused() {
        for json in ["[12,34", "[12", "[12,", "[12, 34", "[12, ", "[12, 3"] {
            #expect(throws: JSONError.self) { try self.read(json) { try $0.optionalRange() } }
        }
    }

    @Test func anIdRunningToTheEndIsRefused() {
        #expect(throws: JSONError.self) { try self.read(#""1234567"#) { try $0.lenientID() } }
    }

    /// Keys are compared a word at a time, with loads that overlap: every length from 0 to 25,
    /// and 30, against literals of each length, equal only to themselves, and unequal when any
    /// one byte differs (first, middle or last); a key sent escaped compares by its text.
    @Test func keysCompareAtEveryLength() throws {
        let literals: [StaticString] = [
            "", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefghijk",
            "abcdefghijkl", "abcdefghijklm", "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq",
            "abcdefghijklmnopqr", "abcdefghijklmnopqrs", "abcdefghijklmnopqrst", "abcdefghijklmnopqrstu",
            "abcdefghijklmnopqrstuv", "abcdefghijklmnopqrstuvw", "abcdefghijklmnopqrstuvwx", "abcdefghijklmnopqrstuvwxy",
            "in_reply_to_status_id_str", "abcdefghijklmnopqrstuvwxyz0123",
        ]
        var keys: [String] = literals.map { $0.description }
        for literal in literals where literal.utf8CodeUnitCount > 0 {
            let text = Array(literal.description.utf8)
            for at in Set([0, text.count / 2, text.count - 1]) {
                var changed = text
                changed[at] ^= 0x01
                keys.append(String(decoding: changed, as: UTF8.self))
            }
        }
        var json = "{" + keys.map { #""\#($0)":0"# }.joined(separator: ",")
        // Escaped: read as "abcdefgh" and "abcdefghijklmnopq".
        json += #","\u0061bcdefgh":0,"abcdefghijklmnop\u0071":0}"#
        keys += ["abcdefgh", "abcdefghijklmnopq"]
        var seen = 0
        try read(json) { r in
            try r.readObject { r, key in
                for literal in literals {
                    #expect(key.equals(literal) == (key.string == literal.description), "\(key.string) against \(literal)")
                }
                seen += 1
                try r.skipValue()
            }
        }
        #expect(seen == keys.count)
    }
}
