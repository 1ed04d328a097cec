extension Screen {
    /// The printable ASCII cells of row `y` from `x` up to `limit` (at most), in `style`
    /// exactly and each with a cell that is not a continuation after it: their bytes written
    /// to `out`, and how many there were. Read as words (`Cell.isTwoWords`): a banded row's
    /// cells, checked one by one through `Cell` and `Style`, cost the terminal's writer about
    /// 20 instructions each. `out` holds `limit - x` bytes at least; 0 where cells are not
    /// two words.
    public func asciiRun(row y: Int, from x: Int, to limit: Int, style: Style, into out: UnsafeMutablePointer<UInt8>) -> Int {
        guard Cell.isTwoWords, y >= 0, y < height, x >= 0, x < limit, limit <= width else { return 0 }
        // The style's words, as a blank of it holds them: foreground above the code, then the rest.
        let (a, b) = withUnsafeBytes(of: Cell(style: style)) {
            ($0.loadUnaligned(as: UInt64.self) >> 32, $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & Cell.secondWordMask)
        }
        return cells.withUnsafeBufferPointer { c in
            let row = UnsafeRawPointer(c.baseAddress! + y &* width)
            var k = x
            while k < limit {
                let first = row.loadUnaligned(fromByteOffset: k &* 16, as: UInt64.self)
                let second = row.loadUnaligned(fromByteOffset: k &* 16 &+ 8, as: UInt64.self)
                let code = UInt32(truncatingIfNeeded: first)
                guard first >> 32 == a, second & Cell.secondWordMask == b, code >= 0x20, code < 0x7F else { break }
                // A continuation after it: a grapheme of more than one cell, left to the caller.
                if k &+ 1 < width, row.loadUnaligned(fromByteOffset: (k &+ 1) &* 16, as: UInt32.self) == 0 { break }
                out[k &- x] = UInt8(truncatingIfNeeded: code)
                k &+= 1
            }
            return k &- x
        }
    }
}
