import Glibc
import Testing

@testable import CursesTerminal

/// Graphemes reach ncurses in a form whose wcwidth equals the cells the screen gave them.
@Suite struct TerminalFormTests {
    init() { CursesTerminal.useUTF8Locale() }

    func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    @Test func plainAndWideGraphemesPassThrough() {
        #expect(CursesTerminal.terminalForm(scalars("a"), cells: 1) == ([97], nil))
        #expect(CursesTerminal.terminalForm(scalars("漢"), cells: 2) == (scalars("漢"), nil))
        #expect(CursesTerminal.terminalForm(scalars("e\u{301}"), cells: 1) == (scalars("e\u{301}"), nil))
        #expect(CursesTerminal.terminalForm(scalars("🐦"), cells: 2) == (scalars("🐦"), nil))
    }

    @Test func sequencesBecomeFormsOfTheRightWidth() {
        // A text-default base with VS16: the base, then a space for the second cell.
        #expect(CursesTerminal.terminalForm(scalars("☀️"), cells: 2) == ([0x2600], [32]))
        // ZWJ sequences: the first emoji only.
        #expect(CursesTerminal.terminalForm(scalars("👩‍💻"), cells: 2) == ([0x1F469], nil))
        #expect(CursesTerminal.terminalForm(scalars("🏳️‍🌈"), cells: 2) == ([0x1F3F3], [32]))
        // Skin tones are spacing scalars to wcwidth: dropped.
        #expect(CursesTerminal.terminalForm(scalars("👍🏽"), cells: 2) == ([0x1F44D], nil))
        // Flags: two regional indicators, one per cell.
        #expect(CursesTerminal.terminalForm(scalars("🇯🇵"), cells: 2) == ([0x1F1EF], [0x1F1F5]))
        // Keycaps keep their enclosing mark.
        #expect(CursesTerminal.terminalForm(scalars("1️⃣"), cells: 2) == ([0x31, 0x20E3], [32]))
    }
}
