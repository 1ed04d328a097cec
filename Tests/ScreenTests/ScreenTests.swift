import Foundation
import LinnetTestSupport
import Screen
import Testing
import TweetText

@Suite struct ScreenTests {
    @Test func wideGraphemesTakeTwoCellsAndNeverStraddleTheEdge() {
        var s = Screen(width: 6, height: 2)
        let end = s.put("a漢b", x: 0, y: 0, style: .plain)
        #expect(end == 4)
        #expect(s.grapheme(1, 0) == "漢" && s[2, 0].isContinuation)
        #expect(s.line(0) == "a漢b  ")
        // A wide grapheme that would cross the right edge becomes a space.
        s.put("abcde漢", x: 0, y: 1, style: .plain)
        #expect(s.line(1) == "abcde ")
        // Overwriting half of a wide grapheme blanks the other half.
        s.put("x", x: 2, y: 0, style: .plain)
        #expect(s.line(0) == "a xb  ")
        #expect(!s[2, 0].isContinuation)
        // Clusters of several scalars keep every scalar, and take the cells the terminal gives
        // them (per scalar here: 👍🏽 is 2 + 2).
        s.put("👍🏽é", x: 0, y: 1, style: .plain)
        #expect(s.grapheme(0, 1) == "👍🏽" && s.scalars(of: s[0, 1]).count == 2 && s.span(0, 1) == 4)
        #expect(s.grapheme(4, 1) == "e\u{301}")
        #expect(s.line(1) == "👍🏽e\u{301} ")
        // Overwriting any cell of a wide grapheme blanks the rest of it.
        s.put("z", x: 2, y: 1, style: .plain)
        #expect(s.line(1) == "  z e\u{301} " && (0..<6).allSatisfy { !s[$0, 1].isContinuation })
        // Its first cell too, and at the right edge, where no cell follows.
        var t = Screen(width: 4, height: 1)
        t.put("a漢", x: 0, y: 0, style: .plain)
        t.put("y", x: 1, y: 0, style: .plain)
        #expect(t.line(0) == "ay  " && (0..<4).allSatisfy { !t[$0, 0].isContinuation })
        t.put("ab漢", x: 0, y: 0, style: .plain)
        t.put("q", x: 3, y: 0, style: .plain)
        #expect(t.line(0) == "ab q" && (0..<4).allSatisfy { !t[$0, 0].isContinuation })
    }

    @Test func clusterWidthsComeFromTweetText() {
        #expect(Screen.width(of: "e\u{301}") == 1)
        #expect(Screen.width(of: "👨‍👩‍👧") == 6)
        #expect(DisplayWidth.$mode.withValue(.grapheme) { Screen.width(of: "👨‍👩‍👧") } == 2)
        #expect(Screen.width(of: "🇯🇵") == 2)
        #expect(Screen.width(of: "مرحبا") == 5)
        #expect(Screen.width(of: "\u{1B}") == 0)
    }

    @Test func clipKeepsTextInsideItsRectangle() {
        var s = Screen(width: 10, height: 1)
        s.put("hello world", x: 2, y: 0, style: .plain, clip: Rect(x: 2, y: 0, width: 5, height: 1))
        #expect(s.line(0) == "  hello   ")
    }

    @Test func wrapBreaksAtSpacesByDisplayWidth() {
        let lines = TextLayout.wrap([Span("漢字漢字 abc defgh", .plain)], width: 8)
        #expect(lines.map(\.text) == ["漢字漢字", "abc", "defgh"])
        #expect(lines.allSatisfy { $0.width <= 8 })
        // A word longer than the line is cut inside; newlines always break.
        #expect(
            TextLayout.wrap([Span("https://example.com/long\nx", .plain)], width: 10).map(\.text) == [
                "https://", "example.co", "m/long", "x",
            ])
        // Styles survive wrapping.
        let styled = TextLayout.wrap([Span("ab ", .plain), Span("cd", Style(fg: .indexed(1)))], width: 2)
        #expect(styled.map(\.text) == ["ab", "cd"])
        #expect(styled[1].spans.first?.style.fg == .indexed(1))
    }

    /// A laid-out line draws from the graphemes measured when it was made: cell for cell the
    /// same screen as putting its spans' text one after another, at every clip edge, over text
    /// on both sides (wide graphemes cut at the edges, clusters, marks, controls).
    @Test func aLineDrawsTheSameCellsAsItsSpansTextPutInTurn() {
        let texts = [
            "plain ascii", "日本語のテキスト", "👩‍👩‍👧 family", "e\u{301}cole", "tab\there", "🇺🇸🇫🇷", "zero\u{200B}width", "\u{7}bell",
            "mixed 漢字 and 😀!", "",
        ]
        let styles = [Style(fg: .indexed(1)), Style(fg: .indexed(2), bg: .default, .bold), Style(bg: .indexed(4))]
        for i in 0..<texts.count {
            let spans = (0..<3).map { k in Span(texts[(i + k * 3) % texts.count], styles[k]) }
            let line = StyledLine(spans)
            #expect(line.width == spans.reduce(0) { $0 + Screen.width(of: $1.text) })
            for x in [-3, 0, 5] {
                // Already there: wide graphemes the line cuts into, blanks (the pointer's way),
                // or narrow text with wide graphemes from the tenth column. The other row holds
                // something else, so a line that read it for its own would draw wrongly; the
                // last row checks the cell after a line that reaches the right edge.
                let wide = "漢字漢字漢字漢字漢字漢字漢字漢字"
                for (clip, under, y) in [
                    nil, Rect(x: 2, y: 0, width: 9, height: 2), Rect(x: 1, y: 0, width: 20, height: 1),
                    Rect(x: 0, y: 1, width: 30, height: 1),
                ].flatMap({ c in [wide, "", "abcdefghi 漢字漢字"].flatMap { u in [(c, u, 0), (c, u, 1)] } }) {
                    var viaLine = Screen(width: 30, height: 2)
                    var viaText = Screen(width: 30, height: 2)
                    for s in [0, 1] {
                        let text = s == y ? under : under.isEmpty ? wide : ""
                        // What is there drawn as text, or as a line: its wide graphemes are found.
                        if (x + s) % 2 == 0 {
                            viaLine.put(StyledLine([Span(text, .plain)]), x: 0, y: s)
                        } else {
                            viaLine.put(text, x: 0, y: s, style: .plain)
                        }
                        viaText.put(text, x: 0, y: s, style: .plain)
                    }
                    let end = viaLine.put(line, x: x, y: y, clip: clip, under: Style(bg: .indexed(3)))
                    var col = x
                    for span in spans {
                        col = viaText.put(span.text, x: col, y: y, style: span.style.over(Style(bg: .indexed(3))), clip: clip)
                    }
                    let place = "\(texts[i]) at \(x), \(y) in \(String(describing: clip)) over \(under)"
                    #expect(end == col, "\(place)")
                    #expect(viaLine == viaText, "\(place)")
                }
            }
        }
        // Changing the spans measures again.
        var line = StyledLine([Span("ab", .plain)])
        line.spans.append(Span("漢", .plain))
        #expect(line.width == 4)
        var screen = Screen(width: 6, height: 1)
        screen.put(line, x: 0, y: 0)
        #expect(screen.line(0).hasPrefix("ab漢"))
    }

    /// Text put again is drawn from its measure kept the first time: the same cells as a line
    /// measured afresh, past the number of texts kept and past the length of one, in each
    /// width mode, and two texts alike as `String`s but not in their scalars kept apart.
    @Test func textsPutAgainAreDrawnAsTheFirstTime() {
        let long = String(repeating: "漢字 e\u{301} 👍🏽 ", count: 40)
        let texts = (0..<1_100).map { "é\($0) 漢字 👨‍👩‍👧 ·" } + [long, "e\u{323}\u{301}", "e\u{301}\u{323}"]
        for mode in [WidthMode.perScalar, .grapheme] {
            DisplayWidth.$mode.withValue(mode) {
                for round in 0..<2 {
                    for (i, text) in texts.enumerated() where round == 0 || i % 50 == 0 || i >= 1_100 {
                        var viaText = Screen(width: 60, height: 1)
                        var viaLine = Screen(width: 60, height: 1)
                        let end = viaText.put(text, x: 1, y: 0, style: Style(fg: .indexed(2)))
                        #expect(end == viaLine.put(StyledLine([Span(text, Style(fg: .indexed(2)))]), x: 1, y: 0))
                        #expect(viaText == viaLine, "\(text)")
                        #expect(Screen.width(of: text) == StyledLine([Span(text, .plain)]).width)
                    }
                }
            }
        }
    }

    @Test func truncateAndPadByWidth() {
        #expect(TextLayout.truncate("日本語テキスト", width: 7) == "日本語…")
        #expect(TextLayout.truncate("short", width: 7) == "short")
        #expect(TextLayout.pad("ab", width: 4) == "ab  ")
    }

    @Test func coloursReduceToWhatTheTerminalShows() {
        let c = Color(parsing: "#ff0000")!
        #expect(c.index(at: .full) == 196)
        #expect(c.index(at: .sixteen) == 9)
        #expect(c.index(at: .eight) == 1)
        #expect(c.index(at: .none) == nil)
        #expect(Color(parsing: "#808080")!.index(at: .full) == 244)
        #expect(Color(parsing: "#fff") == .rgb(255, 255, 255))
        #expect(Color(parsing: "12") == .indexed(12))
        #expect(Color(parsing: "red") == nil)
        #expect(ColorDepth.from(colors: 256, noColor: true) == .none)
        #expect(ColorDepth.from(colors: 256, noColor: false) == .full)
        #expect(ColorDepth.from(colors: 8, noColor: false) == .eight)
    }

    /// Six hex digits are read from their bytes; everything else as before (blanks trimmed,
    /// any case, three digits, an index, "default").
    @Test func coloursParseInEveryForm() {
        #expect(Color(parsing: "#5fAFd7") == .rgb(0x5F, 0xAF, 0xD7))
        #expect(Color(parsing: "#000000") == .rgb(0, 0, 0))
        #expect(Color(parsing: " #FFD75F\t") == .rgb(0xFF, 0xD7, 0x5F))
        #expect(Color(parsing: "#ABC") == .rgb(0xAA, 0xBB, 0xCC))
        #expect(Color(parsing: "DEFAULT") == .default)
        #expect(Color(parsing: "255") == .indexed(255))
        for bad in ["#12345g", "#1234567", "#12345", "12345g", "#", "", "256", "#ｆｆｆｆｆｆ", "#12 456"] {
            #expect(Color(parsing: bad) == (bad.isEmpty ? .default : nil), "\(bad)")
        }
    }

    @Test func keyNamesRoundTrip() {
        for k: Key in [.char("j"), .char(" "), .ctrl("d"), .alt("\r"), .pageDown, .backTab, .function(5), .escape] {
            #expect(Key(name: k.description) == k)
        }
        #expect(Key(name: "nonsense") == nil)
    }
}

/// The frame diff: what a terminal must write to go from one frame to the next.
@Suite struct FrameDiffTests {
    typealias Run = Screen.Run

    func frame(_ rows: [String], width: Int = 8, style: Style = .plain) -> Screen {
        var s = Screen(width: width, height: rows.count)
        for (y, r) in rows.enumerated() { s.put(r, x: 0, y: y, style: style) }
        return s
    }

    @Test func noOldFrameOrANewSizeRedrawsEveryRow() {
        let f = frame(["ab", "cd"])
        #expect(Screen.diff(from: nil, to: f) == [Run(y: 0, x: 0, count: 8), Run(y: 1, x: 0, count: 8)])
        #expect(Screen.diff(from: frame(["ab"], width: 7), to: frame(["ab"])) == [Run(y: 0, x: 0, count: 8)])
        #expect(Screen.diff(from: f, to: f).isEmpty)
    }

    @Test func changedCellsMakeRunsAndTheLastColumnCounts() {
        let old = frame(["abcdefgh", "abcdefgh"])
        let new = frame(["aXYdefgZ", "abcdefgh"])
        #expect(Screen.diff(from: old, to: new) == [Run(y: 0, x: 1, count: 2), Run(y: 0, x: 7, count: 1)])
    }

    @Test func aStyleChangeAloneIsWritten() {
        let old = frame(["abc"])
        var new = old
        new.restyle(Rect(x: 1, y: 0, width: 1, height: 1)) { _ in Style(fg: .default, bg: .default, .bold) }
        #expect(Screen.diff(from: old, to: new) == [Run(y: 0, x: 1, count: 1)])
    }

    @Test func aWideGraphemeIsWrittenWithBothItsCells() {
        let old = frame(["ab漢cd"])
        let new = frame(["ab字cd"])
        #expect(Screen.diff(from: old, to: new) == [Run(y: 0, x: 2, count: 2)])
        // Narrow over wide: both old cells change; wide over narrow the same.
        let narrow = frame(["abxycd"])
        #expect(Screen.diff(from: old, to: narrow) == [Run(y: 0, x: 2, count: 2)])
        #expect(Screen.diff(from: narrow, to: old) == [Run(y: 0, x: 2, count: 2)])
        // A wide grapheme moved by one column.
        let shifted = frame(["abc漢d"])
        #expect(Screen.diff(from: old, to: shifted) == [Run(y: 0, x: 2, count: 3)])
        // In the last two columns.
        #expect(Screen.diff(from: frame(["abcdef漢"]), to: frame(["abcdef字"])) == [Run(y: 0, x: 6, count: 2)])
    }

    @Test func clustersWithZeroWidthMarksCompareByTheirWholeText() {
        let old = frame(["e\u{301}x"])
        #expect(Screen.diff(from: old, to: frame(["e\u{301}x"])).isEmpty)
        #expect(Screen.diff(from: old, to: frame(["e\u{300}x"])) == [Run(y: 0, x: 0, count: 1)])
        #expect(Screen.diff(from: old, to: frame(["ex"])) == [Run(y: 0, x: 0, count: 1)])
        // The same cluster stored at another index in the other frame is the same picture.
        var a = Screen(width: 8, height: 1)
        a.put("👩🏽‍💻e\u{301}", x: 0, y: 0, style: .plain)
        var b = Screen(width: 8, height: 1)
        b.put("e\u{301}", x: Screen.width(of: "👩🏽‍💻"), y: 0, style: .plain)
        b.put("👩🏽‍💻", x: 0, y: 0, style: .plain)
        #expect(Screen.diff(from: a, to: b).isEmpty)
    }
}

@Suite struct GoldenDiffTests {
    @Test func aDiffMarksChangedRowsAndKeepsTheRest() {
        let d = Golden.diff("one\ntwo\nthree", "one\n2\nthree\nfour")
        #expect(d == "  1   one\n  2 - two\n  2 + 2\n  3   three\n  4 + four")
    }

    @Test func aMissingFileFailsInWords() {
        let answer = Golden.check("x", "no-such-golden-\(UUID().uuidString)")
        #expect(answer?.contains("no golden file") == true)
    }
}
