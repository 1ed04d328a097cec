import Screen
import Testing
import TweetText
import TwitterSimulator

/// A card draws the first lines of a long post and counts the rest: the first `limit` lines and
/// the count are exactly what the whole wrap would give.
@Suite struct WrapLimitTests {
    @Test func theFirstLinesAndTheCountMatchTheWholeWrap() {
        var rng = SimRandom(seed: 20_261_125)  // seeded: a failure can be run again
        let pieces = ["word", " ", "  ", "\n", "日本語", "a-b", "/path/", "👩‍👩‍👧", "x", "long-unbroken-token-of-text", "e\u{301}"]
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0..<120, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let spans = [Span(text, Style()), Span(" tail", Style(fg: .default, bg: .default, [.bold]))]
            let width = Int.random(in: 1..<30, using: &rng)
            let whole = TextLayout.wrap(spans, width: width)
            #expect(TextLayout.lineCount(spans, width: width) == whole.count, "\(text.debugDescription) at \(width)")
            for limit in [1, 2, 5, whole.count, whole.count + 3] {
                let first = TextLayout.wrap(spans, width: width, limit: limit)
                #expect(first.map(\.text) == whole.prefix(limit).map(\.text), "\(text.debugDescription) at \(width), \(limit)")
            }
        }
        #expect(TextLayout.wrap([Span("abc", Style())], width: 3, limit: 0).isEmpty)
    }
    /// `asciiByte` reads as `asciiValue` does: every ASCII scalar, "\r\n", ASCII letters with
    /// marks, a scalar equivalent to an ASCII one (U+037E is ";"), and other scripts.
    @Test func asciiByteIsAsciiValue() {
        var graphemes: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
        graphemes += ["\r\n", "e\u{301}", "a\u{308}", "\u{37E}", "\u{85}", "é", "漢", "👍🏽", "🇯🇵", "\u{2028}"]
        for ch in graphemes { #expect(ch.asciiByte == ch.asciiValue, "\(ch.unicodeScalars.map(\.value))") }
        // A string's width, read by the byte when it is printable ASCII: its graphemes' sum.
        for ch in graphemes {
            let text = "ab" + String(ch) + "c"
            #expect(Screen.width(of: text) == text.reduce(0) { $0 + Screen.width(of: $1) }, "\(text.unicodeScalars.map(\.value))")
        }
        let breaks = TextLayout.wrap([Span("ab\r\ncd\ne\u{37E}f - g/h", .plain)], width: 4).map(\.text)
        #expect(breaks == ["ab", "cd", "e\u{37E}f", "- g/", "h"])
        // A break character with a mark on it is another grapheme, and no break.
        let marked = TextLayout.wrap([Span("a -\u{301}bcd", .plain)], width: 4).map(\.text)
        #expect(marked == ["a", "-\u{301}bcd"])
    }
}
