extension Screen {
    /// The cells `text` takes when every scalar in it is one cell and a grapheme of its own:
    /// printable ASCII, or U+00A0–U+02FF but for the soft hyphen. No rule of UAX #29 joins two
    /// such scalars (the first marks and joiners are at U+0300 and beyond, and none of them is a
    /// Prepend), and each is one cell in every width mode. Nil for any other text, which is
    /// measured grapheme by grapheme. The status bar's and tabs' " · " took that path, a table
    /// lookup each (#29).
    @inline(__always) static func oneCellScalars(_ text: some StringProtocol) -> Int? {
        var n = 0
        var lead: UInt8 = 0
        for b in text.utf8 {
            if lead != 0 {
                // U+0080–U+02FF: two bytes, the first C2–CB.
                let v = UInt32(lead & 0x1F) << 6 | UInt32(b & 0x3F)
                if v < 0xA0 || v == 0xAD { return nil }
                lead = 0
                n += 1
            } else if b >= 0x20 && b < 0x7F {
                n += 1
            } else if b >= 0xC2 && b <= 0xCB {
                lead = b
            } else {
                return nil
            }
        }
        return lead == 0 ? n : nil
    }

    /// Writes text that `oneCellScalars` measured, a cell a scalar, within `left..<right`:
    /// the column after it.
    @inline(__always) mutating func oneCellText(_ text: some StringProtocol, x: Int, y: Int, style: Style, left: Int, right: Int) -> Int {
        var col = x
        var lead: UInt8 = 0
        for b in text.utf8 {
            if col >= right { break }
            let code: UInt32
            if lead != 0 {
                code = UInt32(lead & 0x1F) << 6 | UInt32(b & 0x3F)
                lead = 0
            } else if b >= 0x80 {
                lead = b
                continue
            } else {
                code = UInt32(b)
            }
            if col >= left {
                clearWide(at: col, y: y)
                cells[y * width + col] = Cell(code: code, style: style)
            }
            col += 1
        }
        return col
    }
}
