import Testing
import TweetText

@testable import Screen

/// Rows named by the lines that drew them, for the next frame to take whole (`Screen+Rows`).
@Suite struct RowSourceTests {
    static let red = Style(fg: .indexed(1))
    static let card = [StyledLine([Span("abc 漢字 ", red), Span("e\u{301}👨‍👩‍👧 end", .plain)]), StyledLine([Span("two", .plain)])]
    static let place = RowPlace(x: 2, left: 0, right: 30, fill: .plain, band: nil, bar: nil)
    static let clip = Rect(x: 0, y: 0, width: 30, height: 6)

    /// `lines` drawn from row `y` at `place` (clipped to it) and named; `cluster`: a cluster
    /// put first, so the lines' clusters take other places in the table.
    static func drawn(at y: Int, _ lines: [StyledLine] = card, place: RowPlace = place, cluster: Bool = false) -> Screen {
        var s = Screen(width: 30, height: 6)
        if cluster { s.put("👍🏽", x: 0, y: 0, style: .plain) }
        let clip = Rect(x: place.left, y: 0, width: place.right - place.left, height: 6)
        for (i, l) in lines.enumerated() { s.put(l, x: place.x, y: y + i, clip: clip) }
        s.name(rows: y, lines, count: lines.count, at: place)
        return s
    }

    @Test func takenRowsLookAsTheLinesDrawnThere() {
        let before = Self.drawn(at: 3)
        var taken = Screen(width: 30, height: 6)
        // A cluster already in the new screen's table: the taken ones go after it.
        taken.put("👍🏽", x: 0, y: 0, style: .plain)
        var drawn = taken
        #expect(before.rows(showing: Self.card, count: 2, at: Self.place) == 3)
        let took1 = taken.take(rows: 3, of: before, to: 1, Self.card, count: 2, at: Self.place)
        #expect(took1)
        for (i, l) in Self.card.enumerated() { drawn.put(l, x: 2, y: 1 + i, clip: Self.clip) }
        #expect(taken.text == drawn.text)
        for y in 0..<6 {
            for x in 0..<30 { #expect(Screen.same(taken[x, y], in: taken, drawn[x, y], in: drawn), "\(x), \(y)") }
        }
        #expect(taken.mayHoldCluster(1) && taken.mayHoldWide(1))
        #expect(taken.row(1, shows: Self.card[0], at: Self.place) && taken.row(2, shows: Self.card[1], at: Self.place))
        // Written over after, the wide grapheme is blanked whole, as on the drawn screen.
        taken.put("x", x: 8, y: 1, style: .plain)
        drawn.put("x", x: 8, y: 1, style: .plain)
        #expect(taken.line(1) == drawn.line(1))
    }

    /// A selected card's rows, band and bar included, cut short by the pane's bottom.
    @Test func bandedRowsCutShortAreTakenAsDrawn() {
        let band = Style(bg: .indexed(4))
        let marked = RowPlace(x: 2, left: 0, right: 30, fill: .plain, band: band, bar: Self.red)
        let card = Self.card + [StyledLine([Span("漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字", .plain)])]
        func drawn(at y: Int, count: Int) -> Screen {
            var s = Screen(width: 30, height: 6)
            for (i, l) in card.prefix(count).enumerated() { s.put(l, x: 2, y: y + i, clip: Self.clip) }
            s.lay(band, over: Rect(x: 0, y: y, width: 30, height: count))
            for row in y..<y + count { s.put(StyledLine([Span("▌", Self.red)]), x: 0, y: row, under: s[0, row].style) }
            s.name(rows: y, card, count: count, at: marked)
            return s
        }
        let before = drawn(at: 3, count: 3)
        #expect(before.rows(showing: card, count: 3, at: Self.place) == nil)
        #expect(before.rows(showing: card, count: 2, at: marked) == 3)
        var taken = Screen(width: 30, height: 6)
        let took2 = taken.take(rows: 3, of: before, to: 0, card, count: 2, at: marked)
        #expect(took2)
        let fresh = drawn(at: 0, count: 2)
        #expect(taken == fresh && taken.text == fresh.text)
        // Not from a screen of another width, nor more lines than the card has.
        var other = Screen(width: 31, height: 6)
        let took3 = other.take(rows: 3, of: before, to: 0, card, count: 2, at: marked)
        #expect(!took3)
        let took4 = taken.take(rows: 3, of: before, to: 0, card, count: 4, at: marked)
        #expect(!took4)
    }

    @Test func everyOtherWriteForgetsTheRowsName() {
        let writes: [(String, (inout Screen) -> Void)] = [
            ("put text", { _ = $0.put("x", x: 25, y: 2, style: .plain) }),
            ("put other text", { _ = $0.put("é漢", x: 25, y: 2, style: .plain) }),
            ("put line", { $0.put(StyledLine([Span("y", .plain)]), x: 29, y: 2) }),
            ("fill", { $0.fill(Rect(x: 29, y: 2, width: 1, height: 1), style: .plain) }),
            ("restyle", { $0.restyle(Rect(x: 0, y: 2, width: 1, height: 1)) { $0 } }),
            ("lay", { $0.lay(Self.red, over: Rect(x: 0, y: 2, width: 1, height: 1)) }),
            ("cell", { $0[0, 2] = Cell.blank }),
            ("copy", { $0.copyRow(0, of: Screen(width: 30, height: 6), to: 2) }),
            ("picture", { $0.place(PicturePlacement(rect: Rect(x: 0, y: 2, width: 2, height: 1), key: "p", bytes: [1])) }),
        ]
        let card = Self.card + Self.card
        for (what, write) in writes {
            var s = Self.drawn(at: 1, card)
            write(&s)
            #expect(!s.isNamed(2), "\(what)")
            #expect(s.isNamed(1) && s.isNamed(3) && s.isNamed(4), "\(what)")
            #expect(s.rows(showing: card, count: 4, at: Self.place) == nil, "\(what)")
        }
        // The terminal's copy of a moved frame names nothing.
        let moved = Self.drawn(at: 1).moving(RowShift(top: 0, bottom: 5, by: 1))
        #expect(!(0..<6).contains { moved.isNamed($0) })
    }

    @Test func aNameIsTheSameLineStorageAndPlace() {
        let s = Self.drawn(at: 3)
        let copy = Self.card
        #expect(s.rows(showing: copy, count: 2, at: Self.place) == 3)
        // Where the card stood is looked at first; anywhere else, every row is.
        #expect(s.rows(showing: copy, count: 2, at: Self.place, hint: 3) == 3)
        #expect(s.rows(showing: copy, count: 2, at: Self.place, hint: 4) == 3)
        #expect(s.rows(showing: copy, count: 2, at: Self.place, hint: 99) == 3)
        #expect(s.rows(showing: copy, count: 2, at: Self.place, hint: -1) == 3)
        // The same lines twice: the hinted place is the one taken.
        var twice = Screen(width: 30, height: 6)
        for y in [0, 3] {
            for (i, l) in Self.card.enumerated() { twice.put(l, x: 2, y: y + i, clip: Self.clip) }
            twice.name(rows: y, Self.card, count: 2, at: Self.place)
        }
        #expect(twice.rows(showing: copy, count: 2, at: Self.place) == 0)
        #expect(twice.rows(showing: copy, count: 2, at: Self.place, hint: 3) == 3)
        #expect(s.rows(showing: [Self.card[1]], count: 1, at: Self.place) == 4)
        // The same text laid out again is another line: only the storage names it.
        #expect(s.rows(showing: Self.card.map { StyledLine($0.spans) }, count: 2, at: Self.place) == nil)
        var restyled = Self.card
        restyled[0].spans[0].style = .plain
        #expect(s.rows(showing: restyled, count: 2, at: Self.place) == nil)
        for other in [
            RowPlace(x: 3, left: 0, right: 30, fill: .plain, band: nil, bar: nil),
            RowPlace(x: 2, left: 0, right: 29, fill: .plain, band: nil, bar: nil),
            RowPlace(x: 2, left: 0, right: 30, fill: Self.red, band: nil, bar: nil),
            RowPlace(x: 2, left: 0, right: 30, fill: .plain, band: .plain, bar: nil),
            RowPlace(x: 2, left: 0, right: 30, fill: .plain, band: nil, bar: .plain),
        ] {
            #expect(s.rows(showing: Self.card, count: 2, at: other) == nil)
        }
        // Names are not what a frame shows: equal cells are equal frames.
        var unnamed = Screen(width: 30, height: 6)
        for (i, l) in Self.card.enumerated() { unnamed.put(l, x: 2, y: 3 + i, clip: Self.clip) }
        #expect(s == unnamed)
    }
}

/// The diff trusts names: a row that shows the same line at the same place across the whole
/// row as the row the terminal shows is not compared cell by cell (debug builds check the
/// cells agree); a name over part of a row leaves the rest compared.
@Suite struct NamedRowDiffTests {
    @Test func rowsNamedAlikeAreTheSameRows() {
        let place = RowPlace(x: 2, left: 0, right: 30, fill: .plain, band: nil, bar: nil)
        let old = RowSourceTests.drawn(at: 3, place: place)
        // The same lines two rows up, their clusters at other places in the table.
        var new = RowSourceTests.drawn(at: 1, place: place, cluster: true)
        let (alike, unlike) = (
            new.sameByName(1, old, 3) && new.sameByName(2, old, 4), new.sameByName(1, old, 4) || new.sameByName(3, old, 3)
        )
        #expect(alike && !unlike)
        let shift = RowShift(top: 1, bottom: 4, by: 2)
        #expect(Screen.diff(from: old, through: shift, to: new).filter { (1...2).contains($0.y) }.isEmpty)
        // Written over as a screen is, the row loses its name and is compared again.
        new.put("Z", x: 11, y: 1, style: .plain)
        #expect(Screen.diff(from: old, through: shift, to: new).contains { $0.y == 1 && $0.x <= 11 && $0.x + $0.count > 11 })
    }

    @Test func cellsOutsideANamesPlaceAreCompared() {
        let place = RowPlace(x: 2, left: 0, right: 20, fill: .plain, band: nil, bar: nil)
        let old = RowSourceTests.drawn(at: 1, place: place)
        var new = RowSourceTests.drawn(at: 1, place: place)
        let byName = new.sameByName(1, old, 1)
        #expect(!byName)
        #expect(Screen.diff(from: old, to: new).isEmpty)
        new.cells[1 * 30 + 25] = Cell(code: UInt32(UInt8(ascii: "Z")), style: .plain)
        #expect(Screen.diff(from: old, to: new) == [Screen.Run(y: 1, x: 25, count: 1)])
    }
}

/// `TextLayout.truncate` returns a text of no more UTF-8 bytes than columns unmeasured: no
/// scalar is wider than its bytes, in either width mode.
@Suite struct ByteBoundTests {
    @Test func noScalarIsWiderThanItsBytes() {
        for mode in [WidthMode.perScalar, .grapheme, .measured(ClusterKinds(rawValue: 63))] {
            DisplayWidth.$mode.withValue(mode) {
                var wider: [UInt32] = []
                for v in UInt32(0)...0x10FFFF {
                    guard let s = Unicode.Scalar(v) else { continue }
                    if Screen.width(of: Character(s)) > s.utf8.count { wider.append(v) }
                }
                #expect(wider.isEmpty, "\(mode): \(wider.prefix(10).map { String($0, radix: 16) })")
            }
        }
        // Clusters: each is measured as a whole no wider than its scalars' bytes.
        for text in ["👨‍👩‍👧", "🇯🇵", "e\u{301}", "👍🏽", "각", "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", "a\u{20DD}", "❤️", "⌚︎", "1️⃣"] {
            for mode in [WidthMode.perScalar, .grapheme, .measured(ClusterKinds(rawValue: 63))] {
                DisplayWidth.$mode.withValue(mode) {
                    #expect(Screen.width(of: text) <= text.utf8.count)
                    #expect(TextLayout.truncate(text, width: text.utf8.count) == text)
                }
            }
        }
    }
}

/// `asciiRun`: printable ASCII in one style exactly, up to the limit, never a cell a
/// continuation follows.
@Suite struct AsciiRunTests {
    @Test func stopsWhereACellIsNoLongerOneASCIIByteInTheStyle() {
        let red = Style(fg: .indexed(1))
        var s = Screen(width: 12, height: 2)
        s.put("abcd", x: 0, y: 0, style: red)
        s.put("ef", x: 4, y: 0, style: red.linked(Hyperlinks.id(for: "https://example.com/ascii-run-test")))
        s.put("漢", x: 6, y: 0, style: red)
        s.put("gh", x: 8, y: 0, style: red)
        var out = [UInt8](repeating: 0, count: 12)
        func run(_ x: Int, _ limit: Int, _ style: Style) -> String {
            let n = out.withUnsafeMutableBufferPointer { s.asciiRun(row: 0, from: x, to: limit, style: style, into: $0.baseAddress!) }
            return String(decoding: out.prefix(n), as: UTF8.self)
        }
        #expect(run(0, 12, red) == "abcd")  // the link differs
        #expect(run(1, 3, red) == "bc")  // the limit
        #expect(run(0, 12, .plain) == "")  // another colour
        #expect(run(6, 12, red) == "")  // a wide grapheme
        #expect(run(8, 12, red) == "gh")
        #expect(run(10, 12, red) == "")  // blanks in another style
        // A cell a continuation follows (no put leaves one after ASCII) is not taken alone.
        s.cells[9] = Cell(code: 0, style: red)
        #expect(run(8, 12, red) == "")
    }
}
