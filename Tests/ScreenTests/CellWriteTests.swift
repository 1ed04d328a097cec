import Testing
import TwitterSimulator

@testable import Screen

/// Writes that change many cells at once (a fill, a band laid over cells) give the cells the
/// cell-by-cell ways give, and a cluster's row is marked however the cluster got there.
@Suite struct CellWriteTests {
    /// A fill gives the cells `clearWide` and a blank cell by cell give: a wide grapheme across
    /// either edge leaves no half behind.
    @Test func aFillIsBlanksPutCellByCell() {
        var rng = SimRandom(state: 40)
        var cut = 0
        for _ in 0..<1_000 {
            var a = Screen(width: Int.random(in: 1...30, using: &rng), height: 1)
            let words = ["漢字", "ab", "👨‍👩‍👧", "e\u{301}", " ", "한"]
            a.put((0..<12).map { _ in words.randomElement(using: &rng)! }.joined(), x: 0, y: 0, style: RowCompareTests.style(&rng))
            let rect = Rect(
                x: Int.random(in: -2...a.width, using: &rng), y: Int.random(in: -1...0, using: &rng),
                width: Int.random(in: 0...a.width, using: &rng), height: 2)
            let style = RowCompareTests.style(&rng)
            var filled = a
            filled.fill(rect, style: style)
            var reference = a
            for x in max(0, rect.x)..<max(max(0, rect.x), min(a.width, rect.maxX)) {
                reference.clearWide(at: x, y: 0)
                reference[x, 0] = Cell(style: style)
            }
            #expect(filled == reference, "\(rect)")
            let edges = [rect.x - 1, rect.maxX].filter { $0 >= 0 && $0 < a.width }
            if edges.contains(where: { a[$0, 0] != filled[$0, 0] }) { cut += 1 }
        }
        #expect(cut > 20, "fills across a wide grapheme were checked: \(cut)")
    }

    /// A cluster's row is known to hold one however the cell got there: set through the
    /// subscript, copied from another screen's row, or moved with its rows.
    @Test func aClusterWrittenAnyWayMarksItsRow() {
        var a = Screen(width: 4, height: 3)
        var b = Screen(width: 4, height: 3)
        // Each table's first entry, made for another row: the subscript marks row 1 itself.
        a[1, 1] = Cell(code: a.code(forCluster: "👍🏽", row: 0), style: .plain)
        b[1, 1] = Cell(code: b.code(forCluster: "👍🏿", row: 0), style: .plain)
        #expect(a.cells == b.cells)
        #expect(!a.sameRow(1, b, 1) && Screen.diff(from: a, to: b).map(\.y) == [1])
        var c = Screen(width: 4, height: 3)
        var d = Screen(width: 4, height: 3)
        c.copyRow(1, of: a, to: 2)
        d.copyRow(1, of: b, to: 2)
        #expect(c.cells == d.cells && !c.sameRow(2, d, 2))
        let up = RowShift(top: 0, bottom: 2, by: 1)
        #expect(a.moving(up).cells == b.moving(up).cells && !a.moving(up).sameRow(0, b.moving(up), 0))
    }

    /// A band laid over cells gives each the style `over` gives, with the cell's own link.
    @Test func aBandLaidOverCellsIsItsStyleOverTheirs() {
        var rng = SimRandom(state: 39)
        var changed = 0
        for _ in 0..<300 {
            let (a, _) = RowCompareTests.pair(&rng)
            let band = RowCompareTests.style(&rng)
            let from = Int.random(in: -2..<a.width, using: &rng)
            let rect = Rect(x: from, y: Int.random(in: -1...0, using: &rng), width: Int.random(in: 0...a.width + 2, using: &rng), height: 2)
            var laid = a
            laid.lay(band, over: rect)
            var restyled = a
            restyled.restyle(rect) { band.over($0).linked($0.link) }
            #expect(laid == restyled, "\(rect)")
            if laid != a { changed += 1 }
        }
        #expect(changed > 100, "bands that changed cells were checked: \(changed)")
    }
}
