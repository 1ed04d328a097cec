import Screen
import Testing

/// SGR mouse reports (mode 1006) read as mouse keys, across reads, and nothing of them ever
/// typed: motion and sideways wheels are dropped, modifiers do not change the button.
@Suite struct MouseKeyTests {
    static let reports: [(String, Mouse?)] = [
        ("\u{1B}[<0;10;5M", Mouse(.press(0), x: 9, y: 4)),
        ("\u{1B}[<0;10;5m", Mouse(.release, x: 9, y: 4)),
        ("\u{1B}[<2;1;1M", Mouse(.press(2), x: 0, y: 0)),
        ("\u{1B}[<64;40;12M", Mouse(.wheelUp, x: 39, y: 11)),
        ("\u{1B}[<65;40;12M", Mouse(.wheelDown, x: 39, y: 11)),
        ("\u{1B}[<16;300;200M", Mouse(.press(0), x: 299, y: 199)),  // ctrl-click, far past 223 columns
        ("\u{1B}[<32;10;5M", nil),  // motion with a button held
        ("\u{1B}[<35;10;5M", nil),  // motion
        ("\u{1B}[<66;10;5M", nil),  // wheel left
        ("\u{1B}[<0;0;5M", nil),  // no column 0
    ]

    func inputs(_ s: String) -> [TerminalInput] { s.unicodeScalars.map { .char($0.value) } }

    @Test(arguments: reports) func everyReportSplitAtEveryByte(_ r: (String, Mouse?)) {
        let whole = inputs(r.0)
        for cut in 0...whole.count {
            var stream = KeyStream()
            var keys = stream.feed(Array(whole[..<cut]), special: { _ in nil })
            keys += stream.feed(Array(whole[cut...]), special: { _ in nil })
            keys += stream.flush()
            #expect(keys == (r.1.map { [Key.mouse($0)] } ?? []), "\(r.0.debugDescription) cut at \(cut): \(keys)")
        }
        #expect(
            KeyDecoder.decode(inputs("a" + r.0 + "b"), special: { _ in nil }) == [.char("a")] + (r.1.map { [Key.mouse($0)] } ?? []) + [
                .char("b")
            ])
    }
}
