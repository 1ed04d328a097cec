import Testing
import TwitterSimulator

@testable import Screen

/// Where a row's stretches begin and end: the runs a diff finds, the blanks an erase covers.
@Suite struct ChangedRunTests {
    /// Rows of narrow cells where each cell changes or not at random, at every density: the
    /// runs are the stretches of changed cells, whatever their lengths and places.
    @Test func runsOfEveryLengthAreFound() {
        var rng = SimRandom(state: 37)
        var runs = 0
        for trial in 0..<2_000 {
            let width = Int.random(in: 1...41, using: &rng)
            let odds = [2, 5, 20, 50, 80, 95, 98][trial % 7]
            var old = Screen(width: width, height: 1)
            var new = old
            var changed = [Bool](repeating: false, count: width)
            for x in 0..<width {
                let st = Style(fg: .indexed(UInt8(x % 7)))
                old[x, 0] = Cell(code: UInt32(97 + x % 26), style: st)
                changed[x] = Int.random(in: 0..<100, using: &rng) < odds
                new[x, 0] = changed[x] ? Cell(code: UInt32(65 + x % 26), style: st) : old[x, 0]
            }
            var expected: [Screen.Run] = []
            var x = 0
            while x < width {
                guard changed[x] else {
                    x += 1
                    continue
                }
                let first = x
                while x < width, changed[x] { x += 1 }
                expected.append(Screen.Run(y: 0, x: first, count: x - first))
            }
            #expect(Screen.diff(from: old, to: new) == expected, "width \(width), odds \(odds)")
            runs += expected.count
        }
        #expect(runs > 5_000, "runs checked: \(runs)")
    }
}

/// The cells a row ends with, all alike (what one erase to the row's end writes), found as
/// words: where comparing them one by one finds them begin.
@Suite struct SameToEndTests {
    @Test func theRunFoundIsTheOneCellsShow() {
        var rng = SimRandom(seed: 20_261_129)
        var found = 0
        for _ in 0..<3000 {
            let width = Int.random(in: 1...40, using: &rng)
            var s = Screen(width: width, height: 2)
            var x = 0
            while x < width {
                let text = RowCompareTests.graphemes[Int.random(in: 0..<RowCompareTests.graphemes.count, using: &rng)]
                x = max(x + 1, s.put(text, x: x, y: 1, style: RowCompareTests.style(&rng)))
            }
            // Often blanks of one style to the end.
            if Bool.random(using: &rng) {
                let from = Int.random(in: 0..<width, using: &rng)
                _ = s.put(String(repeating: " ", count: width - from), x: from, y: 1, style: RowCompareTests.style(&rng))
            }
            let start = Int.random(in: 0..<width, using: &rng)
            var expected = width - 1
            while expected > start, s[expected - 1, 1] == s[width - 1, 1] { expected -= 1 }
            #expect(s.sameToEnd(row: 1, from: start) == expected, "width \(width), from \(start)")
            if start == 0 { #expect(s.sameToEnd(row: 1, from: -3) == expected, "width \(width), from before the row") }
            if expected < width - 2 { found += 1 }
        }
        #expect(found > 300, "rows ending in three alike or more: \(found)")
    }
}
