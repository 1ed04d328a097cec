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
    }

    @Test func clusterWidthsComeFromTweetText() {
        #expect(Screen.width(of: "e\u{301}") == 1)
        #expect(Screen.width(of: "👨‍👩‍👧") == (DisplayWidth.mode == .grapheme ? 2 : 6))
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
                for clip in [
                    nil, Rect(x: 2, y: 0, width: 9, height: 2), Rect(x: 1, y: 0, width: 20, height: 1),
                    Rect(x: 0, y: 1, width: 30, height: 1),
                ] {
                    var viaLine = Screen(width: 30, height: 2)
                    var viaText = Screen(width: 30, height: 2)
                    for s in [0, 1] {
                        // Something already there: wide graphemes the line cuts into.
                        viaLine.put("漢字漢字漢字漢字漢字漢字漢字漢字", x: 0, y: s, style: .plain)
                        viaText.put("漢字漢字漢字漢字漢字漢字漢字漢字", x: 0, y: s, style: .plain)
                    }
                    let end = viaLine.put(line, x: x, y: 0, clip: clip, under: Style(bg: .indexed(3)))
                    var col = x
                    for span in spans {
                        col = viaText.put(span.text, x: col, y: 0, style: span.style.over(Style(bg: .indexed(3))), clip: clip)
                    }
                    #expect(end == col, "\(texts[i]) at \(x) in \(String(describing: clip))")
                    #expect(viaLine == viaText, "\(texts[i]) at \(x) in \(String(describing: clip))")
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

    @Test func keyNamesRoundTrip() {
        for k: Key in [.char("j"), .char(" "), .ctrl("d"), .alt("\r"), .pageDown, .backTab, .function(5), .escape] {
            #expect(Key(name: k.description) == k)
        }
        #expect(Key(name: "nonsense") == nil)
    }
}

@Suite struct ThemeTests {
    static let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Themes").standardized

    @Test func theShippedThemesLoadAndTheDefaultMatchesItsFile() throws {
        let env = ["LINNET_THEMES": Self.themes.path, "HOME": "/nonexistent"]
        let names = Theme.available(env)
        #expect(Set(["dark", "light", "solarized-dark", "mono"]).isSubset(of: Set(names)))
        for name in ["dark", "light", "solarized-dark", "mono"] {
            let t = try Theme.load(name, environment: env)
            #expect(t.name == name)
        }
        #expect(try Theme.load("dark", environment: env) == Theme.fallback)
        let mono = try Theme.load("mono", environment: env)
        for role in Theme.Role.allCases {
            #expect(mono[role].fg == .default && mono[role].bg == .default, "mono uses attributes only (\(role))")
        }
    }

    /// Every shipped theme is in the binary, as its file says; folders override it in the order
    /// the man page states: config home, then each data folder, first first.
    @Test func builtInThemesAndTheFoldersThatOverrideThem() throws {
        let bare = ["HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent"]
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.themes.path).filter { $0.hasSuffix(".toml") }
        #expect(files.count >= 4)
        for f in files {
            let name = String(f.dropLast(5))
            let text = try String(contentsOf: Self.themes.appendingPathComponent(f), encoding: .utf8)
            #expect(try Theme.load(name, environment: bare) == Theme.parse(text, file: f))
            #expect(Theme.sources(bare).contains { $0.name == name && $0.origin == "built in" })
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-themes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func put(_ dir: String, _ name: String) throws -> String {
            let folder = root.appendingPathComponent(dir).appendingPathComponent("linnet/themes")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("light.toml")
            try "name = \"\(name)\"\n[styles]\ntext = { fg = \"#000000\" }\n".write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        let second = try put("data2", "from-data2")
        let first = try put("data1", "from-data1")
        let config = try put("config", "from-config")
        var env = ["HOME": "/nonexistent", "XDG_DATA_DIRS": root.path + "/data1:" + root.path + "/data2"]
        #expect(try Theme.load("light", environment: env).name == "from-data1")
        #expect(Theme.sources(env).first { $0.name == "light" }?.origin == first)
        env["XDG_DATA_DIRS"] = root.path + "/data2"
        #expect(try Theme.load("light", environment: env).name == "from-data2")
        #expect(Theme.sources(env).first { $0.name == "light" }?.origin == second)
        env["XDG_CONFIG_HOME"] = root.path + "/config"
        #expect(try Theme.load("light", environment: env).name == "from-config")
        #expect(Theme.sources(env).first { $0.name == "light" }?.origin == config)
        #expect(try Theme.load("mono", environment: env).name == "mono")
    }

    @Test func brokenThemeFilesNameFileAndLine() {
        #expect(throws: Theme.LoadError(file: "bad.toml", line: 3, reason: "text.fg must be \"#rrggbb\", a number 0–255 or \"default\"")) {
            try Theme.parse("name = \"x\"\n[styles]\ntext = { fg = \"blue\" }\n", file: "bad.toml")
        }
        do {
            _ = try Theme.parse("name = \"x\"\n[styles]\ntext = { fg = \n", file: "broken.toml")
            Issue.record("a syntax error was accepted")
        } catch {
            #expect(error.file == "broken.toml")
            #expect(error.line == 3)
        }
        do {
            _ = try Theme.parse("[styles]\nsparkle = { bold = true }\n", file: "t.toml")
            Issue.record("an unknown role was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.reason.hasPrefix("unknown style \"sparkle\""))
        }
        #expect(throws: Theme.LoadError.self) { try Theme.load("no-such-theme", environment: ["HOME": "/nonexistent"]) }
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

/// Every shipped theme is readable on the background it is made for: each role's text on its
/// own background (and a card's on the selected card's) reaches WCAG's 4.5:1, secondary text
/// and marks 3:1, in the 256 colours Linnet draws with and in the 16 of an older terminal.
@Suite struct ThemeContrastTests {
    @Test(arguments: ["dark", "light", "solarized-dark", "mono"])
    func everyRoleIsReadable(_ name: String) throws {
        let theme = try Theme.load(name, environment: ["HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent"])
        for depth in [ColorDepth.full, .sixteen] {
            let all = theme.contrasts(at: depth)
            #expect(all.count >= Theme.Role.allCases.count - 1)
            for c in all where c.ratio < c.needed {
                Issue.record(
                    "\(name) at \(depth.rawValue) colours: \(c.role.rawValue) on \(c.on) background is \(c.ratio) (needs \(c.needed))")
            }
        }
    }

    @Test func contrastIsWCAGs() {
        #expect(abs(Contrast.ratio((0, 0, 0), (255, 255, 255)) - 21) < 1e-9)
        #expect(abs(Contrast.ratio((255, 255, 255), (255, 255, 255)) - 1) < 1e-9)
        // WCAG's own example values: #777777 on white is 4.48:1, just short of AA.
        #expect(abs(Contrast.ratio((0x77, 0x77, 0x77), (255, 255, 255)) - 4.48) < 0.01)
        #expect(Contrast.isLight((255, 255, 255)) && !Contrast.isLight((0, 0x2b, 0x36)))
    }
}
