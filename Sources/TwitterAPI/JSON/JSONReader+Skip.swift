import Glibc

/// Skipping values without building them.
extension JSONReader {
    // MARK: - Skipping

    /// Skips one whole value of any kind, checking its syntax.
    public mutating func skipValue() throws {
        skipWhitespace()
        guard offset < end else { throw fail("unexpected end of input") }
        let b = p[offset]
        if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
            try skipContainer()
        } else {
            try skipScalar()
        }
    }

    mutating func skipScalar() throws {
        switch p[offset] {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try readBool()
        case UInt8(ascii: "n"):
            guard readNull() else { throw fail("unexpected character") }
        default:
            let start = offset
            while offset < end {
                let c = p[offset]
                guard (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2B || c == 0x2E || c == 0x65 || c == 0x45
                else { break }
                offset += 1
            }
            if offset == start { throw fail("unexpected character") }
        }
    }

    /// Skips an object or array iteratively, keeping the expected closing brackets on a stack.
    mutating func skipContainer() throws {
        var closers: [UInt8] = []
        var needValue = true
        while true {
            if needValue {
                skipWhitespace()
                guard offset < end else { throw fail("unexpected end of input") }
                let b = p[offset]
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                    let closer = b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    closers.append(closer)
                    if closers.count > Self.maxDepth { throw fail("nested too deeply") }
                    offset += 1
                    skipWhitespace()
                    if offset < end, p[offset] == closer {
                        offset += 1
                        closers.removeLast()
                        needValue = false
                    } else if closer == UInt8(ascii: "}") {
                        try skipString()
                        try expect(UInt8(ascii: ":"), "':' after a key")
                    }
                    if closers.isEmpty { return }
                    continue
                }
                try skipScalar()
                needValue = false
            }
            guard let closer = closers.last else { return }
            skipWhitespace()
            guard offset < end else { throw fail("unexpected end of input") }
            let b = p[offset]
            offset += 1
            if b == UInt8(ascii: ",") {
                if closer == UInt8(ascii: "}") {
                    try skipString()
                    try expect(UInt8(ascii: ":"), "':' after a key")
                }
                needValue = true
            } else if b == closer {
                closers.removeLast()
                if closers.isEmpty { return }
            } else {
                offset -= 1
                throw fail("expected ',' or a closing bracket")
            }
        }
    }

    mutating func skipString() throws {
        skipWhitespace()
        guard offset < end, p[offset] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        guard let close = closingQuote(from: offset + 1) else { throw fail("unterminated string") }
        offset = close + 1
    }

    /// Index of the quote that ends a string whose content starts at `from`, skipping escaped
    /// quotes; memchr finds candidates a word at a time.
    @inline(__always) func closingQuote(from: Int) -> Int? {
        var i = from
        while i < end {
            guard let hit = memchr(p + i, Int32(UInt8(ascii: "\"")), end - i) else { return nil }
            let q = p.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            // A quote preceded by an odd run of backslashes is escaped.
            var backslashes = 0
            var k = q - 1
            while k >= from, p[k] == UInt8(ascii: "\\") {
                backslashes += 1
                k -= 1
            }
            if backslashes % 2 == 0 { return q }
            i = q + 1
        }
        return nil
    }
}
