/// What a terminal must write to turn one frame into the next.
extension Screen {
    /// A stretch of one row that changed between two frames: cells `x..<x+count` of row `y`
    /// of the new frame. A wide grapheme's cells are always in the same run.
    public struct Run: Equatable, Sendable {
        public var y: Int, x: Int, count: Int
        public init(y: Int, x: Int, count: Int) {
            self.y = y
            self.x = x
            self.count = count
        }
    }

    /// What must be written to turn `old` into `new` on a terminal: every row whole when there
    /// is no old frame or the size changed; otherwise the runs of cells whose grapheme, style
    /// or width changed. The terminal writes exactly these and nothing else. With `shift`, the
    /// terminal moved a region's rows first: `old` is read as `old.moving(shift)` shows it,
    /// through the move rather than from a moved copy, and the rows it left behind are written.
    public static func diff(from old: Screen?, through shift: RowShift? = nil, to new: Screen) -> [Run] {
        guard let old, old.width == new.width, old.height == new.height else {
            return new.width == 0 ? [] : (0..<new.height).map { Run(y: $0, x: 0, count: new.width) }
        }
        // Room for a key's runs from the start: grown a doubling at a time, each copied.
        var runs: [Run] = []
        runs.reserveCapacity(64)
        for y in 0..<new.height {
            // The old row the terminal shows at `y`; none where a move left it behind.
            let source = shift.map { $0.source(of: y, height: new.height) } ?? y
            guard let z = source else {
                if new.width > 0 { runs.append(Run(y: y, x: 0, count: new.width)) }
                continue
            }
            // Most rows of a frame are as they were: their names say so, or one pass of
            // whole-cell compares.
            if new.sameRow(y, old, z) { continue }
            changedRuns(y, new, z, old, &runs)
        }
        return runs
    }

    /// The runs of row `y` of `new` that differ from row `z` of `old`, read through pointers,
    /// a cell of one scalar compared as words: through subscripts and `same` it cost 40
    /// instructions a cell of every row that changed.
    private static func changedRuns(_ y: Int, _ new: Screen, _ z: Int, _ old: Screen, _ runs: inout [Run]) {
        let w = new.width
        new.cells.withUnsafeBufferPointer { nc in
            old.cells.withUnsafeBufferPointer { oc in
                guard let n = nc.baseAddress.map({ $0 + y * w }), let o = oc.baseAddress.map({ $0 + z * w }) else { return }
                let words = Cell.isTwoWords
                var start = -1
                if words, !new.mayHoldWide(y), !old.mayHoldWide(z), !new.mayHoldCluster(y), !old.mayHoldCluster(z) {
                    // Every cell its own grapheme, as words: no spans to measure (20 instructions
                    // a cell with them, a moved selection's rows most of a frame's diff). Cells
                    // alike are passed, then cells that differ, two at a time each.
                    let (np, op) = (UnsafeRawPointer(n), UnsafeRawPointer(o))
                    @inline(__always) func bits(_ x: Int) -> UInt64 { Cell.differingBits(np, op, at: x &* 16) }
                    var x = 0
                    while x < w {
                        while x &+ 2 <= w, bits(x) | bits(x &+ 1) == 0 { x &+= 2 }
                        while x < w, bits(x) == 0 { x &+= 1 }
                        guard x < w else { break }
                        let first = x
                        while x &+ 2 <= w, bits(x) != 0, bits(x &+ 1) != 0 { x &+= 2 }
                        while x < w, bits(x) != 0 { x &+= 1 }
                        runs.append(Run(y: y, x: first, count: x - first))
                    }
                    return
                }
                var x = 0
                while x < w {
                    let cell = n[x]
                    let was = o[x]
                    // A continuation is drawn with the cell on its left; it changes when that cell does.
                    var changed =
                        words && !cell.isCluster && !was.isCluster
                        ? Cell.differingBits(UnsafeRawPointer(n + x), UnsafeRawPointer(o + x), at: 0) != 0
                        : !same(was, in: old, cell, in: new) || cell.isContinuation != was.isContinuation
                    var span = 1
                    while x + span < w, n[x + span].isContinuation { span += 1 }
                    if !changed {
                        var oldSpan = 1
                        while x + oldSpan < w, o[x + oldSpan].isContinuation { oldSpan += 1 }
                        changed = oldSpan != span
                    }
                    if changed {
                        if start < 0 { start = x }
                    } else if start >= 0 {
                        runs.append(Run(y: y, x: start, count: x - start))
                        start = -1
                    }
                    x += span
                }
                if start >= 0 { runs.append(Run(y: y, x: start, count: w - start)) }
            }
        }
    }
}

extension Screen {
    /// Where the last cells of row `y`, all the same as its last, begin (`start` at the least,
    /// 0 if it is before the row): a terminal erases them to the row's end at once. Compared as
    /// words: cell by cell through the subscript it cost 15 instructions a blank, over the
    /// width of every row written.
    public func sameToEnd(row y: Int, from start: Int) -> Int {
        let w = width
        let x = max(0, start)
        precondition(y >= 0 && y < height, "row \(y) of \(height)")
        return cells.withUnsafeBufferPointer { c in
            guard w > 0, let row = c.baseAddress.map({ $0 + y * w }) else { return x }
            var from = w - 1
            if Cell.isTwoWords {
                let last = UnsafeRawPointer(row + w - 1)
                // Two cells at a time against the last one twice (the spare byte is always 0, so
                // the words compare whole): a trailing blank run is most of a card's row.
                let (a, b) = (last.loadUnaligned(as: UInt64.self), last.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                let pair = SIMD4<UInt64>(a, b, a, b)
                while from - 2 >= x, UnsafeRawPointer(row + from - 2).loadUnaligned(as: SIMD4<UInt64>.self) == pair { from -= 2 }
                while from > x, Cell.differingBits(UnsafeRawPointer(row + from - 1), last, at: 0) == 0 { from -= 1 }
            } else {
                while from > x, row[from - 1] == row[w - 1] { from -= 1 }
            }
            return max(from, x)
        }
    }
}
