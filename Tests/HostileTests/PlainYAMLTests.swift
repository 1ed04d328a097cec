import Foundation
import PlainYAML
import Testing

/// The account files of twurl and t, read with Debian's libyaml: their shape as plain values,
/// and bad or hostile documents refused in words.
@Suite struct PlainYAMLTests {
    @Test func aTwurlFileReadsAsPlainValues() throws {
        let text = """
            ---
            profiles:
              alice:
                ck123:
                  username: alice
                  consumer_key: ck123
                  consumer_secret: "cs: with a colon"
                  token: 1-abc
                  secret: ts
            configuration:
              default_profile:
              - alice
              - ck123
            """
        let root = try #require(try PlainYAML.load(text) as? [String: Any])
        let p = try #require((root["profiles"] as? [String: Any])?["alice"] as? [String: Any])
        let entry = try #require(p["ck123"] as? [String: String])
        #expect(
            entry == [
                "username": "alice", "consumer_key": "ck123", "consumer_secret": "cs: with a colon", "token": "1-abc", "secret": "ts",
            ])
        #expect((root["configuration"] as? [String: Any])?["default_profile"] as? [String] == ["alice", "ck123"])
        #expect(try PlainYAML.load("") == nil)
    }

    @Test func brokenDocumentsNameTheirLine() {
        #expect(throws: PlainYAML.Problem.self) { try PlainYAML.load("profiles:\n  a: [1, 2\n") }
        do {
            _ = try PlainYAML.load("a: b\n c: d\n  - e\n")
            Issue.record("a broken document was read")
        } catch {
            #expect(error.description.contains("line "))
        }
        #expect(throws: PlainYAML.Problem.self) { try PlainYAML.load("? [a, b]\n: c\n") }
    }

    /// Nine levels of nine aliases each would be 387 million values: refused at the bound.
    @Test func aliasesThatExpandWithoutEndAreRefused() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for i in 1...9 { text += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]\n" }
        do {
            _ = try PlainYAML.load(text)
            Issue.record("an alias bomb was expanded")
        } catch {
            #expect(error.description.contains("more than \(PlainYAML.maxNodes)"))
        }
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: PlainYAML.Problem.self) { try PlainYAML.load(deep) }
    }
}
