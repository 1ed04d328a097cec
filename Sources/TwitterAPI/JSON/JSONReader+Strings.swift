import CScan

/// Reading strings: in place when they hold no escape, else unescaped into their storage.
extension JSONReader {
    /// Reads a string; invalid UTF-8 becomes U+FFFD rather than an error.
    public mutating func readString() throws -> String {
        try expect(UInt8(ascii: "\""), "a string")
        let start = offset
        guard let close = closingQuote(from: start) else { throw fail("unterminated string") }
        if !close.escaped {
            offset = close.at + 1
            return String(decoding: UnsafeBufferPointer(start: p + start, count: close.at - start), as: UTF8.self)
        }
        // Unescaped into a buffer on the stack (no text is longer than its JSON), then made a
        // string of its exact size: a string made with room for the JSON would keep that room
        // (a `\u3042` is six bytes there, three in UTF-8), and names and bios are kept.
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: close.at - start) { buffer in
            let n = try unescape(from: start, to: close.at, into: buffer)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<n]), as: UTF8.self)
        }
    }

    /// A string's bytes, unescaped, added to `out`; false, with the value skipped, when it is
    /// not a string.
    mutating func appendString(to out: ByteBuffer) throws -> Bool {
        guard let (start, close) = try openString() else { return false }
        let room = close.at - start
        let to = out.reserve(room)
        if close.escaped {
            out.commit(try unescape(from: start, to: close.at, into: UnsafeMutableBufferPointer(start: to, count: room)))
        } else {
            to.initialize(from: p + start, count: room)
            out.commit(room)
            offset = close.at + 1
        }
        return true
    }

    /// A string's bytes, unescaped and made valid UTF-8 as `readString` makes them (invalid
    /// sequences become U+FFFD), written at the end of `out` without making a `String`: where
    /// they lie there, or nil, with the value skipped, when it is not a string. A post's text is
    /// kept as bytes: a `String` of it was checked scalar by scalar and copied again.
    mutating func appendUTF8(to out: ByteBuffer) throws -> Range<Int>? {
        guard let (start, close) = try openString() else { return nil }
        let from = out.count
        let room = close.at - start
        let to = out.reserve(room)
        var valid = false
        if close.escaped {
            let (n, rawASCII) = try unescapeNoting(from: start, to: close.at, into: UnsafeMutableBufferPointer(start: to, count: room))
            out.commit(n)
            valid = rawASCII
        } else {
            to.initialize(from: p + start, count: room)
            out.commit(room)
            offset = close.at + 1
        }
        let written = out[from..<out.count]
        if valid || Self.isValidUTF8(written) { return from..<out.count }
        let repaired = String(decoding: written, as: UTF8.self)
        out.truncate(to: from)
        var text = repaired
        text.withUTF8 { out.append($0) }
        return from..<out.count
    }

    /// At a string: the reader past its opening quote, where its text starts and its closing
    /// quote; nil, with the value skipped, when it is not a string.
    @inline(__always) private mutating func openString() throws -> (start: Int, close: (at: Int, escaped: Bool))? {
        guard peek() == .string else {
            try skipValue()
            return nil
        }
        try expect(UInt8(ascii: "\""), "a string")
        guard let close = closingQuote(from: offset) else { throw fail("unterminated string") }
        return (offset, close)
    }

    /// At a string without escapes: where its bytes lie, the reader past it. At one with
    /// escapes: nil, the reader at its opening quote (past any whitespace before it).
    mutating func plainString() throws -> Range<Int>? {
        try expect(UInt8(ascii: "\""), "a string")
        guard let close = closingQuote(from: offset) else { throw fail("unterminated string") }
        guard !close.escaped else {
            offset -= 1
            return nil
        }
        defer { offset = close.at + 1 }
        return offset..<close.at
    }

    /// Whether `bytes` are well-formed UTF-8.
    @inline(__always) static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return linnet_utf8_valid(base, bytes.count) != 0
    }

    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValidUTF8($0) }
    }

    /// Unescapes the string whose text runs from `start` to its closing quote at `close` into
    /// `out` (room for `close - start` bytes: no escape is shorter than what it stands for) and
    /// returns the bytes written; the reader ends past the closing quote.
    private mutating func unescape(from start: Int, to close: Int, into out: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        try unescapeNoting(from: start, to: close, into: out).count
    }

    /// `unescape`, saying too whether every byte copied as it stood was ASCII: escapes write
    /// only well-formed UTF-8 (a lone surrogate as U+FFFD), so then the whole is, unchecked.
    private mutating func unescapeNoting(
        from start: Int, to close: Int, into out: UnsafeMutableBufferPointer<UInt8>
    ) throws -> (count: Int, rawASCII: Bool) {
        guard let to = out.baseAddress else {
            offset = close + 1
            return (0, true)
        }
        var n = 0
        var high = false
        offset = start
        while offset < close {
            let b = p[offset]
            guard b == UInt8(ascii: "\\") else {
                // Copy the run up to the next backslash (or the end) in one go.
                let j = min(quoteOrBackslash(from: offset + 1), close)
                if linnet_copy_noting_high(to + n, p + offset, j - offset) != 0 { high = true }
                n += j - offset
                offset = j
                continue
            }
            let e = p[offset + 1]
            offset += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): to[n] = e
            case UInt8(ascii: "b"): to[n] = 0x08
            case UInt8(ascii: "f"): to[n] = 0x0C
            case UInt8(ascii: "n"): to[n] = 0x0A
            case UInt8(ascii: "r"): to[n] = 0x0D
            case UInt8(ascii: "t"): to[n] = 0x09
            case UInt8(ascii: "u"):
                var scalar = try readHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    if offset + 1 < end, p[offset] == UInt8(ascii: "\\"), p[offset + 1] == UInt8(ascii: "u") {
                        let save = offset
                        offset += 2
                        let low = try readHex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            scalar = 0xFFFD
                            offset = save
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                n += Self.writeUTF8(scalar, to + n)
                // Text sent as escapes runs escape after escape: read here, not through the
                // loop and its switch; a surrogate or a bad digit goes the general way.
                while offset + 6 <= close,
                    UnsafeRawPointer(p + offset).loadUnaligned(as: UInt16.self) == UInt16(littleEndian: 0x755C),  // "\u"
                    let v = Self.hex4(UInt32(littleEndian: UnsafeRawPointer(p + offset + 2).loadUnaligned(as: UInt32.self))),
                    v < 0xD800 || v > 0xDFFF
                {
                    offset += 6
                    n += Self.writeUTF8(v, to + n)
                }
                continue
            default:
                throw fail("invalid escape in a string")
            }
            n += 1
        }
        offset = close + 1
        return (n, !high)
    }

    /// Writes a scalar (a surrogate already made U+FFFD) as UTF-8; returns its length.
    @inline(__always) private static func writeUTF8(_ v: UInt32, _ to: UnsafeMutablePointer<UInt8>) -> Int {
        if v < 0x80 {
            to[0] = UInt8(v)
            return 1
        } else if v < 0x800 {
            to[0] = UInt8(0xC0 | (v >> 6))
            to[1] = UInt8(0x80 | (v & 0x3F))
            return 2
        } else if v < 0x10000 {
            to[0] = UInt8(0xE0 | (v >> 12))
            to[1] = UInt8(0x80 | ((v >> 6) & 0x3F))
            to[2] = UInt8(0x80 | (v & 0x3F))
            return 3
        }
        to[0] = UInt8(0xF0 | (v >> 18))
        to[1] = UInt8(0x80 | ((v >> 12) & 0x3F))
        to[2] = UInt8(0x80 | ((v >> 6) & 0x3F))
        to[3] = UInt8(0x80 | (v & 0x3F))
        return 4
    }

    /// The four hex digits of a `\\u` escape, checked and read as one 32-bit word (the first
    /// digit in the lowest byte).
    @inline(__always) private mutating func readHex4() throws -> UInt32 {
        guard offset + 4 <= end else { throw fail("short \\u escape") }
        let x = UInt32(littleEndian: UnsafeRawPointer(p + offset).loadUnaligned(as: UInt32.self))
        guard let v = Self.hex4(x) else { throw fail("bad hex digit in \\u escape") }
        offset += 4
        return v
    }

    /// The value of four ASCII hex digits, or nil when a byte is not one. Each byte is tested
    /// by adding to it so that its high bit says whether it reached a bound; bytes are ASCII
    /// first, so no sum carries into the next byte.
    @inline(__always) static func hex4(_ x: UInt32) -> UInt32? {
        let high: UInt32 = 0x8080_8080
        guard x & high == 0 else { return nil }
        let digit = (x &+ 0x5050_5050) & ~(x &+ 0x4646_4646) & high  // 0x30...0x39
        let folded = x | 0x2020_2020  // 'A'...'F' as 'a'...'f'
        let letter = (folded &+ 0x1F1F_1F1F) & ~(folded &+ 0x1919_1919) & high  // 0x61...0x66
        guard digit | letter == high else { return nil }
        // A digit's low four bits are its value; a letter's are 1 to 6, and its bit 6 adds 9.
        let n = (x & 0x0F0F_0F0F) &+ ((x >> 6) & 0x0101_0101) &* 9
        let pairs = ((n & 0x000F_000F) << 4) | ((n >> 8) & 0x000F_000F)
        return ((pairs & 0xFF) << 8) | ((pairs >> 16) & 0xFF)
    }
}
