import Screen
import Testing

/// The terminal's answers to the question asked at start come among the keys, whenever the
/// terminal sends them: strings (OSC 11's background, kitty's graphics OK), device attributes
/// and window reports are answers, never keys, whole or split at any byte.
@Suite struct KeyStreamAnswerTests {
    func inputs(_ s: String) -> [TerminalInput] { s.unicodeScalars.map { .char($0.value) } }

    /// As xterm 379 and kitty 0.26.5 answer (kitty ends OSC 11 with ST, xterm with what it was
    /// asked with; some terminals with BEL).
    static let answers = [
        "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\", "\u{1B}]11;rgb:0000/0000/0000\u{07}", "\u{1B}_Gi=31;OK\u{1B}\\",
        "\u{1B}[6;20;10t", "\u{1B}[?64;1;2;4;6;9;15;18;21;22c",
    ]

    @Test(arguments: answers) func anAnswerSplitAtEveryByteIsNoKey(_ answer: String) {
        let whole = inputs("a" + answer + "j")
        for cut in 0...whole.count {
            var stream = KeyStream()
            var keys = stream.feed(Array(whole[..<cut]), special: { _ in nil })
            // While it is awaited, what could begin an answer is held for its rest.
            if cut > 1 && cut < whole.count - 1 { #expect(stream.holdsReportStart, "cut at \(cut)") }
            keys += stream.feed(Array(whole[cut...]), special: { _ in nil })
            keys += stream.flush()
            #expect(keys == [.char("a"), .char("j")], "\(answer.debugDescription) cut at \(cut): \(keys)")
            #expect(stream.takeAnswers() == Array(answer.utf8))
            #expect(stream.takeAnswers().isEmpty)
        }
    }

    @Test func allTheAnswersInOneRead() {
        var stream = KeyStream()
        let all = Self.answers.joined()
        #expect(stream.feed(inputs(all), special: { _ in nil }).isEmpty)
        #expect(stream.takeAnswers() == Array(all.utf8))
        #expect(!stream.isPending)
    }

    /// Alt-] and Alt-_ typed are still keys: what follows them is not an answer's string when
    /// the wait is over, or when an Escape in it is not a string's end.
    @Test func typedAltBracketIsAKey() {
        var stream = KeyStream()
        #expect(stream.feed(inputs("\u{1B}]"), special: { _ in nil }).isEmpty)
        #expect(stream.flush() == [.alt("]")])
        #expect(KeyDecoder.decode(inputs("\u{1B}_x"), special: { _ in nil }) == [.alt("_"), .char("x")])
        #expect(KeyDecoder.decode(inputs("\u{1B}]\u{1B}[A"), special: { _ in nil }) == [.alt("]"), .up])
        #expect(stream.takeAnswers().isEmpty)
        // What no answer looks like is not held: a letter after Alt-], Enter inside.
        var typed = KeyStream()
        #expect(typed.feed(inputs("\u{1B}]x"), special: { _ in nil }) == [.alt("]"), .char("x")] && !typed.isPending)
        #expect(typed.feed(inputs("\u{1B}]11;r\r"), special: { _ in nil }).count == 6 && !typed.isPending)
        #expect(typed.feed(inputs("\u{1B}_x"), special: { _ in nil }) == [.alt("_"), .char("x")])
        // An Escape that waited (an answer was awaited) and then `]`: the Escape key, then `]`.
        var waited = KeyStream()
        #expect(waited.feed(inputs("\u{1B}"), special: { _ in nil }).isEmpty)
        waited.escapeWaitedOut()
        #expect(waited.feed(inputs("]"), special: { _ in nil }).isEmpty)
        #expect(waited.flush() == [.escape, .char("]")])
        // rxvt's Shift-Insert (`ESC [ 2 $`) is no answer's start; a mode report's is.
        var rxvt = KeyStream()
        _ = rxvt.feed(inputs("\u{1B}[2$"), special: { _ in nil })
        #expect(!rxvt.holdsReportStart)
        var report = KeyStream()
        _ = report.feed(inputs("\u{1B}[?2027;2$"), special: { _ in nil })
        #expect(report.holdsReportStart)
        #expect(report.feed(inputs("y"), special: { _ in nil }).isEmpty && report.takeModeReports().count == 1)
        // Longer than any answer: typed, not held for ever.
        let long = "\u{1B}]1" + String(repeating: "k", count: 600)
        var s = KeyStream()
        let keys = s.feed(inputs(long), special: { _ in nil })
        #expect(keys.first == .alt("]") && keys.count == 602 && !s.isPending)
    }
}
