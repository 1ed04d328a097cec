import Testing
import TweetText
import TwitterSimulator

@testable import Screen

/// `wrap` reads ASCII by the byte and slices its lines' spans from the text: the same lines,
/// spans and measured graphemes as reading every grapheme as a `Character` and building each
/// line grapheme by grapheme (the reference below, the way wrapping was first written).
@Suite struct WrapReferenceTests {
    /// A line as the reference makes it: spans, and each grapheme drawn (its text, columns, span).
    struct Line: Equatable {
        /// Each span's scalars (not `String`'s `==`, which calls canonical equivalents equal)
        /// and style.
        var spans: [String]
        var glyphs: [String]
        init(spans: [Span], glyphs: [String]) {
            self.spans = spans.map { "\($0.text.unicodeScalars.map(\.value)) \($0.style)" }
            self.glyphs = glyphs
        }
    }

    static func reference(_ spans: [Span], width: Int, limit: Int) -> [Line] {
        var lines: [Line] = []
        var current: [(Character, Int, Style)] = []
        var used = 0
        var breakAfter: Int?
        var wrapped = false
        func emit(_ items: ArraySlice<(Character, Int, Style)>) {
            var out: [Span] = []
            var glyphs: [String] = []
            for (ch, w, st) in items {
                if let last = out.last, last.style == st { out[out.count - 1].text.append(ch) } else { out.append(Span(String(ch), st)) }
                glyphs.append("\(ch.unicodeScalars.map(\.value)) \(w) \(out.count - 1)")
            }
            lines.append(Line(spans: out, glyphs: glyphs))
        }
        for span in spans {
            for ch in span.text {
                if lines.count >= limit { return lines }
                let nl = ch == "\n" || ch == "\r\n"
                if nl {
                    emit(current[...])
                    (current, used, breakAfter, wrapped) = ([], 0, nil, false)
                    continue
                }
                let w = Screen.width(of: ch)
                if w == 0 { continue }
                if used + w > width {
                    if ch == " " {
                        emit(current[...])
                        (current, used, breakAfter, wrapped) = ([], 0, nil, true)
                        continue
                    }
                    if let b = breakAfter {
                        var head = current[...b]
                        while head.last?.0 == " " { head = head.dropLast() }
                        emit(head)
                        current = Array(current[(b + 1)...])
                    } else {
                        emit(current[...])
                        current = []
                    }
                    used = current.reduce(0) { $0 + $1.1 }
                    breakAfter = nil
                    wrapped = true
                }
                if current.isEmpty && ch == " " && wrapped { continue }
                current.append((ch, w, span.style))
                used += w
                if ch == " " || ((ch == "-" || ch == "/") && current.count > 1) { breakAfter = current.count - 1 }
            }
        }
        if lines.count < limit && (!current.isEmpty || lines.isEmpty) { emit(current[...]) }
        return lines
    }

    static func lines(_ made: [StyledLine]) -> [Line] {
        made.map { line in
            Line(
                spans: line.spans,
                glyphs: line.glyphs.items.map { g in
                    let scalars =
                        g.code & Cell.clusterFlag != 0
                        ? line.glyphs.clusters[Int(g.code & ~Cell.clusterFlag)].unicodeScalars.map(\.value) : [g.code]
                    return "\(scalars) \(g.width) \(g.span)"
                })
        }
    }

    @Test func wrappingMatchesTheGraphemeByGraphemeReading() {
        var rng = SimRandom(seed: 20_261_128)
        // ASCII beside marks, other scripts, controls, line ends of every kind, zero-width
        // characters, flags that join only within one span, prepended marks that take in the
        // ASCII after them.
        let pieces = [
            "word", " ", "  ", "-", "/", "a-b", "\n", "\r\n", "\r", "\t", "\u{7F}", "e\u{301}", "-\u{301}", " \u{308}", "日本語",
            "👩‍👩‍👧", "🇯", "🇵", "🇯🇵", "\u{200B}", "\u{85}", "\u{37E}", "long-unbroken-token", "x", "ﾊﾟ", "a\u{200D}b", "\u{301}",
            "\u{600}1", "\u{110BD}a", "क्ष", "\u{600}",
        ]
        let styles = [Style(fg: .indexed(1)), Style(fg: .indexed(2)), Style(bg: .indexed(4), .bold)]
        var compared = 0
        for _ in 0..<2_000 {
            let spans = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                Span(
                    (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined(),
                    styles.randomElement(using: &rng)!)
            }
            let width = Int.random(in: 1...14, using: &rng)
            let limit = Bool.random(using: &rng) ? Int.max : Int.random(in: 1...4, using: &rng)
            // Per scalar, or in grapheme mode (a terminal that measures clusters whole).
            let mode: WidthMode = Bool.random(using: &rng) ? .perScalar : .grapheme
            DisplayWidth.$mode.withValue(mode) {
                let expected = Self.reference(spans, width: width, limit: limit)
                #expect(Self.lines(TextLayout.wrap(spans, width: width, limit: limit)) == expected, "\(spans) at \(width), \(mode)")
                if limit == .max { #expect(TextLayout.lineCount(spans, width: width) == expected.count) }
                compared += expected.count
            }
        }
        #expect(compared > 5_000, "lines compared: \(compared)")
    }
}
