import Screen
import Testing
import TwitterSimulator

/// Finding the rows a scroll moved (`Screen.shift`) and the frame a move leaves on the
/// terminal (`moving`), which `diff` then compares cell by cell.
@Suite struct RowShiftTests {
    /// A 30x12 frame: a fixed top and bottom row, and between them the lines from `first`,
    /// some with clusters (a joined emoji, a letter and its mark) and wide graphemes.
    static func frame(from first: Int, height: Int = 12, selected: Int? = nil, lead: String = "tabs") -> Screen {
        var s = Screen(width: 30, height: height)
        s.put(lead, x: 0, y: 0, style: .plain)
        for y in 1..<(height - 1) {
            let n = first + y
            let text = n % 3 == 0 ? "line \(n) 👨‍👩‍👧 e\u{301}" : n % 3 == 1 ? "line \(n) 漢字" : "line \(n)"
            s.put(text, x: 2, y: y, style: Style(fg: .indexed(UInt8(n % 7 + 1))))
            if selected == n { s.put("▌", x: 0, y: y, style: .plain) }
        }
        s.put("status", x: 0, y: height - 1, style: .plain)
        return s
    }

    /// `frame` with each line anchored by its number in the rows between the fixed ones, as the
    /// timeline anchors its cards.
    static func anchored(from first: Int, selected: Int? = nil) -> Screen {
        var s = frame(from: first, selected: selected)
        s.anchors = (1...10).map { Anchor(key: UInt64(first + $0), y: $0, top: 1, bottom: 10) }
        return s
    }

    /// The runs written from the new frame after the move, as the terminal writes them (the
    /// old frame read through the move); the same as a diff from the moved frame.
    static func applied(_ old: Screen, _ new: Screen, _ shift: RowShift?) -> [Screen.Run] {
        let runs = Screen.diff(from: old, through: shift, to: new)
        #expect(runs == Screen.diff(from: shift.map { old.moving($0) } ?? old, to: new))
        return runs
    }

    @Test func aScrollUpIsFoundAndOnlyTheRowsThatCameInAreWritten() {
        let old = Self.frame(from: 0)
        let new = Self.frame(from: 3)
        let shift = Screen.shift(old.rowHashes(), new.rowHashes())
        #expect(shift == RowShift(top: 1, bottom: 10, by: 3))
        let runs = Self.applied(old, new, shift)
        #expect(Set(runs.map(\.y)) == [8, 9, 10])
        // Without the move every row between the fixed ones is written.
        #expect(Set(Screen.diff(from: old, to: new).map(\.y)) == Set(1...10))
    }

    @Test func aScrollDownIsFound() {
        let old = Self.frame(from: 5)
        let new = Self.frame(from: 3)
        let shift = Screen.shift(old.rowHashes(), new.rowHashes())
        #expect(shift == RowShift(top: 1, bottom: 10, by: -2))
        #expect(Set(Self.applied(old, new, shift).map(\.y)) == [1, 2])
    }

    @Test func rowsThatChangedInsideTheRegionAreStillWritten() {
        // The selection moved with the scroll: its old and new rows differ from what moved.
        let old = Self.frame(from: 0, selected: 9)
        let new = Self.frame(from: 2, selected: 10)
        let shift = Screen.shift(old.rowHashes(), new.rowHashes())
        #expect(shift?.by == 2)
        #expect(Set(Self.applied(old, new, shift).map(\.y)) == [7, 8, 9, 10])
    }

    @Test func nothingMovesWhenNothingMovedOrTooLittleWouldBeSpared() {
        let a = Self.frame(from: 0)
        #expect(Screen.shift(a.rowHashes(), a.rowHashes()) == nil)
        // One row in common: not worth a move.
        #expect(Screen.shift(a.rowHashes(), Self.frame(from: 9).rowHashes()) == nil)
        // Frames of other heights.
        #expect(Screen.shift(a.rowHashes(), Self.frame(from: 0, height: 14).rowHashes()) == nil)
        // A row found nowhere in the old frame brings no move.
        let blank = Screen(width: 30, height: 12)
        var one = blank
        one.put("x", x: 0, y: 5, style: .plain)
        #expect(Screen.shift(blank.rowHashes(), one.rowHashes()) == nil)
    }

    @Test func clustersMatchByTheirTextNotTheirPlaceInEachFramesTable() {
        // The same rows put in another order number their clusters otherwise.
        var a = Screen(width: 20, height: 4)
        a.put("e\u{301} one", x: 0, y: 1, style: .plain)
        a.put("👍🏽 two", x: 0, y: 2, style: .plain)
        a.put("🇯🇵 three", x: 0, y: 3, style: .plain)
        var b = Screen(width: 20, height: 4)
        b.put("🇯🇵 three", x: 0, y: 2, style: .plain)
        b.put("👍🏽 two", x: 0, y: 1, style: .plain)
        b.put("e\u{301} one", x: 0, y: 0, style: .plain)
        #expect(a.multiScalarGraphemes != b.multiScalarGraphemes)
        let shift = Screen.shift(a.rowHashes(), b.rowHashes())
        #expect(shift == RowShift(top: 0, bottom: 3, by: 1))
        #expect(Self.applied(a, b, shift).map(\.y) == [3])
    }

    /// Read through a move, the old frame gives the runs a copy moved by it gives: seeded frames
    /// of lines, clusters and wide text scrolled both ways, with rows changed, and moves of every
    /// size within the frame; a move past its edges still gives runs on the frame.
    @Test func aDiffThroughAMoveIsTheDiffFromTheMovedFrame() {
        var rng = SimRandom(state: 29)
        for _ in 0..<200 {
            let first = 4 + Int(rng.next() % 40)
            let old = Self.frame(from: first, selected: first + Int(rng.next() % 12))
            // Sometimes a cluster first on the new frame only: the two tables number theirs apart.
            let lead = rng.next() % 2 == 0 ? "tabs" : "👍🏽 tabs"
            var new = Self.frame(from: first + Int(rng.next() % 9) - 4, selected: first + Int(rng.next() % 12), lead: lead)
            if rng.next() % 2 == 0 { new.put("changed 漢", x: Int(rng.next() % 25), y: Int(rng.next() % 12), style: .plain) }
            let top = Int(rng.next() % 14) - 1
            let shift = RowShift(top: top, bottom: top + Int(rng.next() % 14) - 2, by: Int(rng.next() % 13) - 6)
            let runs = Screen.diff(from: old, through: shift, to: new)
            if shift.top >= 0, shift.bottom < 12 {
                #expect(runs == Screen.diff(from: old.moving(shift), to: new), "\(shift)")
            } else {
                #expect(runs.allSatisfy { $0.y >= 0 && $0.y < 12 && $0.x >= 0 && $0.count > 0 && $0.x + $0.count <= 30 })
            }
            if let found = Screen.shift(old.rowHashes(), new.rowHashes()) { _ = Self.applied(old, new, found) }
        }
    }

    @Test func anchorsSayTheScrollWithoutARowHashed() {
        let old = Self.anchored(from: 0)
        let new = Self.anchored(from: 3, selected: 5)
        #expect(Screen.anchoredShift(from: old, to: new) == RowShift(top: 1, bottom: 10, by: 3))
        let found = Screen.scroll(from: old, to: new, oldHashes: nil)
        #expect(found.shift == RowShift(top: 1, bottom: 10, by: 3))
        #expect(found.hashes == nil)
        // The rows that came in, and the selection's, which did not come as it was.
        #expect(Set(Self.applied(old, new, found.shift).map(\.y)) == [2, 8, 9, 10])
        // A line came above the cards (the region starts a row lower): the rows below both tops move.
        var marked = new
        marked.anchors = new.anchors.dropFirst().map { Anchor(key: $0.key, y: $0.y, top: 2, bottom: 10) }
        #expect(Screen.anchoredShift(from: old, to: marked) == RowShift(top: 2, bottom: 10, by: 3))
        #expect(Screen.anchoredShift(from: marked, to: old) == RowShift(top: 2, bottom: 10, by: -3))
        let down = Screen.scroll(from: Self.anchored(from: 5), to: Self.anchored(from: 3), oldHashes: nil)
        #expect(down.shift == RowShift(top: 1, bottom: 10, by: -2))
        #expect(Set(Self.applied(Self.anchored(from: 5), Self.anchored(from: 3), down.shift).map(\.y)) == [1, 2])
    }

    /// Anchors that stayed, or moved too far to spare two rows, leave the frame to the rows'
    /// own look (an overlay the anchors know nothing of may have scrolled).
    @Test func anchorsThatStayedOrWentTooFarLeaveItToTheRows() {
        let a = Self.anchored(from: 0)
        #expect(Screen.anchoredShift(from: a, to: Self.anchored(from: 0, selected: 4))?.by == 0)
        let stayed = Screen.scroll(from: a, to: Self.anchored(from: 0, selected: 4), oldHashes: nil)
        #expect(stayed.shift == nil && stayed.hashes == nil, "few rows changed: none hashed")
        // Two rows in common would be spared; one would not be worth a move.
        #expect(Screen.scroll(from: a, to: Self.anchored(from: 8), oldHashes: nil).shift?.by == 8)
        let far = Screen.scroll(from: a, to: Self.anchored(from: 9), oldHashes: nil)
        #expect(Screen.anchoredShift(from: a, to: Self.anchored(from: 9))?.by == 9)
        #expect(far.shift == nil && far.hashes == Self.anchored(from: 9).rowHashes())
        // Rows that moved with anchors that did not (a box over the cards, scrolled): hashed.
        var boxed = Self.frame(from: 3)
        boxed.anchors = a.anchors
        let found = Screen.scroll(from: a, to: boxed, oldHashes: nil)
        #expect(found.shift == RowShift(top: 1, bottom: 10, by: 3) && found.hashes != nil)
    }

    /// Anchors whose region is not on the screen say nothing.
    @Test func anchorsOffTheScreenAreNotTaken() {
        for (top, bottom) in [(-1, 10), (1, 12), (5, 5), (6, 4)] {
            var old = Self.anchored(from: 0)
            var new = Self.anchored(from: 3)
            old.anchors = old.anchors.map { Anchor(key: $0.key, y: $0.y, top: top, bottom: bottom) }
            new.anchors = new.anchors.map { Anchor(key: $0.key, y: $0.y, top: top, bottom: bottom) }
            #expect(Screen.anchoredShift(from: old, to: new) == nil, "\(top)...\(bottom)")
        }
    }

    @Test func theMoveMostAnchorsVoteForIsTakenTheSmallerOnATie() {
        let old = Self.anchored(from: 0)
        var new = Self.anchored(from: 2)
        // Keys 3 to 10 were in the old frame, two rows lower.
        let base = new.anchors
        func lowered(_ a: ArraySlice<Anchor>, _ rows: Int) -> [Anchor] { a.map { Anchor(key: $0.key, y: $0.y + rows, top: 1, bottom: 10) } }
        #expect(Screen.anchoredShift(from: old, to: new)?.by == 2)
        // Two cards further down than the rest (one above them grew): six votes against two.
        new.anchors = Array(base[0..<5]) + lowered(base[5..<7], 3) + Array(base[7...])
        #expect(Screen.anchoredShift(from: old, to: new)?.by == 2)
        // Four and four: the smaller move, either way.
        new.anchors = Array(base[0..<4]) + lowered(base[4..<8], -3)
        #expect(Screen.anchoredShift(from: old, to: new)?.by == 2)
        new.anchors = lowered(base[0..<4], 3) + Array(base[4..<8])
        #expect(Screen.anchoredShift(from: old, to: new)?.by == -1)
        new.anchors = lowered(base[0..<4], 3) + lowered(base[4..<8], 5) + lowered(base[8...], 5)
        #expect(Screen.anchoredShift(from: old, to: new)?.by == -1)
    }

    @Test func framesWithoutAnchorsInCommonAreHashed() {
        let old = Self.frame(from: 0)
        let new = Self.frame(from: 3)
        let found = Screen.scroll(from: old, to: new, oldHashes: nil)
        #expect(found.shift == RowShift(top: 1, bottom: 10, by: 3))
        #expect(found.hashes == new.rowHashes())
        // Anchors of another region, or of other cards, say nothing.
        var other = Self.anchored(from: 3)
        other.anchors = other.anchors.map { Anchor(key: $0.key, y: $0.y, top: 0, bottom: 11) }
        #expect(Screen.anchoredShift(from: Self.anchored(from: 0), to: other) == nil)
        #expect(Screen.scroll(from: Self.anchored(from: 0), to: other, oldHashes: nil).hashes == other.rowHashes())
        #expect(Screen.anchoredShift(from: Self.anchored(from: 0), to: Self.anchored(from: 20)) == nil)
    }

    @Test func theRowsAMoveLeavesBehindAreWrittenWhateverTheyShow() {
        let old = Self.frame(from: 0)
        let moved = old.moving(RowShift(top: 1, bottom: 10, by: 4))
        for y in 7...10 { #expect((0..<30).allSatisfy { moved[$0, y].isUnknown }) }
        #expect(moved.line(1) == old.line(5) && moved.line(0) == old.line(0) && moved.line(11) == old.line(11))
        // Even a blank row of the new frame is written there.
        let blank = Screen(width: 30, height: 12)
        #expect(Set(Screen.diff(from: moved, to: blank).map(\.y)).isSuperset(of: [7, 8, 9, 10]))
        #expect(Screen.diff(from: moved, to: blank).filter { $0.y == 9 }.map(\.count) == [30])
    }
}
