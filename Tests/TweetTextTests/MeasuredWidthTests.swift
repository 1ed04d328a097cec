import Testing
import TweetText

/// Widths as a terminal was measured drawing them: each kind of cluster terminals disagree on
/// counted per scalar, or as one cluster where the terminal was seen joining it.
@Suite struct MeasuredWidthTests {
    @Test func kindsOfClusters() {
        func kinds(_ s: String) -> ClusterKinds { ClusterKinds.kinds(of: Array(s.unicodeScalars)) }
        #expect(kinds("\u{1F9D1}\u{200D}\u{1F680}") == .zwj)
        #expect(kinds("\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}") == [.zwj, .skinTone])
        #expect(kinds("\u{1F1EF}\u{1F1F5}") == .flag)
        #expect(kinds("\u{2764}\u{FE0F}") == .vs16)
        #expect(kinds("\u{231A}\u{FE0E}") == .vs15)
        #expect(kinds("1\u{FE0F}\u{20E3}") == .keycap)
        #expect(kinds("\u{1F44D}\u{1F3FD}") == .skinTone)
        #expect(kinds("e\u{301}").isEmpty)
    }

    /// tmux 3.3 as measured here: ZWJ sequences joined (2 cells), skin tones not (4).
    @Test func aTerminalThatJoinsSomeKinds() {
        let tmux = ClusterKinds.fromMeasured([2, 2, 1, 2, 1, 4])
        #expect(tmux == .zwj)
        let mode = WidthMode.measured(.zwj)
        #expect(DisplayWidth.of(Character("\u{1F9D1}\u{200D}\u{1F680}"), mode: mode) == 2)
        // A ZWJ sequence with a skin tone in it is joined only where both kinds are.
        #expect(DisplayWidth.of(Character("\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}"), mode: mode) == 6)
        #expect(DisplayWidth.of(Character("\u{1F44D}\u{1F3FD}"), mode: mode) == 4)
        #expect(DisplayWidth.of(Character("\u{2764}\u{FE0F}"), mode: mode) == 1)
        // Text outside these kinds is as per scalar.
        #expect(
            DisplayWidth.of(Character("\u{0915}\u{094D}\u{0937}"), mode: mode)
                == DisplayWidth.of(Character("\u{0915}\u{094D}\u{0937}"), mode: .perScalar))
    }

    @Test func aTerminalThatJoinsEveryKindIsClusterWidthsThroughout() {
        let all = ClusterKinds.fromMeasured([2, 2, 2, 1, 2, 2])
        // A flag is two cells both ways here, so it is never told apart.
        #expect(all == [.zwj, .vs16, .vs15, .keycap, .skinTone])
        for s in ClusterKinds.samples {
            #expect(DisplayWidth.of(Character(s.text), mode: .measured(all!)) == DisplayWidth.of(Character(s.text), mode: .grapheme))
        }
        // A terminal that matches neither rule for a kind keeps today's rule for it; missing
        // answers are no measurement.
        #expect(ClusterKinds.fromMeasured([3, 2, 1, 2, 1, 4]) == [])
        #expect(ClusterKinds.fromMeasured([2, 2]) == nil)
    }
}
