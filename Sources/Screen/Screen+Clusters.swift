import Glibc

/// Clusters (graphemes of more than one scalar) are kept in each screen's own table, so a
/// cell holding one is compared by its text. Rows known to hold none compare as memory.
extension Screen {
    mutating func code(for ch: Character, row y: Int) -> UInt32 {
        var it = ch.unicodeScalars.makeIterator()
        if let first = it.next(), it.next() == nil { return first.value }
        return code(forCluster: String(ch), row: y)
    }

    /// The code of a grapheme of more than one scalar: its place in this screen's table.
    mutating func code(forCluster s: String, row y: Int) -> UInt32 {
        markCluster(row: y)
        let i = UInt32(clusters.count)
        clusters.append(s)
        return Cell.clusterFlag | i
    }

    /// Row `y` may hold a cluster from now on.
    @inline(__always) mutating func markCluster(row y: Int) { Self.mark(&clusterRows, y, height) }

    /// Whether row `y` may hold a cluster (every row a cluster was written to, whatever
    /// overwrote it since).
    @inline(__always) func mayHoldCluster(_ y: Int) -> Bool { Self.has(clusterRows, y) }

    /// Whether row `y` may hold a wide grapheme's continuation (as `mayHoldCluster`): others
    /// need no look for one to blank before they are written over.
    @inline(__always) func mayHoldWide(_ y: Int) -> Bool { Self.has(wideRows, y) }

    @inline(__always) static func mark(_ rows: inout [UInt64], _ y: Int, _ height: Int) {
        if rows.isEmpty { rows = [UInt64](repeating: 0, count: (height + 63) / 64) }
        rows[y >> 6] |= 1 << UInt64(y & 63)
    }

    @inline(__always) static func has(_ rows: [UInt64], _ y: Int) -> Bool { !rows.isEmpty && rows[y >> 6] & (1 << UInt64(y & 63)) != 0 }

    /// Row `y` here and row `z` of `other` hold the same bytes (`Cell.isTwoWords`, whose cells
    /// have no padding): 1.5 instructions a cell through `memcmp` against 10 as words.
    @inline(__always) func sameBytes(_ y: Int, _ other: Screen, _ z: Int) -> Bool {
        let row = width * MemoryLayout<Cell>.stride
        return cells.withUnsafeBytes { a in
            other.cells.withUnsafeBytes { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return true }
                return memcmp(a + y * row, b + z * row, row) == 0
            }
        }
    }
}
