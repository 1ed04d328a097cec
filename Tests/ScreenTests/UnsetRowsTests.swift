import Testing
import TweetText
import TwitterSimulator

@testable import Screen

/// A screen whose rows are filled when first written (`Screen+Unset`) ends as one filled from
/// the start: over random writes of every kind, rows taken from a frame before among them.
@Suite struct UnsetRowsTests {
    static let fill = Style(fg: .indexed(7), bg: .indexed(4))

    @Test func rowsNotWrittenReadAsBlanksAndSettleSo() {
        var s = Screen(width: 12, height: 5, fill: Self.fill, unset: 1..<4)
        #expect(s[3, 2] == Cell(style: Self.fill) && s[0, 0] == Cell(style: Self.fill))
        s.settle()
        #expect(s == Screen(width: 12, height: 5, fill: Self.fill))
        // Rows past the screen's edges are left out.
        var edges = Screen(width: 12, height: 5, fill: Self.fill, unset: -3..<9)
        edges.put("x", x: 0, y: 4, style: .plain)
        edges.settle()
        var filled = Screen(width: 12, height: 5, fill: Self.fill)
        filled.put("x", x: 0, y: 4, style: .plain)
        #expect(edges == filled)
    }

    @Test func everyWriteLeavesWhatAFilledScreenHolds() {
        var rng = SimRandom(state: 20_261_129)
        func next(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }
        let card = RowSourceTests.card
        let (w, h) = (30, 8)
        var differing: [Int] = []
        var (takenWhole, takenClipped) = (0, 0)
        for round in 0..<1_500 {
            // A frame before with the card's lines named from row 1 (over the whole width, or a clip).
            let place =
                next(2) == 0
                ? RowPlace(x: 2, left: 0, right: w, fill: Self.fill, band: nil, bar: nil)
                : RowPlace(x: 2, left: 3, right: 20, fill: Self.fill, band: nil, bar: nil)
            var before = Screen(width: w, height: h, fill: Self.fill)
            let clip = Rect(x: place.left, y: 0, width: place.right - place.left, height: h)
            for (i, l) in card.enumerated() { before.put(l, x: place.x, y: 1 + i, clip: clip) }
            before.name(rows: 1, card, count: card.count, at: place)
            let lo = next(h)
            let rows = lo..<max(lo + 1, next(h + 1))
            var a = Screen(width: w, height: h, fill: Self.fill, unset: rows)
            var b = Screen(width: w, height: h, fill: Self.fill)
            for _ in 0..<(1 + next(5)) {
                let (x, y) = (next(w + 4) - 2, next(h))
                let r = Rect(x: next(w) - 2, y: next(h) - 1, width: next(w), height: next(4))
                let style = Style(fg: .indexed(UInt8(next(8))))
                switch next(7) {
                case 0:
                    let text = ["word", "漢字 x", "e\u{301}", "▲ 3 · é", "👍🏽 a"][next(5)]
                    #expect(a.put(text, x: x, y: y, style: style) == b.put(text, x: x, y: y, style: style))
                case 1:
                    let l = card[next(card.count)]
                    #expect(a.put(l, x: x, y: y, clip: r) == b.put(l, x: x, y: y, clip: r))
                case 2:
                    let cell = Cell(code: UInt32(0x61 + next(26)), style: style)
                    let at = (max(0, min(w - 1, x)), y)
                    (a[at.0, at.1], b[at.0, at.1]) = (cell, cell)
                case 3:
                    a.fill(r, style: style)
                    b.fill(r, style: style)
                case 4:
                    a.lay(style, over: r)
                    b.lay(style, over: r)
                case 5:
                    a.restyle(r) { $0.over(style) }
                    b.restyle(r) { $0.over(style) }
                default:
                    // The card taken from the frame before (rows the take's place covers only).
                    let to = next(h - 1)
                    // Rows holding the fill only, as a frame's are before its cards are drawn.
                    let blank = Cell(style: Self.fill)
                    if (place.left..<place.right).allSatisfy({ b[$0, to] == blank && b[$0, to + 1] == blank }) {
                        if Screen.has(a.unset, to) || Screen.has(a.unset, to + 1) {
                            if place.left == 0 { takenWhole += 1 } else { takenClipped += 1 }
                        }
                        let took = a.take(rows: 1, of: before, to: to, card, count: card.count, at: place)
                        #expect(took == b.take(rows: 1, of: before, to: to, card, count: card.count, at: place))
                    }
                }
            }
            a.settle()
            if a != b || a.text != b.text { differing.append(round) }
        }
        #expect(differing.isEmpty, "\(differing.count) rounds differ, first: \(differing.prefix(5))")
        // Rows not written yet were taken, over the whole width and within a clip.
        #expect(takenWhole > 50 && takenClipped > 50, "taken: \(takenWhole) whole, \(takenClipped) clipped")
    }
}
