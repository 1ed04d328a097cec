import Testing

@testable import TweetText

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), ("日", 2), ("한", 2), ("ｈ", 2), ("ﾊ", 1), ("🐦", 2), ("👩‍💻", 2), ("👨‍👩‍👧‍👦", 2), ("🇯🇵", 2),
        ("☀️", 2), ("☀", 1), ("☀︎", 1), ("1️⃣", 2), ("e\u{301}", 1), ("\u{301}", 0), ("\u{200D}", 0),
        ("\u{200B}", 0), ("🙋🏽", 2), ("🏴󠁧󠁢󠁥󠁮󠁧󠁿", 2), ("é", 1), ("ش", 1), ("\u{7}", 0), ("—", 1),
    ])
    func clusterWidth(text: String, cells: Int) {
        #expect(text.count == 1, "test input must be one grapheme")
        #expect(DisplayWidth.of(Character(text)) == cells)
    }

    @Test func stringWidthSumsClusters() {
        #expect(DisplayWidth.of("日本語🐦ab") == 10)
        #expect(DisplayWidth.of("naïve café") == 10)
        #expect(DisplayWidth.of("👩‍👩‍👧 family") == 9)
        #expect(DisplayWidth.of("") == 0)
    }
}
