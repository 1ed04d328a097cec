import Testing
import TweetText
import TwitterSimulator

@testable import Screen

/// Text of printable ASCII, U+00A0–U+02FF and one-cell symbols of U+2000–U+2BFF written a
/// scalar a cell leaves the cells, and measures the width, that measuring it grapheme by
/// grapheme does: over random texts of those scalars, their edges and what may join or widen
/// them, clipped on either side and over wide graphemes, in every width mode.
@Suite struct OneCellTextTests {
    static let pieces = [
        "a", "~", " ", "word", "\u{A0}", "\u{A1}", "·", "é", "ß", "\u{FF}", "\u{100}", "ŋ", "\u{2B0}", "\u{2FF}", "\u{AD}", "\u{9F}",
        "\u{80}", "\u{7F}", "\u{300}", "\u{301}", "\u{34F}", "\u{200D}", "\u{FE0F}", "\u{600}", "Ж", "▲", "漢", "👍", "\u{1F3FD}",
        "\t", "\n", "→", "│", "…", "‘", "\u{2000}", "\u{200B}", "\u{2028}", "\u{2060}", "\u{20DD}", "⌚", "⭐", "\u{2329}", "♥", "\u{2BFF}",
        "\u{2C00}", "\u{1FFF}",
    ]

    /// The way every other text is written: its graphemes measured, then put as a line.
    static func reference(_ screen: inout Screen, _ text: String, x: Int, y: Int, style: Style, clip: Rect?) -> Int {
        screen.put(StyledLine([Span("", style)], glyphs: MeasuredTexts.glyphs(text)), x: x, y: y, clip: clip)
    }

    @Test func aScalarACellAsGraphemesDo() {
        var rng = SimRandom(state: 20_261_129)
        func next(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }
        var (differing, fast) = ([String](), 0)
        for mode in [WidthMode.perScalar, .grapheme, .measured(ClusterKinds(rawValue: 63))] {
            DisplayWidth.$mode.withValue(mode) {
                for _ in 0..<4_000 {
                    let text = (0..<(1 + next(6))).map { _ in Self.pieces[next(Self.pieces.count)] }.joined()
                    if Screen.oneCellScalars(text) != nil { fast += 1 }
                    // Over a row of wide graphemes, so a cell written on half of one blanks the other.
                    var (a, b) = (Screen(width: 24, height: 2), Screen(width: 24, height: 2))
                    for s in [0, 1] {
                        for x in stride(from: s, to: 23, by: 2) {
                            a.put("漢", x: x, y: s, style: .plain)
                            b.put("漢", x: x, y: s, style: .plain)
                        }
                    }
                    let (x, y) = (next(12) - 3, next(2))
                    let clip = next(2) == 0 ? nil : Rect(x: next(6), y: 0, width: 6 + next(12), height: 2)
                    let style = Style(fg: .indexed(UInt8(next(8))))
                    // A substring too (the generic path), cut by scalars: a mark at the start
                    // would join the character before it.
                    let whole = "<" + text + ">"
                    let end =
                        next(2) == 0
                        ? a.put(text, x: x, y: y, style: style, clip: clip)
                        : a.put(Substring(whole.unicodeScalars.dropFirst().dropLast()), x: x, y: y, style: style, clip: clip)
                    let expected = Self.reference(&b, text, x: x, y: y, style: style, clip: clip)
                    let measured = MeasuredTexts.glyphs(text).width
                    if end != expected || a != b || Screen.width(of: text) != measured || Screen.width(of: text[...]) != measured {
                        differing.append(text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
                    }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(5))")
        // The texts took the new path often enough to tell.
        #expect(fast > 1_000, "texts of one-cell scalars: \(fast)")
    }

    /// Every symbol of U+2000–U+2BFF taken a cell alone is drawn so beside ASCII, Latin
    /// letters, itself and the symbols around it, in every width mode.
    @Test func everySymbolTakenIsACellAlone() {
        var (differing, taken) = ([String](), 0)
        for mode in [WidthMode.perScalar, .grapheme, .measured(ClusterKinds(rawValue: 63))] {
            DisplayWidth.$mode.withValue(mode) {
                for v: UInt32 in 0x2000..<0x2C00 where Screen.aloneSymbol(v) {
                    taken += 1
                    // No extending scalar among them (their categories leave them out).
                    if Unicode.Scalar(v)!.properties.isGraphemeExtend { differing.append("extends: \(String(v, radix: 16))") }
                    let s = String(Unicode.Scalar(v)!)
                    let near = [v - 1, v + 1].compactMap(Unicode.Scalar.init).map(String.init).joined()
                    let text = "a" + s + s + "é" + s + near + s + "b"
                    var (a, b) = (Screen(width: 20, height: 1), Screen(width: 20, height: 1))
                    let end = a.put(text, x: 1, y: 0, style: .plain)
                    let expected = Self.reference(&b, text, x: 1, y: 0, style: .plain, clip: nil)
                    if end != expected || a != b || Screen.width(of: text) != MeasuredTexts.glyphs(text).width {
                        differing.append(String(v, radix: 16))
                    }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(8))")
        #expect(taken > 3 * 2_000, "symbols taken: \(taken / 3)")
    }

    @Test func theRangeEndsWhereMarksBegin() {
        #expect(Screen.oneCellScalars("a · é ŋ \u{2FF}") == 9)
        #expect(Screen.oneCellScalars("\u{A0}") == 1)
        #expect(Screen.oneCellScalars("▲ 12 newer · g g") == 16 && Screen.oneCellScalars("─│→…") == 4)
        for v: UInt32 in [0x9F, 0xAD, 0x300, 0x600, 0x200B, 0x200D, 0x2028, 0x20DD, 0x231A, 0x2329, 0x2B50, 0x2C00, 0x1F44D, 0x7F, 0x09] {
            #expect(Screen.oneCellScalars("a" + String(Unicode.Scalar(v)!) + "b") == nil, "U+\(String(v, radix: 16))")
        }
    }
}
