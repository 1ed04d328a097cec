import Screen
import Testing
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
}
