/// A frame whose rows of cards are not filled with blanks before they are drawn: most of them
/// are taken whole from the frame before (`take`), and filling them first wrote the screen's
/// 128 KB (at 160x50) once more than needed, a key's costliest memory traffic (#29). Such a
/// row is filled when anything else first writes to it (`forget`, which every write calls)
/// and reads as blanks until then; `settle` fills what is left.
extension Screen {
    /// Nothing written: what a row not written yet holds in debug builds, so that a write
    /// that did not fill it first is found (`ready`, `settle`).
    static let unwritten = Cell(code: 0x11_0000, style: Style(fg: .indexed(13), bg: .indexed(13)))

    /// A screen of blanks of `fill` whose rows `rows` are not written yet.
    public init(width: Int, height: Int, fill: Style, unset rows: Range<Int>) {
        let (w, h) = (max(0, width), max(0, height))
        let rows = rows.clamped(to: 0..<h)
        guard !rows.isEmpty, w > 0 else {
            self.init(width: w, height: h, fill: fill)
            return
        }
        let blank = Cell(style: fill)
        let made = [Cell](unsafeUninitializedCapacity: w * h) { c, n in
            c.baseAddress!.initialize(repeating: blank, count: rows.lowerBound * w)
            (c.baseAddress! + rows.upperBound * w).initialize(repeating: blank, count: (h - rows.upperBound) * w)
            #if DEBUG
                (c.baseAddress! + rows.lowerBound * w).initialize(repeating: Self.unwritten, count: rows.count * w)
            #endif
            // Trivial cells: the rows between are written before they are read (`ready`).
            n = w * h
        }
        self.init(width: w, height: h, cells: made)
        unset = [UInt64](repeating: 0, count: (h + 63) / 64)
        for y in rows { unset[y >> 6] |= 1 << UInt64(y & 63) }
        unsetFill = fill
    }

    /// Rows `y..<end` are about to be written: those not written yet are filled first.
    mutating func ready(rows y: Int, to end: Int) {
        for r in max(0, y)..<max(max(0, y), min(height, end)) where Self.has(unset, r) {
            assert(rowIsUnwritten(r), "row \(r) was written before it was filled")
            let blank = Cell(style: unsetFill)
            cells.withUnsafeMutableBufferPointer { c in (c.baseAddress! + r * width).update(repeating: blank, count: width) }
            unset[r >> 6] &= ~(1 << UInt64(r & 63))
        }
    }

    /// Row `y` is about to be written whole: nothing to fill.
    mutating func written(row y: Int) {
        assert(rowIsUnwritten(y), "row \(y) was written before it was filled")
        unset[y >> 6] &= ~(1 << UInt64(y & 63))
    }

    /// Fills the rows not written yet: the screen as its cells read.
    public mutating func settle() {
        guard !unset.isEmpty else { return }
        ready(rows: 0, to: height)
        unset = []
    }

    /// Whether a row not written yet holds what debug builds leave there (release builds leave
    /// nothing to tell by).
    private func rowIsUnwritten(_ y: Int) -> Bool {
        #if DEBUG
            return cells[y * width..<(y + 1) * width].allSatisfy { $0 == Self.unwritten }
        #else
            return true
        #endif
    }
}
