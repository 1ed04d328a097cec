import Testing
import TwitterSimulator

@testable import Screen

/// Rows compared as memory or as words (`Screen.sameRow`) agree with comparing them cell by
/// cell (`Screen.same`): code, colours, attributes and link alike, a cluster by its text
/// whatever its code in each screen's table.
@Suite struct RowCompareTests {
    static let graphemes = ["a", "b", "漢", "👨‍👩‍👧", "e\u{301}", "🇯🇵", " "]

    /// Every field's every byte can differ: colours of each kind, any attributes, links past 255.
    static func style(_ rng: inout SimRandom) -> Style {
        func color(_ rng: inout SimRandom) -> Color {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return .default
            case 1: return .indexed(UInt8.random(in: 0...255, using: &rng))
            default:
                let (r, g) = (UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng))
                return .rgb(r, g, UInt8.random(in: 0...255, using: &rng))
            }
        }
        // Few choices, so that equal rows come often.
        var s = Int.random(in: 0..<4, using: &rng) == 0 ? Style(fg: color(&rng), bg: color(&rng)) : Style(fg: .indexed(3))
        if Bool.random(using: &rng) { s.attributes = Attributes(rawValue: UInt8.random(in: 0...255, using: &rng)) }
        if Int.random(in: 0..<4, using: &rng) == 0 { s.link = UInt16.random(in: 1...UInt16.max, using: &rng) }
        return s
    }

    /// Cells are compared as words where their layout allows it (else the tests below would
    /// check only the cell-by-cell way).
    @Test func cellsAreTwoWordsHere() {
        #expect(Cell.isTwoWords)
    }

    /// A cell showing grapheme `g` in `screen` (a cluster takes that screen's code for it).
    static func cell(_ g: String, _ style: Style, in screen: inout Screen) -> Cell {
        let scalars = Array(g.unicodeScalars)
        return Cell(code: scalars.count == 1 ? scalars[0].value : screen.code(forCluster: g, row: 0), style: style)
    }

    /// Two one-row screens alike or nearly (one cell's grapheme, colour, attribute or link
    /// changed, or a wide grapheme put over two cells), clusters coded apart in each.
    static func pair(_ rng: inout SimRandom) -> (Screen, Screen) {
        let width = Int.random(in: 1...40, using: &rng)
        var a = Screen(width: width, height: 1)
        var b = Screen(width: width, height: 1)
        let plain = Bool.random(using: &rng)  // rows without clusters take the word path alone
        for x in 0..<width {
            let g = plain ? ["a", "b", "漢", " "].randomElement(using: &rng)! : Self.graphemes.randomElement(using: &rng)!
            let st = Self.style(&rng)
            // A screen codes clusters in the order drawn: entries no cell shows, put in one
            // table only, give one text a different code in each.
            if Bool.random(using: &rng) { _ = a.code(forCluster: "o\u{308}", row: 0) }
            a[x, 0] = Self.cell(g, st, in: &a)
            b[x, 0] = Self.cell(g, st, in: &b)
        }
        if Bool.random(using: &rng) {
            let x = Int.random(in: 0..<width, using: &rng)
            var c = b[x, 0]
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: c = Self.cell(Self.graphemes.randomElement(using: &rng)!, c.style, in: &b)
            case 1:
                let other = Self.style(&rng)
                c.style =
                    Bool.random(using: &rng)
                    ? Style(fg: other.fg, bg: c.style.bg, c.style.attributes).linked(c.style.link)
                    : Style(fg: c.style.fg, bg: other.bg, c.style.attributes).linked(c.style.link)
            case 2: c.style.attributes = Attributes(rawValue: c.style.attributes.rawValue ^ (1 << UInt8.random(in: 0...7, using: &rng)))
            case 3: c.style.link ^= 1 << UInt16.random(in: 0...15, using: &rng)
            default:
                // A wide grapheme and its continuation, where the other screen has two cells.
                if x + 1 < width {
                    b[x + 1, 0] = Cell(code: 0, style: c.style)
                    c = Self.cell("漢", c.style, in: &b)
                }
            }
            b[x, 0] = c
        }
        // No cell has padding: the byte a cell would leave is a field, 0 in every style made.
        for screen in [a, b] { screen.cells.withUnsafeBytes { raw in #expect((0..<width).allSatisfy { raw[$0 * 16 + 13] == 0 }) } }
        return (a, b)
    }

    @Test func rowsCompareAsTheirCellsDo() {
        var rng = SimRandom(state: 35)
        var checked = (same: 0, differ: 0, recoded: 0)
        for _ in 0..<3_000 {
            let (a, b) = Self.pair(&rng)
            let width = a.width
            let expected = (0..<width).allSatisfy { Screen.same(a[$0, 0], in: a, b[$0, 0], in: b) }
            #expect(b.sameRow(0, a, 0) == expected, "width \(width)")
            #expect(a.sameRow(0, b, 0) == expected, "width \(width)")
            if expected { checked.same += 1 } else { checked.differ += 1 }
            let recoded = (0..<width).contains { x in
                a[x, 0].isCluster && b[x, 0].isCluster && a[x, 0].code != b[x, 0].code
                    && Screen.same(a[x, 0], in: a, b[x, 0], in: b)
            }
            if expected, recoded { checked.recoded += 1 }
        }
        #expect(checked.same > 500 && checked.differ > 500, "both answers were checked: \(checked)")
        #expect(checked.recoded > 200, "rows alike with a text coded apart were checked: \(checked)")
    }

    /// The runs a diff writes are those a cell-by-cell reading finds: cells whose grapheme,
    /// style or width changed, a wide grapheme's cells in one run.
    @Test func aDiffWritesTheCellsThatChanged() {
        var rng = SimRandom(state: 36)
        var changedRows = 0
        for _ in 0..<3_000 {
            let (old, new) = Self.pair(&rng)
            var expected: [Screen.Run] = []
            var start = -1
            var x = 0
            while x < new.width {
                let (cell, was) = (new[x, 0], old[x, 0])
                let changed =
                    !Screen.same(was, in: old, cell, in: new) || cell.isContinuation != was.isContinuation
                    || new.span(x, 0) != old.span(x, 0)
                if changed, start < 0 { start = x }
                if !changed, start >= 0 {
                    expected.append(Screen.Run(y: 0, x: start, count: x - start))
                    start = -1
                }
                x += new.span(x, 0)
            }
            if start >= 0 { expected.append(Screen.Run(y: 0, x: start, count: new.width - start)) }
            #expect(Screen.diff(from: old, to: new) == expected, "width \(new.width)")
            if !expected.isEmpty { changedRows += 1 }
        }
        #expect(changedRows > 500, "rows that changed were checked: \(changedRows)")
    }
    /// Lines whose clusters take the same places have the same cells (each code is its
    /// screen's first entry); the rows still differ by the clusters' text, in whichever way the
    /// line was drawn.
    @Test func clustersInTheSamePlacesCompareByTheirText() {
        for (a, b) in [("👍🏽 ok", "👍🏿 ok"), ("e\u{301} x", "e\u{300} x"), ("🇯🇵", "🇫🇷")] {
            for asLine in [true, false] {
                var old = Screen(width: 10, height: 2)
                var new = Screen(width: 10, height: 2)
                if asLine {
                    old.put(StyledLine([Span(a, .plain)]), x: 0, y: 1)
                    new.put(StyledLine([Span(b, .plain)]), x: 0, y: 1)
                } else {
                    old.put(a, x: 0, y: 1, style: .plain)
                    new.put(b, x: 0, y: 1, style: .plain)
                }
                #expect(old.cells == new.cells, "the same codes")
                #expect(!new.sameRow(1, old, 1) && new.sameRow(0, old, 0))
                #expect(old != new)
                #expect(Screen.diff(from: old, to: new) == [Screen.Run(y: 1, x: 0, count: Screen.width(of: Character(String(b.first!))))])
            }
        }
    }

    /// A cluster is compared by its scalars as written, not by canonical equivalence: the
    /// marks in another order are the same `String` but another sequence for the terminal,
    /// so the frame differs and the diff writes the cell.
    @Test func clustersDifferByTheirScalarsNotByEquivalence() {
        let below = "e\u{323}\u{301}"
        let above = "e\u{301}\u{323}"
        #expect(below == above, "Swift calls the two orders equal")
        for (x, y) in [(0, 0), (3, 1)] {
            var old = Screen(width: 8, height: 2)
            var new = Screen(width: 8, height: 2)
            old.put("ab " + below + " c", x: x, y: y, style: .plain)
            new.put("ab " + above + " c", x: x, y: y, style: .plain)
            #expect(old != new)
            #expect(!new.sameRow(y, old, y))
            #expect(Screen.diff(from: old, to: new) == [Screen.Run(y: y, x: x + 3, count: 1)])
            #expect(new.grapheme(x + 3, y).unicodeScalars.map(\.value) == [0x65, 0x301, 0x323])
            var again = Screen(width: 8, height: 2)
            again.put("ab " + above + " c", x: x, y: y, style: .plain)
            #expect(again == new && Screen.diff(from: new, to: again).isEmpty)
        }
    }
    /// A row's hash read as words is the hash of its fields (FNV-1a over the code, a cluster
    /// as its flag alone, and the colours, attributes and link).
    @Test func rowHashesAreTheirFieldsHashes() {
        var rng = SimRandom(state: 37)
        for _ in 0..<500 {
            let (a, b) = Self.pair(&rng)
            for screen in [a, b] {
                var h: UInt64 = 0xcbf2_9ce4_8422_2325
                for x in 0..<screen.width {
                    let cell = screen[x, 0]
                    let s = cell.style
                    let code = UInt64(cell.isCluster ? Cell.clusterFlag : cell.code)
                    h = (h ^ (code | UInt64(s.fgBits) << 32)) &* 0x100_0000_01b3
                    h = (h ^ (UInt64(s.bgBits) | UInt64(s.attributes.rawValue) << 32 | UInt64(s.link) << 48)) &* 0x100_0000_01b3
                }
                #expect(screen.rowHashes() == [h])
            }
            if Screen.same(a[0, 0], in: a, b[0, 0], in: b), a.sameRow(0, b, 0) { #expect(a.rowHashes() == b.rowHashes()) }
        }
    }

    /// Whole screens compare field by field, code for code: a copy is equal, one with a field
    /// changed is not.
    @Test func screensCompareByTheirFields() {
        var rng = SimRandom(state: 38)
        var checked = (same: 0, differ: 0)
        for _ in 0..<3_000 {
            let (a, b) = Self.pair(&rng)
            // `b` from its own cells, in `a`'s table: the cell changes `pair` made.
            var c = a
            c.cells.withUnsafeMutableBytes { raw in
                for x in 0..<a.width {
                    var cell = b[x, 0]
                    if cell.isCluster { cell = a[x, 0] }
                    withUnsafeBytes(of: cell) { cb in
                        for k in 0..<16 { raw[x * 16 + k] = cb[k] }
                    }
                }
            }
            let expected = a.cells.elementsEqual(c.cells) { $0.code == $1.code && $0.style == $1.style }
            #expect((a == c) == expected, "width \(a.width)")
            if expected { checked.same += 1 } else { checked.differ += 1 }
        }
        #expect(checked.same > 500 && checked.differ > 500, "both answers were checked: \(checked)")
    }

    /// A new screen is its fill in every cell, whatever its size (the first cell is copied in
    /// doubling blocks, so every count from a block's edge to the next is tried).
    @Test func aNewScreenIsItsFillInEveryCell() {
        let fills = [Style.plain, Style(fg: .indexed(3), bg: .indexed(200), .bold), Style(bg: .default, .underline).linked(7)]
        var sizes = (0...70).map { ($0, 1) }
        sizes += [(160, 50), (200, 60), (1, 1000), (0, 5), (17, 0), (129, 3)]
        var checked = 0
        for fill in fills {
            for (w, h) in sizes {
                let screen = Screen(width: w, height: h, fill: fill)
                #expect(screen.cells.count == w * h, "\(w)x\(h)")
                let wrong = screen.cells.filter { $0 != Cell(style: fill) }.count
                #expect(wrong == 0, "\(w)x\(h): \(wrong) cells not the fill")
                checked += screen.cells.count
            }
        }
        #expect(checked > 60_000)
    }
}
