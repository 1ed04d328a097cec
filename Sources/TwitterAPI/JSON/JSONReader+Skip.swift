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
            while offset < end {
                let c = p[offset]
                guard (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2B || c == 0x2E || c == 0x65 || c == 0x45
                else { break }
                offset += 1
            }
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

    private mutating func skipContainer(_ closers: inout ClosingStack) throws {
        var needValue = true
        while true {
            if needValue {
                skipWhitespace()
                guard offset < end else { throw fail("unexpected end of input") }
                let b = p[offset]
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                    let closer = b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    guard closers.append(closer), closers.count <= Self.maxDepth else { throw fail("nested too deeply") }
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
