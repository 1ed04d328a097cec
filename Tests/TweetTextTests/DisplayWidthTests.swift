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
        #expect(DisplayWidth.of(Character(text), mode: .grapheme) == cells)
    }

    /// A terminal that advances per scalar: each scalar's own cells, summed over the cluster
    /// (as tmux and xterm draw them: a ZWJ family takes a column pair per person).
    @Test(arguments: [
        ("a", 1), ("日", 2), ("🐦", 2), ("👩‍💻", 4), ("👨‍👩‍👧‍👦", 8), ("🇯🇵", 2), ("☀️", 1), ("1️⃣", 1),
        ("e\u{301}", 1), ("\u{200D}", 0), ("🙋🏽", 4), ("स्ते", 2), ("ক্ষ", 2), ("ก่", 1), ("\u{1112}\u{1161}\u{11AB}", 2),
        ("بِ", 1),
    ])
    func perScalarWidth(text: String, cells: Int) {
        #expect(text.count == 1, "test input must be one grapheme")
        #expect(DisplayWidth.of(Character(text), mode: .perScalar) == cells)
    }

    /// A scalar alone is an emoji (two cells) exactly when the emoji scanner reads it as one,
    /// for every scalar: the check made without building a sequence agrees with the sequence's.
    @Test func aLoneScalarIsAnEmojiAsTheScannerReadsIt() {
        var emoji = 0
        for v in UInt32(0x80)...0x10FFFF {
            guard let s = Unicode.Scalar(v) else { continue }
            let scanned = EmojiScanner.sequenceEnd([s], at: 0) != nil
            if DisplayWidth.isEmojiAlone(s) != scanned { Issue.record("U+\(String(v, radix: 16))") }
            if scanned { emoji += 1 }
        }
        #expect(emoji > 1_000, "emoji presented alone: \(emoji)")
        #expect(!DisplayWidth.isEmojiAlone("\u{1F1EF}"), "a lone regional indicator is no emoji")
    }

    @Test func stringWidthSumsClusters() {
        #expect(DisplayWidth.of("日本語🐦ab") == 10)
        #expect(DisplayWidth.of("naïve café") == 10)
        // Per scalar where nothing binds the mode; per cluster where the terminal's mode is bound.
        #expect(DisplayWidth.of("👩‍👩‍👧 family") == 13)
        #expect(DisplayWidth.$mode.withValue(.grapheme) { DisplayWidth.of("👩‍👩‍👧 family") } == 9)
        #expect(DisplayWidth.of("") == 0)
    }
}
