import TweetText

extension Screen {
    /// The cells `text` takes when every scalar in it is one cell and a grapheme of its own:
    /// printable ASCII, U+00A0–U+02FF but for the soft hyphen, and the symbols of U+2000–U+2BFF
    /// that `aloneSymbol` takes. No rule of UAX #29 joins two such scalars (marks, joiners,
    /// controls and Prepend scalars are left out), and each is one cell in every width mode.
    /// Nil for any other text, which is measured grapheme by grapheme. The status bar's and
    /// tabs' " · " and the pane's "▲ N newer" took that path, a table lookup each, the last a
    /// new text on every scroll (#29).
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
            } else if b == 0xE2, i + 2 < bytes.count {
                // U+2000–U+2FFF: three bytes, the first E2.
                let v = 0x2000 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                if !aloneSymbol(v) { return nil }
                i += 3
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
            // A row without a wide grapheme has none to blank under the cells written.
            let wide = mayHoldWide(y)
            var (col, i) = (x, 0)
            while i < bytes.count, col < right {
                var code = UInt32(bytes[i])
                if code < 0x80 {
                    i += 1
                } else if code < 0xE0 {
                    code = (code & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                    i += 2
                } else {
                    code = (code & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                    i += 3
                }
                if col >= left {
                    if wide { clearWide(at: col, y: y) }
                    cells[y * width + col] = Cell(code: code, style: style)
                }
                col += 1
            }
            return col
        }
        if let done = text.utf8.withContiguousStorageIfAvailable(write) { return done }
        return Array(text.utf8).withUnsafeBufferPointer(write)
    }

    /// A scalar of U+2000–U+2BFF (spaces, punctuation, arrows, box drawing, shapes, symbols)
    /// that is a grapheme of its own beside any scalar `oneCellScalars` takes, and one cell
    /// alone: none of the marks, joiners, controls, line and paragraph separators or unassigned
    /// scalars, nothing wide or shown as an emoji by default (the zero-width ones fail the
    /// width as well as the category). Read from the scalar's properties: a few lookups for a
    /// text's symbol, against measuring the whole text.
    static func aloneSymbol(_ v: UInt32) -> Bool {
        guard v >= 0x2000, v < 0x2C00, let s = Unicode.Scalar(v) else { return false }
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator, .surrogate,
            .privateUse, .unassigned:
            return false
        default:
            // The range's extending scalars (ZWNJ, the marks for symbols) are all in the
            // categories above.
            return DisplayWidth.scalarWidth(v) == 1
        }
    }
}
