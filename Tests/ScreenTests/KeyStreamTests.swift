import Screen
import Testing

/// Keys are read right: every common form of the editing and function keys, split at every
/// byte across two reads; pastes between their markers; Escape, Alt and sequences told apart.
@Suite struct KeyStreamTests {
    static let forms: [(String, Key)] = [
        ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end), ("\u{1B}[H", .home),
        ("\u{1B}[F", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end), ("\u{1B}[2~", .insert), ("\u{1B}[3~", .delete),
        ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[A", .up), ("\u{1B}OB", .down), ("\u{1B}[1;5C", .right),
        ("\u{1B}[1;2D", .left), ("\u{1B}[3;5~", .delete), ("\u{1B}OP", .function(1)), ("\u{1B}[11~", .function(1)),
        ("\u{1B}[15~", .function(5)), ("\u{1B}[17~", .function(6)), ("\u{1B}[21~", .function(10)), ("\u{1B}[24~", .function(12)),
        ("\u{1B}[Z", .backTab),
    ]

    func inputs(_ s: String) -> [TerminalInput] { s.unicodeScalars.map { .char($0.value) } }

    @Test(arguments: forms) func everyFormSplitAtEveryByte(_ form: (String, Key)) {
        let whole = inputs(form.0)
        for cut in 0...whole.count {
            var stream = KeyStream()
            var keys = stream.feed(Array(whole[..<cut]), special: { _ in nil })
            keys += stream.feed(Array(whole[cut...]), special: { _ in nil })
            keys += stream.flush()
            #expect(keys == [form.1], "\(form.0.debugDescription) cut at \(cut): \(keys)")
        }
        // Between typed letters, in one read.
        #expect(KeyDecoder.decode(inputs("a" + form.0 + "b"), special: { _ in nil }) == [.char("a"), form.1, .char("b")])
    }

    @Test func escapeAltAndUnknownSequences() {
        var stream = KeyStream()
        // A lone Escape waits for what may follow; when nothing does, it is the Escape key.
        #expect(stream.feed(inputs("\u{1B}"), special: { _ in nil }).isEmpty && stream.isPending)
        #expect(stream.flush() == [.escape])
        #expect(KeyDecoder.decode(inputs("\u{1B}x"), special: { _ in nil }) == [.alt("x")])
        #expect(KeyDecoder.decode(inputs("\u{1B}\r"), special: { _ in nil }) == [.alt("\r")])
        #expect(KeyDecoder.decode(inputs("\u{1B}\u{1B}"), special: { _ in nil }) == [.escape, .escape])
        // Focus reports (mode 1004): the reader's presence, never typed into anything.
        #expect(KeyDecoder.decode(inputs("\u{1B}[Oq"), special: { _ in nil }) == [.focus(false), .char("q")])
        #expect(KeyDecoder.decode(inputs("\u{1B}[I"), special: { _ in nil }) == [.focus(true)])
    }

    @Test func pastesArriveWholeOverManyReads() {
        var stream = KeyStream()
        var keys = stream.feed(inputs("x\u{1B}[200~first line\r"), special: { _ in nil })
        #expect(keys == [.char("x")] && stream.isPasting)
        keys = stream.feed(inputs("second \u{1B}[A line\u{1B}[2"), special: { _ in nil })
        #expect(keys.isEmpty, "nothing inside a paste is a key: \(keys)")
        keys = stream.feed(inputs("01~y"), special: { _ in nil })
        #expect(keys == [.paste("first line\rsecond \u{1B}[A line"), .char("y")])
        #expect(!stream.isPending)
    }

    @Test func aLongPasteGoesInAsItComesAndNeverBecomesKeys() {
        var stream = KeyStream()
        #expect(stream.feed(inputs("\u{1B}[200~first\r"), special: { _ in nil }).isEmpty)
        #expect(stream.takePartialPaste() == .paste("first\r"))
        // Half the end marker has come: it waits for the rest.
        #expect(stream.feed(inputs("second\u{1B}[20"), special: { _ in nil }).isEmpty)
        #expect(stream.takePartialPaste() == .paste("second") && stream.isPasting)
        #expect(stream.feed(inputs("1~x"), special: { _ in nil }) == [.char("x")])
        #expect(!stream.isPending)
    }

    /// The terminal's answers to the question at start arrive among the keys, whenever they
    /// come, split or not: they are taken as answers, never typed.
    @Test func modeReportsAreAnswersNotKeys() {
        var stream = KeyStream()
        var keys = stream.feed(inputs("j\u{1B}[?2027;2"), special: { _ in nil })
        keys += stream.feed(inputs("$yk\u{1B}[?2004;1$y\u{1B}[?62;22c"), special: { _ in nil })
        keys += stream.flush()
        #expect(keys == [.char("j"), .char("k")])
        let reports = stream.takeModeReports()
        #expect(reports.map(\.mode) == [2027, 2004] && reports.map(\.state) == [2, 1])
        #expect(stream.takeModeReports().isEmpty)
    }

    /// Cursor reports answer the widths asked after a resize: taken apart from the keys, a
    /// report split between reads too; row 1 is modified F3's form and is neither.
    @Test func cursorReportsAreAnswersNotKeys() {
        var stream = KeyStream()
        var keys = stream.feed(inputs("j\u{1B}[30;3R\u{1B}[30"), special: { _ in nil })
        keys += stream.feed(inputs(";5Rk\u{1B}[1;2R"), special: { _ in nil })
        keys += stream.flush()
        #expect(keys == [.char("j"), .char("k")])
        let reports = stream.takeCursorReports()
        #expect(reports.map(\.row) == [30, 30] && reports.map(\.column) == [3, 5])
        #expect(stream.takeCursorReports().isEmpty)
        // What may still become a report is said to be one's start (the terminal holds it
        // while answers are due); anything else is not.
        for (start, could) in [("\u{1B}", true), ("\u{1B}[", true), ("\u{1B}[30;", true), ("\u{1B}O", false), ("\u{1B}[<0", false)] {
            var s = KeyStream()
            _ = s.feed(inputs(start), special: { _ in nil })
            #expect(s.holdsReportStart == could, "\(start.debugDescription)")
        }
        // An Escape held past its wait for a report: a key after it is the Escape key and that
        // key, not Alt with it; a `[` after it is the report it was.
        var held = KeyStream()
        #expect(held.feed(inputs("\u{1B}"), special: { _ in nil }).isEmpty && held.holdsLoneEscape)
        held.escapeWaitedOut()
        #expect(held.feed(inputs("j"), special: { _ in nil }) == [.escape, .char("j")])
        _ = held.feed(inputs("\u{1B}"), special: { _ in nil })
        held.escapeWaitedOut()
        #expect(held.feed(inputs("[30;3R"), special: { _ in nil }).isEmpty)
        #expect(held.takeCursorReports().map(\.column) == [3])
        // Let go at last, it is the Escape key, and Alt keys after it are Alt keys again.
        _ = held.feed(inputs("\u{1B}"), special: { _ in nil })
        held.escapeWaitedOut()
        #expect(held.flush() == [.escape])
        #expect(held.feed(inputs("\u{1B}x"), special: { _ in nil }) == [.alt("x")])
    }
}
