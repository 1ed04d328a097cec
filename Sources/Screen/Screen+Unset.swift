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
            Cell.write(blank, count: rows.lowerBound * w, at: c.baseAddress!)
            Cell.write(blank, count: (h - rows.upperBound) * w, at: c.baseAddress! + rows.upperBound * w)
            #if DEBUG
                Cell.write(Self.unwritten, count: rows.count * w, at: c.baseAddress! + rows.lowerBound * w)
            #endif
            // Trivial cells: the rows between are written before they are read (`ready`).
            n = w * h
        }
        self.init(width: w, height: h, cells: made)
        unset = [UInt64](repeating: 0, count: (h + 63) / 64)
        for y in rows { unset[y >> 6] |= 1 << UInt64(y & 63) }
        unsetFill = fill
        unsetRow = Cell.repeated(blank, count: w)
    }

    /// Rows `y..<end` are about to be written: those not written yet are filled first.
    mutating func ready(rows y: Int, to end: Int) {
        let rows = max(0, y)..<max(max(0, y), min(height, end))
        guard rows.contains(where: { Self.has(unset, $0) }) else { return }
        for r in rows where Self.has(unset, r) { assert(rowIsUnwritten(r), "row \(r) was written before it was filled") }
        let w = width
        // A row of blanks copied in one call (made a copy at a time, a row cost twice as much).
        unsetRow.withUnsafeBufferPointer { blank in
            cells.withUnsafeMutableBufferPointer { c in
                for r in rows where Self.has(unset, r) { (c.baseAddress! + r * w).update(from: blank.baseAddress!, count: w) }
            }
        }
        for r in rows { unset[r >> 6] &= ~(1 << UInt64(r & 63)) }
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
        unsetRow = []
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
