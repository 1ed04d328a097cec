import LinnetTestSupport
import Testing

@testable import TweetText

/// The URL, mention and hashtag sections of extract.yml.
@Suite struct ExtractionConformanceTests {
    static let urls = ConformanceCase.load("extract.yml", "urls")
    static let urlsWithIndices = ConformanceCase.load("extract.yml", "urls_with_indices", indexKey: "url")
    static let mentions = ConformanceCase.load("extract.yml", "mentions")
    static let mentionsWithIndices = ConformanceCase.load(
        "extract.yml", "mentions_with_indices", indexKey: "screen_name")
    static let hashtags = ConformanceCase.load("extract.yml", "hashtags")
    static let hashtagsWithIndices = ConformanceCase.load(
        "extract.yml", "hashtags_with_indices", indexKey: "hashtag")

    @Test(arguments: urls) func extractURLs(_ c: ConformanceCase) {
        guard noLoadError(c) else { return }
        #expect(Extractor.urls(in: c.text).map(\.text) == c.expectedList, "\(c.description)")
    }

    @Test(arguments: urlsWithIndices) func extractURLsWithIndices(_ c: ConformanceCase) {
        guard noLoadError(c) else { return }
        let got = Extractor.urls(in: c.text).map {
            ConformanceCase.IndexedValue(text: $0.text, start: $0.range.lowerBound, end: $0.range.upperBound)
        }
        #expect(got == c.expectedIndexed, "\(c.description)")
    }

    @Test(arguments: mentions) func extractMentions(_ c: ConformanceCase) {
        guard noLoadError(c) else { return }
        #expect(Extractor.mentions(in: c.text).map(screenName) == c.expectedList, "\(c.description)")
    }

    @Test(arguments: mentionsWithIndices) func extractMentionsWithIndices(_ c: ConformanceCase) {
        guard noLoadError(c) else { return }
        let got = Extractor.mentions(in: c.text).map {
            ConformanceCase.IndexedValue(text: screenName($0), start: $0.range.lowerBound, end: $0.range.upperBound)
        }
        #expect(got == c.expectedIndexed, "\(c.description)")
    }

    @Test(arguments: hashtags) func extractHashtags(_ c: ConformanceCase) {
        guard noLoadError(c) else { return }
        #expect(Extractor.hashtags(in: c.text).map(tag) == c.expectedList, "\(c.description)")
    }

    @Test(arguments: hashtagsWithIndices) func extractHashtagsWithIndices(_ c: ConformanceCase) {
        guard noLoadError(c) else { return }
        let got = Extractor.hashtags(in: c.text).map {
            ConformanceCase.IndexedValue(text: tag($0), start: $0.range.lowerBound, end: $0.range.upperBound)
        }
        #expect(got == c.expectedIndexed, "\(c.description)")
    }

    /// The quick test before reading for links passes over no text with a link in it: every
    /// conformance text, and texts of domain-like pieces, read without it.
    @Test func textsPassedOverHoldNoLink() {
        var state: UInt64 = 20_261_128
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let pieces = [
            "a", "example", ".", ". ", ".com", ".COM", ".c", ".1", ".-", "..", "/", "http://", "https://", " ", "t.co/x", "日本",
            ".みんな", ".рф", "xn--", ".xn--p1ai", "@", "#", ":", "-", "_", "\u{FF0E}", "。", "1.2", "e.g.", "。com",
        ]
        var texts = [Self.urls, Self.urlsWithIndices, Self.mentions, Self.hashtags].flatMap { $0.map(\.text) }
        for _ in 0..<20_000 { texts.append((0..<next() % 8 + 1).map { _ in pieces[next() % pieces.count] }.joined()) }
        var passedOver = 0
        var found = 0
        for t in texts {
            let links = URLExtractor(t.unicodeScalars.map(\.value)).extract()
            if !Extractor.mayHoldDomain(t) {
                passedOver += 1
                #expect(links.isEmpty, "\(t)")
            }
            if !links.isEmpty { found += 1 }
        }
        #expect(passedOver > 2_000 && found > 2_000, "passed over \(passedOver), with links \(found)")
    }

    @Test func sectionsAreNotEmpty() {
        for section in [Self.urls, Self.urlsWithIndices, Self.mentions, Self.mentionsWithIndices, Self.hashtags, Self.hashtagsWithIndices] {
            #expect(section.count > 2)
            #expect(section.allSatisfy { $0.loadError == nil })
        }
    }

    private func noLoadError(_ c: ConformanceCase) -> Bool {
        if let e = c.loadError { Issue.record("fixture: \(e)") }
        return c.loadError == nil
    }

    private func screenName(_ e: TextEntity) -> String {
        if case .mention(let name, _) = e.kind { return name }
        return ""
    }

    private func tag(_ e: TextEntity) -> String {
        if case .hashtag(let t) = e.kind { return t }
        return ""
    }
}
