import CursesTerminal
import Screen
import Testing
import TweetText

/// The start-up question's answers, as terminals write them.
@Suite struct TerminalProbeTests {
    @Test func cursorReportsAreReadInOrderAmongTheOtherAnswers() {
        let reply = Array(
            "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[5;3R\u{1B}[5;3R\u{1B}[5;2R\u{1B}[5;3R\u{1B}[5;2R\u{1B}[5;5R\u{1B}[?62;4;22c"
                .utf8)
        #expect(TerminalProbe.cursorColumns(reply) == [3, 3, 2, 3, 2, 5])
        #expect(TerminalProbe.widthMode(reply) == .measured(.zwj))
        #expect(TerminalProbe.drawsKittyGraphics(reply))
        #expect(TerminalProbe.drawsSixel(reply))
        #expect(TerminalProbe.pictureMode(reply: reply, environment: [:]) == "kitty")
    }

    /// Asked again after a resize: the same samples on the given row, and the widths changed
    /// only when the answers say otherwise (answers as xterm 379 and tmux 3.3a give them).
    @Test func widthsAskedAgainChangeOnlyWhenTheAnswersDo() {
        let q = TerminalProbe.widthQuestion(row: 30)
        #expect(q.hasPrefix("\u{1B}7\u{1B}[30;1H\u{1B}[8m") && q.hasSuffix("\r\u{1B}[2K\u{1B}[0m\u{1B}8"))
        #expect(q.components(separatedBy: "\u{1B}[6n").count - 1 == ClusterKinds.samples.count)
        #expect(!TerminalProbe.widthQuestion(row: nil).contains("\u{1B}[30;1H"))
        let xterm = [5, 3, 2, 3, 2, 5]
        let tmux = [3, 3, 2, 3, 2, 5]
        #expect(TerminalProbe.remeasured(tmux, current: .perScalar) == .measured(.zwj))
        #expect(TerminalProbe.remeasured(tmux, current: .measured(.zwj)) == nil)
        #expect(TerminalProbe.remeasured(xterm, current: .measured(.zwj)) == .measured([]))
        #expect(TerminalProbe.remeasured(xterm, current: .perScalar) == nil)
        // Too few answers say nothing; mode 2027 is the terminal's own measure.
        #expect(TerminalProbe.remeasured([3, 3], current: .perScalar) == nil)
        #expect(TerminalProbe.remeasured(xterm, current: .grapheme) == nil)
    }

    @Test func silentTerminalsMeasureNothing() {
        let da1Only = Array("\u{1B}[?1;2c".utf8)
        #expect(TerminalProbe.widthMode(da1Only) == nil)
        #expect(!TerminalProbe.drawsSixel(da1Only) && !TerminalProbe.drawsKittyGraphics(da1Only))
        #expect(TerminalProbe.pictureMode(reply: da1Only, environment: ["TERM_PROGRAM": "iTerm.app"]) == "iterm")
        // iTerm2 inside tmux: tmux stands between, so blocks.
        #expect(TerminalProbe.pictureMode(reply: da1Only, environment: ["TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/t"]) == "symbols")
        #expect(TerminalProbe.pictureMode(reply: [], environment: [:]) == "symbols")
        // Sixel is attribute 4 of DA1, not any 4 in the reply.
        #expect(!TerminalProbe.drawsSixel(Array("\u{1B}[?64;1;2;6;9;15;18;21;22c".utf8)))
        #expect(TerminalProbe.drawsSixel(Array("\u{1B}[?63;1;2;4;6;9;15;22c".utf8)))
    }
}

/// Bold black is drawn grey (bright black) by terminals of 8 or 16 colours: Linnet leaves the
/// weight off there, and keeps it where the colour is chosen from 256.
@Suite struct BoldBlackTests {
    @Test func boldBlackStaysBlackOnFewColours() {
        let boldBlack = Style(fg: .rgb(0x30, 0x30, 0x30), bg: .rgb(0xda, 0xda, 0xda), .bold)
        #expect(CursesTerminal.sgr(boldBlack, depth: .eight) == "\u{1B}[0;30;47m")
        #expect(CursesTerminal.sgr(boldBlack, depth: .full).hasPrefix("\u{1B}[0;1;"))
        #expect(CursesTerminal.sgr(Style(fg: .indexed(4), .bold), depth: .eight) == "\u{1B}[0;1;34m")
    }
}

@Suite struct CellReportTests {
    @Test func theCellsPixelsFromCSI16t() {
        #expect(TerminalProbe.cellReport(Array("\u{1B}[?62;4c\u{1B}[6;20;10t".utf8)).map { [$0.width, $0.height] } == [10, 20])
        #expect(TerminalProbe.cellReport(Array("\u{1B}[6;0;10t".utf8)) == nil)
        #expect(TerminalProbe.cellReport(Array("\u{1B}[?1;2c".utf8)) == nil)
    }
}
