import Glibc
import Screen
import Testing
import TweetText

@testable import CursesTerminal

/// Every scalar of every grapheme reaches the terminal: through ncurses when it measures the
/// grapheme as the screen does (a base and marks that take no room), otherwise written whole at
/// its place with the cursor and attributes saved and restored around it. Both width modes:
/// per scalar (most terminals) and grapheme clusters (mode 2027).
@Suite struct TerminalFormTests {
    init() { CursesTerminal.useUTF8Locale() }

    func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// What reaches the terminal for a grapheme in a mode: the plan, and the bytes written raw.
    func written(_ g: Character, _ mode: WidthMode) -> (cells: Int, plan: CursesTerminal.ClusterPlan) {
        let cells = DisplayWidth.of(g, mode: mode)
        return (cells, CursesTerminal.plan(scalars(String(g)), cells: cells, width: DisplayWidth.scalarWidth))
    }

    static let samples: [(String, String)] = [
        ("Devanagari", "नमस्ते दुनिया हिन्दी"), ("Bengali", "ক্ষমা বাংলা"), ("Tamil", "ஸ்ரீ தமிழ்"), ("Thai", "ก่อน ภาษาไทย"),
        ("Hangul jamo", "\u{1112}\u{1161}\u{11AB}"), ("Arabic with marks", "بِسْمِ"), ("ZWJ family", "👨‍👩‍👧‍👦"),
        ("skin tone", "👩🏽‍💻 👍🏽"), ("flags", "🇯🇵🏳️‍🌈"), ("keycap", "1️⃣#️⃣"),
    ]

    @Test(arguments: samples) func nothingIsDropped(_ sample: (String, String)) {
        for mode in [WidthMode.perScalar, .grapheme] {
            var out: [UInt32] = []
            for g in sample.1 {
                switch written(g, mode).plan {
                case .ncurses(let s): out += s
                case .raw:
                    let bytes = CursesTerminal.rawBytes(scalars(String(g)), x: 0, y: 0, sgr: "")
                    // ESC 7, ESC [1;1H, the grapheme, ESC 8.
                    let text = String(decoding: bytes.dropFirst(2 + 6).dropLast(2), as: UTF8.self)
                    out += scalars(text)
                }
            }
            #expect(out == scalars(sample.1), "\(sample.0) in \(mode): \(out) for \(scalars(sample.1))")
        }
    }

    @Test func perScalarWidthsAreWhatTerminalsAdvance() {
        // As tmux and xterm advance (measured with cursor reports): a consonant 1, a virama or
        // vowel sign 0; the conjunct स्ते takes 2.
        #expect(DisplayWidth.of("नमस्ते") == 4)
        #expect(DisplayWidth.of(Character("स्ते"), mode: .perScalar) == 2)
        #expect(DisplayWidth.of(Character("स्ते"), mode: .grapheme) == 1)
        #expect(DisplayWidth.of("ஸ்ரீ") == 2)
        #expect(DisplayWidth.of(Character("ก่"), mode: .perScalar) == 1)
        #expect(DisplayWidth.of(Character("\u{1112}\u{1161}\u{11AB}"), mode: .perScalar) == 2)
        #expect(DisplayWidth.of(Character("👨‍👩‍👧‍👦"), mode: .perScalar) == 8)
        #expect(DisplayWidth.of(Character("👨‍👩‍👧‍👦"), mode: .grapheme) == 2)
        #expect(DisplayWidth.of(Character("🇯🇵"), mode: .perScalar) == 2)
        #expect(DisplayWidth.of(Character("1️⃣"), mode: .perScalar) == 1)
        #expect(DisplayWidth.of(Character("1️⃣"), mode: .grapheme) == 2)
    }

    @Test func theWriterForEachKind() {
        // A base with marks that take no room: one ncurses cell, all scalars in it.
        #expect(written("e\u{301}", .perScalar).plan == .ncurses(scalars("e\u{301}")))
        #expect(written("ก่", .perScalar).plan == .ncurses(scalars("ก่")))
        #expect(written(Character("\u{1112}\u{1161}\u{11AB}"), .perScalar).plan == .ncurses(scalars("\u{1112}\u{1161}\u{11AB}")))
        #expect(written("1️⃣", .perScalar).plan == .ncurses([0x31, 0xFE0F, 0x20E3]))
        #expect(written("漢", .perScalar).plan == .ncurses(scalars("漢")))
        // Two scalars that take room, more than ncurses keeps, or a cluster the terminal draws
        // wider than its base: written whole.
        for text in ["स्ते", "ক্ষ", "👨‍👩‍👧‍👦", "👍🏽", "🇯🇵", "🏳️‍🌈"] {
            #expect(written(Character(text), .perScalar).plan == .raw, "\(text)")
        }
        #expect(written("1️⃣", .grapheme).plan == .raw)
        #expect(written("☀️", .grapheme).plan == .raw)
    }

    @Test func rawBytesAreGolden() {
        var style = Style(fg: .indexed(4), bg: .indexed(236))
        style.attributes = [.bold]
        let sgr = CursesTerminal.sgr(style, depth: .full)
        #expect(sgr == "\u{1B}[0;1;34;48;5;236m")
        let bytes = CursesTerminal.rawBytes(scalars("स्ते"), x: 5, y: 2, sgr: sgr)
        let expected = Array("\u{1B}7\u{1B}[3;6H\u{1B}[0;1;34;48;5;236mस्ते\u{1B}8".utf8)
        #expect(bytes == expected)
        #expect(CursesTerminal.sgr(Style(fg: .indexed(9), bg: .default), depth: .full) == "\u{1B}[0;91m")
        #expect(CursesTerminal.sgr(style, depth: .none) == "\u{1B}[0;1m")
    }

    /// A grapheme Linnet wrote itself sits on cells ncurses believes blank: when the next frame
    /// has blanks (or other text) there, those cells are written again by Linnet, so the old
    /// grapheme does not stay on the terminal.
    @Test func cellsAnOldGraphemeCoveredAreWrittenAgain() {
        var before = Screen(width: 20, height: 2, fill: .plain)
        before.put("ab 👨‍👩‍👧 cd", x: 0, y: 0, style: .plain)
        before.put("plain", x: 0, y: 1, style: .plain)
        var after = Screen(width: 20, height: 2, fill: .plain)
        after.put("ab", x: 0, y: 0, style: .plain)
        after.put("plain too", x: 0, y: 1, style: .plain)
        let runs = Screen.diff(from: before, to: after)
        let stale = CursesTerminal.staleRawSpans(from: before, runs: runs)
        // Measured per scalar (the default), the family takes 6 cells from column 3.
        let width = before.span(3, 0)
        #expect(stale.count == 1 && stale[0].y == 0 && stale[0].x == 3 && stale[0].end == 3 + width && width >= 2, "\(stale)")
        let bytes = String(decoding: CursesTerminal.repaintBytes(stale, in: after, depth: .full), as: UTF8.self)
        let blanks = (3..<(3 + width)).map { "\u{1B}7\u{1B}[1;\($0 + 1)H\u{1B}[0m \u{1B}8" }.joined()
        #expect(bytes == blanks, "\(bytes.debugDescription)")
        // The same grapheme again in the new frame (bold now): `present` writes it with its row,
        // so it is not written a second time here.
        var bolder = Screen(width: 20, height: 2, fill: .plain)
        bolder.put("ab 👨‍👩‍👧 cd", x: 0, y: 0, style: Style(fg: .default, bg: .default, [.bold]))
        let again = CursesTerminal.staleRawSpans(from: before, runs: Screen.diff(from: before, to: bolder))
        #expect(again.count == 1)
        #expect(CursesTerminal.repaintBytes(again, in: bolder, depth: .full).isEmpty)
        // One scalar the C library does not measure as Linnet does (U+1FAE8, Unicode 15: two
        // columns to Linnet, unknown to glibc 2.36) is written by Linnet too, so a frame that
        // holds it has graphemes of its own and its cells are written again when they change.
        var shaking = Screen(width: 20, height: 1, fill: .plain)
        shaking.put("a \u{1FAE8} b", x: 0, y: 0, style: .plain)
        // As `plan` (the C library's wcwidth) decides it for the one scalar.
        let measuredAlike = CursesTerminal.plan([0x1FAE8], cells: shaking.span(2, 0)) != .raw
        #expect(CursesTerminal.hasRaw(shaking) == !measuredAlike)
        let blank = Screen(width: 20, height: 1, fill: .plain)
        let gone = CursesTerminal.staleRawSpans(from: shaking, runs: Screen.diff(from: shaking, to: blank))
        #expect(gone.contains { $0.x == 2 } == !measuredAlike, "\(gone)")
        // Nothing Linnet wrote before: nothing to write again.
        #expect(CursesTerminal.staleRawSpans(from: after, runs: Screen.diff(from: after, to: before)).isEmpty)
        #expect(CursesTerminal.staleRawSpans(from: nil, runs: runs).isEmpty)
    }
}

@Suite struct ClipboardBytesTests {
    @Test func osc52CarriesTheTextInBase64() {
        #expect(CursesTerminal.osc52("https://x.com/a/status/1") == "\u{1B}]52;c;aHR0cHM6Ly94LmNvbS9hL3N0YXR1cy8x\u{07}")
        // Whatever the text holds, nothing of it reaches the terminal as a control.
        #expect(!CursesTerminal.osc52("a\u{1B}[31mb\u{07}").dropFirst(7).dropLast().contains("\u{1B}"))
    }
}

@Suite struct NotificationBytesTests {
    @Test func osc777AndOsc9WithoutControls() {
        let bytes = CursesTerminal.notification(title: "Linnet: @ann mentioned you", body: "hi\u{1B}]52;c;evil\u{07} there; ok")
        #expect(
            bytes.hasPrefix("\u{1B}]777;notify;Linnet: @ann mentioned you;hi]52c")
                && bytes.contains("\u{1B}]9;Linnet: @ann mentioned you: hi"))
        // Exactly two escape sequences, each ended by BEL, nothing from the text able to end one early.
        #expect(bytes.filter { $0 == "\u{1B}" }.count == 2 && bytes.filter { $0 == "\u{07}" }.count == 2)
    }
}
