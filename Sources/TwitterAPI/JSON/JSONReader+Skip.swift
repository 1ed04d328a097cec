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

    /// Skips one value and returns where it starts, to read it later with `rewind(to:)`.
    mutating func skipValueReturningStart() throws -> Int {
        skipWhitespace()
        let start = offset
        try skipValue()
        return start
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
            offset = Self.numberEnd(p, from: offset, end)
            if offset == start { throw fail("unexpected character") }
        }
    }

    /// Skips an object or array iteratively, keeping the expected closing brackets on a stack
    /// (on the machine stack: a heap array here cost an allocation per skipped user or entity).
    mutating func skipContainer() throws {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxDepth + 1) { stack in
            var closers = ClosingStack(storage: stack)
            try skipContainer(&closers)
        }
    }

    /// One loop with the position in a local: skipping users and unread fields is a third of
    /// decoding a tweet, and calls per token (string, literal, separator) cost more than the scan.
    private mutating func skipContainer(_ closers: inout ClosingStack) throws {
        let p = self.p
        let end = self.end
        var i = offset
        func failing(_ message: String, at position: Int) -> JSONError {
            offset = position
            return fail(message)
        }
        /// Past whitespace; a byte above space ends it at one compare (most tokens have none).
        @inline(__always) func whitespace() {
            while i < end {
                let c = p[i]
                guard c <= 0x20, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
                i += 1
            }
        }
        /// A key and its colon, at `i`.
        @inline(__always) func key() throws {
            whitespace()
            guard i < end, p[i] == UInt8(ascii: "\"") else { throw failing("expected a string", at: i) }
            guard let close = closingQuote(from: i + 1) else { throw failing("unterminated string", at: i) }
            i = close.at + 1
            whitespace()
            guard i < end, p[i] == UInt8(ascii: ":") else { throw failing("expected ':' after a key", at: i) }
            i += 1
        }
        while true {
            // A value.
            whitespace()
            guard i < end else { throw failing("unexpected end of input", at: i) }
            let b = p[i]
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let closer = b &+ 2  // '{' + 2 is '}', '[' + 2 is ']'
                guard closers.append(closer), closers.count <= Self.maxDepth else { throw failing("nested too deeply", at: i) }
                i += 1
                whitespace()
                if i < end, p[i] == closer {
                    i += 1
                    closers.removeLast()
                } else {
                    if closer == UInt8(ascii: "}") { try key() }
                    continue
                }
            case UInt8(ascii: "\""):
                guard let close = closingQuote(from: i + 1) else { throw failing("unterminated string", at: i) }
                i = close.at + 1
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let n = Self.literal(p, at: i, end)
                guard n > 0 else { throw failing(b == UInt8(ascii: "n") ? "unexpected character" : "expected true or false", at: i) }
                i += n
            default:
                let start = i
                i = Self.numberEnd(p, from: i, end)
                if i == start { throw failing("unexpected character", at: i) }
            }
            // After a value: a comma, or the innermost closing bracket (perhaps several).
            while true {
                guard let closer = closers.last else {
                    offset = i
                    return
                }
                whitespace()
                guard i < end else { throw failing("unexpected end of input", at: i) }
                let c = p[i]
                i += 1
                if c == UInt8(ascii: ",") {
                    if closer == UInt8(ascii: "}") { try key() }
                    break
                } else if c == closer {
                    closers.removeLast()
                } else {
                    throw failing("expected ',' or a closing bracket", at: i - 1)
                }
            }
        }
    }

    /// Where the run of number characters (digits, sign, point, exponent) at `i` ends. Digits
    /// are passed eight at a time (a word checked by its high nibbles, before and after adding
    /// 6: an id is 18 or 19 of them); the rest byte by byte.
    @inline(__always) static func numberEnd(_ p: UnsafePointer<UInt8>, from start: Int, _ end: Int) -> Int {
        var i = start
        let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let threes: UInt64 = 0x3030_3030_3030_3030
        while i + 8 <= end {
            let w = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
            // A byte is nonzero where it is not a digit; a carry out of a byte past 0xF9 only
            // changes bytes after it, which are not counted.
            let other = ((w & high) ^ threes) | (((w &+ 0x0606_0606_0606_0606) & high) ^ threes)
            if other == 0 {
                i += 8
                continue
            }
            i += other.trailingZeroBitCount >> 3
            break
        }
        while i < end {
            let c = p[i]
            guard (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2B || c == 0x2E || c == 0x65 || c == 0x45 else { break }
            i += 1
        }
        return i
    }

    /// Checks each escape in bytes just skipped (from `start` to the reader), as reading their
    /// strings would, with the same words. For values skipped where they used to be read: a
    /// skip checks the structure, and only a read checked escapes. A backslash there is always
    /// in a string, since the skip refused one anywhere else.
    mutating func checkEscapes(from start: Int) throws {
        let stop = offset
        var i = start
        while true {
            // Backslashes only (libc's memchr, 32 bytes a compare): a stop at each quote cost
            // more than the skip.
            guard i < stop, let found = memchr(p + i, 0x5C, stop - i) else { return }
            i = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - p
            switch i + 1 < stop ? p[i + 1] : 0 {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                UInt8(ascii: "r"), UInt8(ascii: "t"):
                i += 2
            case UInt8(ascii: "u"):
                guard i + 6 <= stop else { throw JSONError("short \\u escape", offset: i + 2) }
                let digits = UInt32(littleEndian: UnsafeRawPointer(p + i + 2).loadUnaligned(as: UInt32.self))
                guard Self.hex4(digits) != nil else { throw JSONError("bad hex digit in \\u escape", offset: i + 2) }
                i += 6
            default:
                throw JSONError("invalid escape in a string", offset: i + 2)
            }
        }
    }

    mutating func skipString() throws {
        skipWhitespace()
        guard offset < end, p[offset] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        guard let close = closingQuote(from: offset + 1) else { throw fail("unterminated string") }
        offset = close.at + 1
    }

    /// Index of the quote that ends a string whose content starts at `from`, and whether a
    /// backslash came before it. An escape's second byte is never taken for the end.
    @inline(__always) func closingQuote(from: Int) -> (at: Int, escaped: Bool)? {
        var i = from
        var escaped = false
        while true {
            i = quoteOrBackslash(from: i)
            guard i < end else { return nil }
            if p[i] == UInt8(ascii: "\"") { return (i, escaped) }
            escaped = true
            i += 2
        }
    }
}

/// The closing brackets a skip still expects, innermost last.
struct ClosingStack {
    let storage: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0
    init(storage: UnsafeMutableBufferPointer<UInt8>) { self.storage = storage }
    var isEmpty: Bool { count == 0 }
    var last: UInt8? { count == 0 ? nil : storage[count - 1] }
    /// False when the stack is full (the document nests deeper than `maxDepth`).
    mutating func append(_ b: UInt8) -> Bool {
        guard count < storage.count else { return false }
        storage[count] = b
        count += 1
        return true
    }
    mutating func removeLast() { count -= 1 }
}
