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

/// Pictures through tmux (3.3's `allow-passthrough`): what tmux says, and the sequences' form
/// (tmux's manual: `\ePtmux;…\e\\`, each ESC inside doubled).
@Suite struct TmuxPassthroughTests {
    @Test func tmuxsAnswerIsRead() {
        let kitty = TmuxPassthrough.parse("1|kitty(0.26.5)|3|40|top|on\n")
        #expect(kitty == TmuxPassthrough(terminalType: "kitty(0.26.5)", top: 4, left: 40))
        #expect(kitty?.pictureMode == "kitty")
        #expect(TmuxPassthrough.parse("1|XTerm(379)|0|0|bottom|on")?.pictureMode == nil)
        #expect(TmuxPassthrough.parse("1|XTerm(379)|0|0|top|2")?.top == 2)
        // Not allowed, or not an answer: no passthrough.
        #expect(TmuxPassthrough.parse("0|kitty(0.26.5)|0|0|bottom|on") == nil)
        #expect(TmuxPassthrough.parse("unknown command") == nil)
    }

    @Test func picturesGoThroughOnlyWhereAllowed() {
        let env = ["TMUX": "/tmp/tmux-0/default,1,0"]
        let reply = Array("\u{1B}[?62;22c".utf8)
        #expect(TerminalProbe.pictureMode(reply: reply, environment: env) == "symbols")
        let through = TmuxPassthrough(terminalType: "kitty(0.26.5)", top: 0, left: 0)
        #expect(TerminalProbe.pictureMode(reply: reply, environment: env, tmux: through) == "kitty")
        let xterm = TmuxPassthrough(terminalType: "XTerm(379)", top: 0, left: 0)
        #expect(TerminalProbe.pictureMode(reply: reply, environment: env, tmux: xterm) == "symbols")
    }

    /// Each sequence its own passthrough, ESCs doubled; the outer cursor saved, moved to the
    /// pane's cell on the outer screen before the first and the last, and put back.
    @Test func sequencesAreWrappedAndPlaced() {
        let t = TmuxPassthrough(terminalType: "kitty(0.26.5)", top: 1, left: 40)
        let chunks = Array("\u{1B}_Ga=T,m=1;AAAA\u{1B}\\\u{1B}_Gm=1;BBBB\u{1B}\\\u{1B}_Gm=0;CCCC\u{1B}\\".utf8)
        let out = String(decoding: t.wrap(chunks, x: 2, y: 3), as: UTF8.self)
        let move = "\u{1B}\u{1B}[5;43H"
        #expect(
            out
                == "\u{1B}Ptmux;\u{1B}\u{1B}7\(move)\u{1B}\u{1B}_Ga=T,m=1;AAAA\u{1B}\u{1B}\\\u{1B}\\"
                + "\u{1B}Ptmux;\u{1B}\u{1B}_Gm=1;BBBB\u{1B}\u{1B}\\\u{1B}\\"
                + "\u{1B}Ptmux;\(move)\u{1B}\u{1B}_Gm=0;CCCC\u{1B}\u{1B}\\\u{1B}\u{1B}8\u{1B}\\")
        let delete = String(decoding: t.wrap(Array("\u{1B}_Ga=d,d=a,q=2\u{1B}\\".utf8)), as: UTF8.self)
        #expect(delete == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=a,q=2\u{1B}\u{1B}\\\u{1B}\\")
    }
}
