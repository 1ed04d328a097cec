import Testing

@testable import TweetText

@Suite struct LongTextExtractionTests {
    /// Prose of sentences (a full stop, then a space) with links among them: each is found
    /// where it is, and nothing else is (words before a full stop are not domains).
    @Test func linksAmongSentencesAreFound() {
        let sentences = String(repeating: "ab. cd e.g. x.y. ", count: 2_000)
        let text = sentences + "see example.com/x. and https://t.co/abc. " + sentences + "fin. example.ORG."
        let found = Extractor.urls(in: text).map(\.text)
        #expect(found == ["example.com/x", "https://t.co/abc", "example.ORG"])
        let scalars = Array(text.unicodeScalars)
        for e in Extractor.urls(in: text) {
            #expect(String(String.UnicodeScalarView(scalars[e.range])) == e.text)
        }
    }

    @Test func aTextWithoutAFullStopHasNoLink() {
        #expect(Extractor.urls(in: String(repeating: "example com ", count: 100)).isEmpty)
    }

    /// Every TLD twitter-text lists ends a link after a protocol, in whatever script it is
    /// written: a TLD's letters are all looked for, not only ASCII ones.
    @Test func everyListedTLDEndsALink() {
        let tlds = (TLDList.generic + " " + TLDList.country).split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(tlds.count > 1_000)
        for tld in tlds {
            #expect(Extractor.urls(in: "see http://example.\(tld) now").map(\.text) == ["http://example.\(tld)"], "\(tld)")
        }
    }

    /// A text without @/＠ or #/＃ is not scanned for mentions or hashtags; one that holds a
    /// mark anywhere, fullwidth at its very start or end, or next to other fullwidth forms, is.
    @Test func marksDecideWhetherATextIsScanned() {
        #expect(Extractor.mentions(in: "no marks here, ｆｕｌｌｗｉｄｔｈ ｔｅｘｔ ＋ ＂").isEmpty)
        #expect(Extractor.hashtags(in: "no marks here, ｆｕｌｌｗｉｄｔｈ ｔｅｘｔ ＋ ＂").isEmpty)
        #expect(Extractor.hashtags(in: "＃tag").map(\.text) == ["＃tag"])
        #expect(Extractor.hashtags(in: "ｘ ＃tag").map(\.text) == ["＃tag"])
        #expect(Extractor.mentions(in: "hi ＠ann").map(\.text) == ["＠ann"])
        #expect(Extractor.mentionsOrLists(in: "＠ann/birds").map(\.text) == ["＠ann/birds"])
        #expect(Extractor.mentions(in: "@ann #tag").map(\.text) == ["@ann"])
        #expect(Extractor.hashtags(in: "@ann #tag").map(\.text) == ["#tag"])
        // The byte check itself: a fullwidth form cut short or with another middle byte is no mark.
        func holds(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { Extractor.holds($0, 0x40, wide: 0xA0) } }
        #expect(!holds([0x78, 0xEF, 0xBC]) && !holds([0xEF]) && !holds([]))
        #expect(holds([0x78, 0xEF, 0xBC, 0xA0]) && holds([0x40]))
        #expect(!holds([0xEF, 0xBD, 0xA0]))  // U+FF60
    }
}
