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
