extension Screen {
    /// The cells `text` takes when every scalar in it is one cell and a grapheme of its own:
    /// printable ASCII, or U+00A0–U+02FF but for the soft hyphen. No rule of UAX #29 joins two
    /// such scalars (the first marks and joiners are at U+0300 and beyond, and none of them is a
    /// Prepend), and each is one cell in every width mode. Nil for any other text, which is
    /// measured grapheme by grapheme. The status bar's and tabs' " · " took that path, a table
    /// lookup each (#29).
    @inline(__always) static func oneCellScalars(_ text: some StringProtocol) -> Int? {
        text.utf8.withContiguousStorageIfAvailable(oneCellScalars) ?? Array(text.utf8).withUnsafeBufferPointer(oneCellScalars)
    }

    @inline(__always) static func oneCellScalars(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var (i, n) = (0, 0)
        while i < bytes.count {
            let b = bytes[i]
            if b >= 0x20 && b < 0x7F {
                i += 1
            } else if b >= 0xC2 && b <= 0xCB, i + 1 < bytes.count {
                // U+0080–U+02FF: two bytes, the first C2–CB.
                let v = UInt32(b & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                if v < 0xA0 || v == 0xAD { return nil }
                i += 2
            } else {
                return nil
            }
            n += 1
        }
        return n
    }

    /// Writes `text` if `oneCellScalars` measures it, a cell a scalar, within `left..<right`:
    /// the column after it; nil, and nothing written, for other text.
    @inline(__always) mutating func oneCellText(_ text: some StringProtocol, x: Int, y: Int, style: Style, left: Int, right: Int) -> Int? {
        func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            guard Self.oneCellScalars(bytes) != nil else { return nil }
            var (col, i) = (x, 0)
            while i < bytes.count, col < right {
                var code = UInt32(bytes[i])
                if code < 0x80 {
                    i += 1
                } else {
                    code = (code & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                    i += 2
                }
                if col >= left {
                    clearWide(at: col, y: y)
                    cells[y * width + col] = Cell(code: code, style: style)
                }
                col += 1
            }
            return col
        }
        if let done = text.utf8.withContiguousStorageIfAvailable(write) { return done }
        return Array(text.utf8).withUnsafeBufferPointer(write)
    }
}
