import Glibc

/// A region of rows that moved between two frames, as a scroll moves them: the terminal can
/// move them itself (a scroll region) instead of having every cell written again.
public struct RowShift: Hashable, Sendable {
    /// The region's first and last rows.
    public var top: Int
    public var bottom: Int
    /// Rows the region's content moves up (down when negative): old row `y + by` shows at `y`.
    public var by: Int

    public init(top: Int, bottom: Int, by: Int) {
        self.top = top
        self.bottom = bottom
        self.by = by
    }

    /// The old row the terminal shows at row `y` of a frame `height` rows high after this move:
    /// `y` itself outside the region, nil where the move left the row behind.
    public func source(of y: Int, height: Int) -> Int? {
        guard y >= top, y <= bottom else { return y }
        let from = y + by
        return from >= top && from <= bottom && from >= 0 && from < height ? from : nil
    }
}

extension Cell {
    /// A cell no frame holds (not a scalar, not a cluster): rows a move leaves behind, which
    /// must be written whatever the new frame shows there.
    static let unknown = Cell(code: Cell.unknownCode, style: .plain)
    @usableFromInline static let unknownCode: UInt32 = 0x7FFF_FFFF

    /// A row a move left behind holds this: nothing the terminal shows is known there.
    @inlinable public var isUnknown: Bool { code == Cell.unknownCode }
}

extension Screen {
    /// The move of one region most changed rows of `new` vote for (each for the moves that
    /// would bring it from the old frame; the smaller move on a tie), if it spares at least
    /// `least` rows from being written; nil when the sizes differ. Rows are
    /// matched by their hashes (`rowHashes`, `a` the old frame's, `b` the new one's), so a
    /// hash never decides what is drawn: `diff(from: old, through: shift, to: new)` still
    /// compares every row, by its cells or by its name (`sameByName`).
    public static func shift(_ a: [UInt64], _ b: [UInt64], least: Int = 2) -> RowShift? {
        let h = b.count
        guard a.count == h, h >= 2 else { return nil }
        // Each changed row votes for the moves that would bring it; a row found many times
        // (a blank one) says nothing about where the rest went.
        var votes = [Int](repeating: 0, count: 2 * h)
        for y in 0..<h where b[y] != a[y] {
            var found = 0
            for z in 0..<h where a[z] == b[y] { found += 1 }
            guard found <= 4 else { continue }
            for z in 0..<h where a[z] == b[y] { votes[z - y + h] += 1 }
        }
        var best = 0
        for k in 1..<(2 * h) where votes[k] > votes[best] || (votes[k] == votes[best] && abs(k - h) < abs(best - h)) { best = k }
        let by = best - h
        guard by != 0, votes[best] >= least else { return nil }
        // The region spans the rows the move brings, from where they were to where they go.
        var first = -1
        var last = -1
        for y in max(0, -by)..<min(h, h - by) where b[y] != a[y] && b[y] == a[y + by] {
            if first < 0 { first = y }
            last = y
        }
        guard first >= 0 else { return nil }
        let shift = RowShift(top: min(first, first + by), bottom: max(last, last + by), by: by)
        // Rows it spares, less rows that were right and would have to be written again.
        var gain = 0
        for y in shift.top...shift.bottom {
            let from = y + by
            if from >= shift.top && from <= shift.bottom && b[y] == a[from] { gain += 1 }
            if b[y] == a[y] { gain -= 1 }
        }
        return gain >= least ? shift : nil
    }

    /// Whether row `y` here shows what row `z` of `other` (same width) shows: by their names
    /// where they say so, which debug builds check against the cells.
    func sameRow(_ y: Int, _ other: Screen, _ z: Int) -> Bool {
        guard sameByName(y, other, z) else { return sameCells(y, other, z) }
        assert(sameCells(y, other, z), "row \(y) is named as row \(z) of the other screen but shows other cells")
        return true
    }

    /// `sameRow` by the cells alone.
    private func sameCells(_ y: Int, _ other: Screen, _ z: Int) -> Bool {
        if Cell.isTwoWords, !mayHoldCluster(y), !other.mayHoldCluster(z) { return sameBytes(y, other, z) }
        return cells.withUnsafeBufferPointer { bc in
            other.cells.withUnsafeBufferPointer { ac in
                guard let a = ac.baseAddress.map({ $0 + z * width }), let b = bc.baseAddress.map({ $0 + y * width }) else { return true }
                if Cell.isTwoWords {
                    if let same = Self.sameWords(UnsafeRawPointer(a), UnsafeRawPointer(b), width) { return same }
                    // A row with a cluster: other cells as words, a cluster by its style and text.
                    for x in 0..<width {
                        let (p, q) = (a[x], b[x])
                        if p.isCluster || q.isCluster {
                            guard p.isCluster, q.isCluster, p.style == q.style else { return false }
                            if !Self.sameText(other.grapheme(of: p), grapheme(of: q)) { return false }
                        } else if Cell.differingBits(UnsafeRawPointer(a + x), UnsafeRawPointer(b + x), at: 0) != 0 {
                            return false
                        }
                    }
                    return true
                }
                for x in 0..<width {
                    let p = a[x]
                    let q = b[x]
                    // A cluster's code is its place in each screen's own table: compared by text.
                    guard p == q || (p.isCluster && q.isCluster && p.style == q.style) else { return false }
                    if p.isCluster && !Self.sameText(other.grapheme(of: p), grapheme(of: q)) { return false }
                }
                return true
            }
        }
    }

    /// Two rows of `count` cells compared as words (`Cell.isTwoWords`), eight cells at a time:
    /// whether they are the same, or nil once the old row (`a`) has a cluster (compared by its
    /// text, not its code, cell by cell; one in `b` alone is a difference). Comparing every
    /// cell field by field cost 26 instructions a cell, a fifth of a frame; a row with a
    /// cluster goes cell by cell, each cell but a cluster as words (one version that went so
    /// only in a cluster's block of eight cost more on both frames the bench counts).
    @inline(__always) static func sameWords(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool? {
        let cluster = UInt64(Cell.clusterFlag)
        var differ: UInt64 = 0
        var codes: UInt64 = 0
        var x = 0
        while x < count {
            let stop = Swift.min(count, x + 8)
            while x < stop {
                let at = x &* 16
                differ |= Cell.differingBits(a, b, at: at)
                // `a`'s codes alone: where `b` alone has a cluster, the codes differ.
                codes |= a.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                x &+= 1
            }
            if codes & cluster != 0 { return nil }
            if differ != 0 { return false }
        }
        return true
    }

    /// Whether two screens' cells hold the same fields, code for code (`==`, with the cluster
    /// tables alike): as memory where cells are two words without padding. Cell by cell through
    /// `Array`'s `==` it cost 9 instructions a cell, each frame the app draws.
    static func sameCells(_ a: [Cell], _ b: [Cell]) -> Bool {
        guard Cell.isTwoWords, a.count == b.count else { return a == b }
        return a.withUnsafeBytes { ra in
            b.withUnsafeBytes { rb in
                guard let p = ra.baseAddress, let q = rb.baseAddress else { return true }
                return memcmp(p, q, ra.count) == 0
            }
        }
    }

    /// Whether most rows differ between two frames, judged by every fourth row: a scroll
    /// changes them all, a selection that moved a few.
    public static func mostRowsDiffer(from old: Screen, to new: Screen) -> Bool {
        guard old.width == new.width, old.height == new.height else { return true }
        let differing = stride(from: 0, to: new.height, by: 4).reduce(0) { $0 + (new.sameRow($1, old, $1) ? 0 : 1) }
        return 2 * differing > (new.height + 3) / 4
    }

    /// Copies a row of another screen (of the same width) into row `y`.
    public mutating func copyRow(_ row: Int, of other: Screen, to y: Int) {
        for x in 0..<min(width, other.width) {
            let cell = other[x, row]
            if cell.isCluster {
                self[x, y] = Cell(code: code(for: Character(other.grapheme(of: cell)), row: y), style: cell.style)
            } else {
                self[x, y] = cell
            }
        }
    }

    /// This frame as the terminal holds it after `shift`: the region's rows moved, and the rows
    /// it leaves behind unknown (drawn again whatever they show).
    public func moving(_ shift: RowShift) -> Screen {
        guard shift.top <= shift.bottom, shift.top < height, shift.bottom >= 0 else { return self }
        var out = self
        out.sources = RowSources()
        let w = width
        // A cluster or a wide grapheme may move to any row of the region.
        for y in max(0, shift.top)...min(height - 1, shift.bottom) {
            if !clusterRows.isEmpty { out.markCluster(row: y) }
            if !wideRows.isEmpty { Self.mark(&out.wideRows, y, height) }
        }
        cells.withUnsafeBufferPointer { from in
            out.cells.withUnsafeMutableBufferPointer { to in
                for y in max(0, shift.top)...min(height - 1, shift.bottom) {
                    if let source = shift.source(of: y, height: height) {
                        // Cells are plain words: a row is copied as memory.
                        (to.baseAddress! + y * w).update(from: from.baseAddress! + source * w, count: w)
                    } else {
                        (to.baseAddress! + y * w).update(repeating: .unknown, count: w)
                    }
                }
            }
        }
        return out
    }

    /// A hash of each row: cells' codes and styles, a cluster by its kind alone (its index is
    /// this screen's own), so equal rows of two frames hash alike.
    public func rowHashes() -> [UInt64] {
        cells.withUnsafeBufferPointer { c in
            (0..<height).map { y in
                var h: UInt64 = 0xcbf2_9ce4_8422_2325
                if Cell.isTwoWords, let base = c.baseAddress {
                    // The same two words a cell, read whole (19 instructions a cell field by field).
                    let row = UnsafeRawPointer(base + y * width)
                    for x in 0..<width {
                        var first = row.loadUnaligned(fromByteOffset: x &* 16, as: UInt64.self)
                        if first & UInt64(Cell.clusterFlag) != 0 { first &= ~UInt64(~Cell.clusterFlag) }
                        h = (h ^ first) &* 0x100_0000_01b3
                        let second = row.loadUnaligned(fromByteOffset: x &* 16 &+ 8, as: UInt64.self) & Cell.secondWordMask
                        h = (h ^ second) &* 0x100_0000_01b3
                    }
                    return h
                }
                for i in y * width..<(y + 1) * width {
                    let cell = c[i]
                    let code = cell.isCluster ? Cell.clusterFlag : cell.code
                    let s = cell.style
                    h = (h ^ (UInt64(code) | UInt64(s.fgBits) << 32)) &* 0x100_0000_01b3
                    h = (h ^ (UInt64(s.bgBits) | UInt64(s.attributes.rawValue) << 32 | UInt64(s.link) << 48)) &* 0x100_0000_01b3
                }
                return h
            }
        }
    }
}

extension Cell {
    /// The byte of a cell showing one printable ASCII character, else nil (inlinable: the
    /// terminal writes runs of them in another module).
    @inlinable public var printableASCII: UInt8? { code >= 0x20 && code < 0x7F ? UInt8(truncatingIfNeeded: code) : nil }
}
