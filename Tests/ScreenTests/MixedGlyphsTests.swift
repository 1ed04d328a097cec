import Testing
import TweetText
import TwitterSimulator

@testable import Screen

/// Mixed text's graphemes found with ASCII runs taken byte by byte are those `Character`
/// iteration finds, over random texts of pieces that join (marks, ZWJ, keycaps, flags,
/// prepended signs, CR LF, jamo) next to ASCII, in every width mode.
@Suite struct MixedGlyphsTests {
    static func reference(_ text: String) -> Glyphs {
        var g = Glyphs()
        for ch in text { g.append(ch, width: Screen.width(of: ch), span: 0) }
        return g
    }

    static func same(_ a: Glyphs, _ b: Glyphs) -> Bool {
        a.width == b.width && a.clusters == b.clusters && a.items.count == b.items.count
            && zip(a.items, b.items).allSatisfy { $0.code == $1.code && $0.span == $1.span && $0.width == $1.width }
    }

    @Test func asciiRunsBreakAsCharactersDo() {
        let pieces = [
            "a", "Z", "1", "#", "*", " ", "word ", "\u{301}", "\u{200D}", "\u{FE0F}", "\u{20E3}", "\u{1F1EF}", "\u{1F1F5}", "\u{600}",
            "\u{110BD}", "\r", "\n", "\r\n", "\u{1100}", "\u{1161}", "\u{11A8}", "👍", "\u{1F3FD}", "漢", "↑", "·", "\u{7F}", "\t",
            "e\u{301}", "👨‍👩‍👧", "\u{915}\u{94D}\u{937}", "\u{E0067}", "\u{0903}",
            // Scalars taken alone before ASCII (below U+0600, U+2000–U+2BFF), and those that
            // join them: marks, controls, pictographs, the first Prepend.
            "▲", "é", "Ж", "\u{5D0}", "\u{5BF}", "\u{85}", "\u{AD}", "\u{2028}", "\u{200B}", "\u{2060}", "\u{20DD}", "⭐", "❤",
            "\u{2B1B}", "\u{5FF}", "\u{2BFF}", "\u{2C00}", "\u{1FFF}",
        ]
        var rng = SimRandom(state: 20_261_129)
        func next(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }
        var differing: [String] = []
        for mode in [WidthMode.perScalar, .grapheme, .measured(ClusterKinds(rawValue: 63))] {
            DisplayWidth.$mode.withValue(mode) {
                for _ in 0..<3_000 {
                    let text = (0..<(1 + next(8))).map { _ in pieces[next(pieces.count)] }.joined()
                    guard text.utf8.contains(where: { $0 >= 0x80 || $0 < 0x20 || $0 == 0x7F }) else { continue }
                    if !Self.same(Glyphs([Span(text, .plain)]), Self.reference(text)) { differing.append(text) }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5).map { Array($0.unicodeScalars).map { String($0.value, radix: 16) } })")
    }
}
