import LinnetTestSupport
import Testing

@testable import TweetText

/// Vectors from docs/PROTOCOL.md §7 beyond the conformance file, and the TLD data's provenance.
@Suite struct TweetLengthTests {
    @Test func helloWorldWave() {
        #expect(TweetLength("Hello, world! 👋").weightedLength == 16)
    }

    @Test func mixedScriptsWithURL() {
        let r = TweetLength("english text 日本語 😷 https://example.com")
        #expect(r.weightedLength == 46)
        #expect(r.permillage == 164)
        #expect(r.displayRange == 0...38)
        #expect(r.validRange == 0...38)
        #expect(r.isValid)
        #expect(r.remaining() == 234)
    }

    @Test func bareDomainCountsAsURL() {
        #expect(TweetLength("example.com").weightedLength == 23)
    }

    @Test func composedAndDecomposedCountTheSame() {
        #expect(TweetLength("caf\u{E9}").weightedLength == 4)
        #expect(TweetLength("cafe\u{301}").weightedLength == 4)
    }

    @Test func emptyIsInvalid() {
        let r = TweetLength("")
        #expect(r.weightedLength == 0)
        #expect(!r.isValid)
    }

    @Test func overLimitReportsCodePointsThatFit() {
        let text = String(repeating: "a", count: 278) + "日本語"
        let r = TweetLength(text)
        #expect(r.weightedLength == 284)
        #expect(r.remaining() == -4)
        #expect(r.validCodePointCount == 279)
    }

    @Test func v2CountsEmojiScalarsSeparately() {
        #expect(TweetLength("👨‍👩‍👧‍👦", configuration: .v2).weightedLength == 11)
        #expect(TweetLength("👨‍👩‍👧‍👦", configuration: .v3).weightedLength == 2)
    }

    @Test func tldListMatchesTheFixture() throws {
        let yaml = try #require(try Fixtures.yaml("twitter-text/tld_lib.yml") as? [String: [Any]])
        func words(_ s: String) -> Set<String> { Set(s.split(whereSeparator: \.isWhitespace).map(String.init)) }
        #expect(words(TLDList.country) == Set((yaml["country"] ?? []).map { "\($0)" }))
        #expect(words(TLDList.generic) == Set((yaml["generic"] ?? []).map { "\($0)" }))
    }

    @Test(arguments: [("bücher", "xn--bcher-kva"), ("mañana", "xn--maana-pta"), ("日本語", "xn--wgv71a119e"), ("abc", "abc")])
    func punycode(label: String, ascii: String) {
        #expect(Punycode.toASCII(label: label.unicodeScalars.map(\.value)) == ascii)
    }

    @Test func entitiesComeInOrderWithoutOverlap() {
        let e = Extractor.entities(in: "@ann see http://x.com/#tag and #real")
        #expect(e.map(\.text) == ["@ann", "http://x.com/#tag", "#real"])
        #expect(e.map(\.range) == [0..<4, 9..<26, 31..<36])
    }
}

/// Shapes that once made the counter quadratic (make bench prints their figures, TextBench):
/// their counts are still right.
@Suite struct PathologicalLengthTests {
    @Test func longRunsCountAsTheirParts() {
        #expect(TweetLength(String(repeating: "🇯🇵", count: 4000)).weightedLength == 8000)
        #expect(TweetLength(String(repeating: "1\u{FE0F}\u{20E3}", count: 1000)).weightedLength == 2000)
        // NFC keeps one precomposed letter and 9,999 combining acutes of weight 1 each.
        #expect(TweetLength("a" + String(repeating: "\u{301}", count: 10_000)).weightedLength == 10_000)
        let labels = "http://" + String(repeating: "a.", count: 20_000) + "com"
        #expect(!TweetLength(labels).isValid)
    }
}
