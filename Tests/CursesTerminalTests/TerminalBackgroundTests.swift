import CursesTerminal
import Screen
import Testing

/// The answers terminals give to "what is your background?" (OSC 11), as xterm documents them:
/// `rgb:` with 1 to 4 hex digits a channel, ended by BEL or ST; and COLORFGBG's rxvt form.
@Suite struct TerminalBackgroundTests {
    @Test func repliesAreRead() {
        func reply(_ s: String) -> [UInt8] { Array(s.utf8) }
        #expect(TerminalBackground.parse(reply("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\")).map { [$0.0, $0.1, $0.2] } == [255, 255, 255])
        #expect(TerminalBackground.parse(reply("\u{1B}]11;rgb:0000/2b2b/3636\u{07}")).map { [$0.0, $0.1, $0.2] } == [0, 43, 54])
        #expect(
            TerminalBackground.parse(reply("\u{1B}]11;rgb:fd/f6/e3\u{1B}\\\u{1B}[?62;4c")).map { [$0.0, $0.1, $0.2] } == [253, 246, 227])
        #expect(TerminalBackground.parse(reply("\u{1B}]11;rgb:f/0/8\u{07}")).map { [$0.0, $0.1, $0.2] } == [255, 0, 136])
        // Only DA1 (no OSC 11), or nonsense: nothing.
        #expect(TerminalBackground.parse(reply("\u{1B}[?1;2c")) == nil)
        #expect(TerminalBackground.parse(reply("\u{1B}]11;rgb:zz/00/00\u{07}")) == nil)
        #expect(TerminalBackground.parse(reply("\u{1B}]11;rgb:12345/0/0\u{07}")) == nil)
        #expect(TerminalBackground.parse(reply("\u{1B}]11;rgb:ff/ff\u{07}")) == nil)
    }

    @Test func colorFGBG() {
        #expect(TerminalBackground.isLight(colorFGBG: "0;15") == true)
        #expect(TerminalBackground.isLight(colorFGBG: "15;0") == false)
        #expect(TerminalBackground.isLight(colorFGBG: "0;default;7") == true)
        #expect(TerminalBackground.isLight(colorFGBG: "7;8") == false)
        #expect(TerminalBackground.isLight(colorFGBG: "default") == nil)
        #expect(TerminalBackground.isLight(colorFGBG: "") == nil)
    }

    @Test func autoIsLightOrDark() {
        #expect(Theme.resolve("auto") { true } == "light")
        #expect(Theme.resolve("auto") { false } == "dark")
        #expect(Theme.resolve("auto") { nil } == "dark")
        #expect(Theme.resolve("solarized-dark") { true } == "solarized-dark")
    }
}
