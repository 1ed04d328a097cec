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

    /// The text of bytes written, escape sequences (CSI, OSC) left out.
    static func text(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == 0x5B {
                i += 2
                while i < bytes.count, !(0x40...0x7E).contains(bytes[i]) { i += 1 }
                i += 1
            } else if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == 0x5D {
                while i + 1 < bytes.count, !(bytes[i] == 0x1B && bytes[i + 1] == 0x5C) { i += 1 }
                i += 2
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: samples) func nothingIsDropped(_ sample: (String, String)) {
        for mode in [WidthMode.perScalar, .grapheme] {
            DisplayWidth.$mode.withValue(mode) {
                var screen = Screen(width: 80, height: 1)
                _ = screen.put(sample.1, x: 0, y: 0, style: .plain)
                var writer = FrameWriter(abilities: .xterm, depth: .full)
                var bytes: [UInt8] = []
                writer.frame(screen, runs: Screen.diff(from: nil, to: screen), shift: nil, full: true, into: &bytes)
                // Blanks apart (a whole frame leaves plain ones to the clear, a grapheme a
                // terminal may measure otherwise is written over its cells blanked).
                let written = scalars(Self.text(bytes).replacingOccurrences(of: " ", with: ""))
                #expect(written == scalars(sample.1.replacingOccurrences(of: " ", with: "")), "\(sample.0) in \(mode)")
            }
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
        // A base with marks that take no room: the cursor moves as the screen measures.
        #expect(written("e\u{301}", .perScalar).plan == .alike)
        #expect(written("ก่", .perScalar).plan == .alike)
        #expect(written(Character("\u{1112}\u{1161}\u{11AB}"), .perScalar).plan == .alike)
        #expect(written("1️⃣", .perScalar).plan == .alike)
        #expect(written("漢", .perScalar).plan == .alike)
        // Two scalars that take room, or a cluster the terminal may draw wider than its base:
        // the next cell is found by a move.
        for text in ["स्ते", "ক্ষ", "👨‍👩‍👧‍👦", "👍🏽", "🇯🇵", "🏳️‍🌈"] {
            #expect(written(Character(text), .perScalar).plan == .apart, "\(text)")
        }
        #expect(written("1️⃣", .grapheme).plan == .apart)
        #expect(written("☀️", .grapheme).plan == .apart)
    }

    @Test func writerBytesAreGolden() {
        var style = Style(fg: .indexed(4), bg: .indexed(236))
        style.attributes = [.bold]
        let sgr = CursesTerminal.sgr(style, depth: .full)
        #expect(sgr == "\u{1B}[0;1;34;48;5;236m")
        #expect(CursesTerminal.sgr(Style(fg: .indexed(9), bg: .default), depth: .full) == "\u{1B}[0;91m")
        #expect(CursesTerminal.sgr(style, depth: .none) == "\u{1B}[0;1m")
        var screen = Screen(width: 12, height: 3)
        _ = screen.put("ab", x: 0, y: 0, style: .plain)
        _ = screen.put("स्ते x", x: 5, y: 2, style: style)
        var writer = FrameWriter(abilities: .xterm, depth: .full)
        var bytes: [UInt8] = []
        writer.frame(screen, runs: Screen.diff(from: nil, to: screen), shift: nil, full: true, into: &bytes)
        writer.cursor(screen, moved: !bytes.isEmpty, into: &bytes)
        // The clear (the cursor home), then each cell that is not a plain blank. स्ते, which a
        // terminal may measure otherwise, goes over its cells blanked, and the next cell is
        // found by a move.
        let expected =
            "\u{1B}[0m\u{1B}[H\u{1B}[2Jab\u{1B}[3;6H\u{1B}[0;1;34;48;5;236m  \u{1B}[3;6Hस्ते\u{1B}[3;8H x\u{1B}[?25l"
        #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        // The same frame again: nothing to write, the cursor already hidden.
        var again: [UInt8] = []
        writer.frame(screen, runs: Screen.diff(from: screen, to: screen), shift: nil, full: false, into: &again)
        writer.cursor(screen, moved: false, into: &again)
        #expect(again.isEmpty)
    }

    /// Terminfo's padding is for `tputs` to wait: a terminal would print it.
    @Test func terminfoPaddingIsLeftOut() {
        #expect(TerminalAbilities.withoutDelays(Array("\u{1B}[H\u{1B}[J$<50>".utf8)) == Array("\u{1B}[H\u{1B}[J".utf8))
        #expect(TerminalAbilities.withoutDelays(Array("a$<5*/>b$c$<".utf8)) == Array("ab$c$<".utf8))
    }

    /// A grapheme gone: its cells are written (here erased to the row's end), whatever the
    /// terminal drew it as.
    @Test func cellsAnOldGraphemeCoveredAreWrittenAgain() {
        var before = Screen(width: 20, height: 2)
        _ = before.put("ab 👨‍👩‍👧 cd", x: 0, y: 0, style: .plain)
        var after = Screen(width: 20, height: 2)
        _ = after.put("ab", x: 0, y: 0, style: .plain)
        var writer = FrameWriter(abilities: .xterm, depth: .full)
        var bytes: [UInt8] = []
        writer.frame(after, runs: Screen.diff(from: before, to: after), shift: nil, full: false, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[1;4H\u{1B}[0m\u{1B}[K")
        // Without `bce` too: the blanks are of the default background.
        writer.abilities.backColorErase = false
        writer.forget()
        bytes = []
        writer.frame(after, runs: Screen.diff(from: before, to: after), shift: nil, full: false, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[1;4H\u{1B}[0m\u{1B}[K")
        // A band's blanks on such a terminal are written, not erased.
        var band = Screen(width: 20, height: 2)
        band.fill(Rect(x: 0, y: 0, width: 20, height: 1), style: Style(bg: .indexed(24)))
        bytes = []
        writer.frame(band, runs: Screen.diff(from: after, to: band), shift: nil, full: false, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[1;1H\u{1B}[0;48;5;24m" + String(repeating: " ", count: 20))
    }
}

extension TerminalFormTests {
    /// Blanks to a row's end are erased from three on, written when fewer (an erase is longer).
    @Test func threeBlanksToTheEndAreErasedTwoWritten() {
        var writer = FrameWriter(abilities: .xterm, depth: .full)
        func bytes(_ was: String, _ now: String) -> String {
            var (before, after) = (Screen(width: 8, height: 2), Screen(width: 8, height: 2))
            _ = before.put(was, x: 0, y: 0, style: .plain)
            _ = after.put(now, x: 0, y: 0, style: .plain)
            var out: [UInt8] = []
            writer.forget()
            writer.frame(after, runs: Screen.diff(from: before, to: after), shift: nil, full: false, into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        #expect(bytes("abcdef", "abc") == "\u{1B}[1;4H\u{1B}[0m\u{1B}[K")
        #expect(bytes("abcde", "abc") == "\u{1B}[1;4H\u{1B}[0m  ")
        #expect(bytes("abcdefgh", "abcdefxy") == "\u{1B}[1;7H\u{1B}[0mxy")
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
