import Foundation
import Testing

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
}
