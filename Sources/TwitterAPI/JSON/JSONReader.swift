import CScan
import Glibc

/// A forward-only reader over JSON bytes that builds no tree: callers read the fields they want
/// and skip the rest, which is what makes decoding a stream of large tweets cheap.
///
/// Use it inside `withUnsafeBytes`; it must not outlive the buffer.
public struct JSONReader {
    /// The kinds of JSON value.
    public enum Kind: Equatable, Sendable { case object, array, string, number, bool, null, end }

    let p: UnsafePointer<UInt8>
    let end: Int
    /// Byte offset of the next unread byte.
    public internal(set) var offset: Int
    /// Nesting limit, so hostile input cannot exhaust the stack of recursive callers.
    public static let maxDepth = 512

    /// A reader over `buffer`.
    public init(_ buffer: UnsafeRawBufferPointer) {
        // An empty buffer may have no address; it is never read, since `end` is 0.
        p = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1).unsafelyUnwrapped
        end = buffer.count
        offset = 0
    }

    func fail(_ message: String) -> JSONError { JSONError(message, offset: offset) }

    /// Inlined for the usual cases, no whitespace or one space (after a colon or a comma in
    /// pretty JSON); longer runs and other whitespace out of line.
    @inline(__always) mutating func skipWhitespace() {
        guard offset < end else { return }
        var b = p[offset]
        if b == 0x20 {
            offset += 1
            guard offset < end else { return }
            b = p[offset]
        }
        if b <= 0x20 { skipWhitespaceRun() }
    }

    @inline(never) mutating func skipWhitespaceRun() {
        while offset < end {
            let b = p[offset]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            offset += 1
        }
    }

    /// The kind of the next value, without reading it.
    @inline(__always) public mutating func peek() -> Kind {
        skipWhitespace()
        guard offset < end else { return .end }
        switch p[offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: return .number
        }
    }

    /// True when only whitespace is left.
    public mutating func atEnd() -> Bool {
        skipWhitespace()
        return offset >= end
    }

    @inline(__always) mutating func expect(_ byte: UInt8, _ what: String) throws {
        skipWhitespace()
        guard offset < end, p[offset] == byte else { throw fail("expected \(what)") }
        offset += 1
    }

    // MARK: - Objects and arrays

    /// Reads `{`, then calls `body` with each key, positioned at its value; `body` must read or
    /// skip that value.
    public mutating func readObject(_ body: (inout JSONReader, JSONKey) throws -> Void) throws {
        try expect(UInt8(ascii: "{"), "an object")
        skipWhitespace()
        if offset < end, p[offset] == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            if let key = try readKey() {
                try colon()
                try body(&self, key)
            } else {
                // A key with escapes: decoded into a string that lives while `body` reads.
                var name = try readString()
                try colon()
                try name.withUTF8 { try body(&self, JSONKey(bytes: $0)) }
            }
            if offset >= end || p[offset] <= 0x20 { skipWhitespace() }
            guard offset < end else { throw fail("unterminated object") }
            let b = p[offset]
            offset += 1
            if b == UInt8(ascii: ",") { continue }
            if b == UInt8(ascii: "}") { return }
            offset -= 1
            throw fail("expected ',' or '}' in an object")
        }
    }

    /// Reads `[`, then calls `body` once per element, positioned at it; `body` must read or skip it.
    public mutating func readArray(_ body: (inout JSONReader) throws -> Void) throws {
        try expect(UInt8(ascii: "["), "an array")
        skipWhitespace()
        if offset < end, p[offset] == UInt8(ascii: "]") {
            offset += 1
            return
        }
        while true {
            try body(&self)
            if offset >= end || p[offset] <= 0x20 { skipWhitespace() }
            guard offset < end else { throw fail("unterminated array") }
            let b = p[offset]
            offset += 1
            if b == UInt8(ascii: ",") { continue }
            if b == UInt8(ascii: "]") { return }
            offset -= 1
            throw fail("expected ',' or ']' in an array")
        }
    }

    /// The colon after a key. It and the comma or bracket after a value stand right there in
    /// any JSON seen (pretty JSON spaces after them): looked for before any whitespace.
    @inline(__always) mutating func colon() throws {
        if offset < end, p[offset] == UInt8(ascii: ":") {
            offset += 1
        } else {
            try expect(UInt8(ascii: ":"), "':' after a key")
        }
    }

    /// A key without escapes, in place; nil, with the reader at its opening quote, for one with.
    @inline(__always) mutating func readKey() throws -> JSONKey? {
        if offset >= end || p[offset] != UInt8(ascii: "\"") { skipWhitespace() }
        guard offset < end, p[offset] == UInt8(ascii: "\"") else { throw fail("expected a key") }
        offset += 1
        let start = offset
        let stop = quoteOrBackslash(from: start)
        guard stop < end else {
            offset = end
            throw fail("unterminated key")
        }
        if p[stop] == UInt8(ascii: "\"") {
            offset = stop + 1
            return JSONKey(bytes: UnsafeBufferPointer(start: p + start, count: stop - start))
        }
        offset = start - 1
        return nil
    }

    /// Offset of the first quote or backslash at or after `from`, or `end` (sixteen bytes per
    /// compare where the machine has SSE2).
    @inline(__always) func quoteOrBackslash(from: Int) -> Int {
        linnet_quote_or_backslash(p, from, end)
    }

    // MARK: - Scalars

    /// Where a string value lies in the buffer, so it can be turned into a `String` later, or never.
    public struct StringSpan: Sendable {
        let start: Int
        let end: Int
    }

    /// Reads past a string, returning its place instead of its value.
    public mutating func readStringSpan() throws -> StringSpan {
        skipWhitespace()
        let start = offset
        try skipString()
        return StringSpan(start: start, end: offset)
    }

    /// The value of a string read with `readStringSpan`.
    public func string(_ span: StringSpan) throws -> String {
        var sub = self
        sub.offset = span.start
        return try sub.readString()
    }

    /// The bytes of a string read with `readStringSpan`, as `appendUTF8` writes them.
    func appendUTF8(_ span: StringSpan, to out: ByteBuffer) throws -> Range<Int> {
        var sub = self
        sub.offset = span.start
        return try sub.appendUTF8(to: out) ?? out.count..<out.count
    }

    /// A 64-bit hash of the bytes in `range`, eight at a time (multiply and rotate).
    func hashBytes(_ range: Range<Int>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(range.count)
        var i = range.lowerBound
        let raw = UnsafeRawPointer(p)
        while i + 8 <= range.upperBound {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ (w &* 0xFF51_AFD7_ED55_8CCD)).rotatedLeft(by: 29) &* 0xC4CE_B9FE_1A85_EC53
            i += 8
        }
        while i < range.upperBound {
            h = (h ^ UInt64(p[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        return h ^ (h >> 33)
    }

    /// Reads an integer that fits in 64 bits (negative allowed).
    public mutating func readInt64() throws -> Int64 {
        skipWhitespace()
        var negative = false
        if offset < end, p[offset] == UInt8(ascii: "-") {
            negative = true
            offset += 1
        }
        let magnitude = try readDigits()
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw fail("integer out of range") }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw fail("integer out of range") }
        return Int64(magnitude)
    }

    /// Reads a non-negative integer up to 2^64-1 (ids).
    public mutating func readUInt64() throws -> UInt64 {
        skipWhitespace()
        return try readDigits()
    }

    private mutating func readDigits() throws -> UInt64 {
        let start = offset
        // Eight digits at a time for the first sixteen (an id is 18 or 19); the rest one by
        // one, checked.
        var v: UInt64
        (v, offset) = Self.digitChunks(p, from: start, end, atMost: 16)
        while offset < end {
            let b = p[offset]
            guard b >= 0x30 && b <= 0x39 else { break }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(b - 0x30))
            if o1 || o2 { throw fail("integer out of range") }
            v = a
            offset += 1
        }
        guard offset > start else { throw fail("expected a number") }
        if offset < end, p[offset] == UInt8(ascii: ".") || p[offset] == UInt8(ascii: "e") || p[offset] == UInt8(ascii: "E") {
            throw fail("expected an integer")
        }
        return v
    }

    /// Reads any number as a `Double`.
    public mutating func readDouble() throws -> Double {
        skipWhitespace()
        let start = offset
        offset = Self.numberEnd(p, from: offset, end)
        let text = String(decoding: UnsafeBufferPointer(start: p + start, count: offset - start), as: UTF8.self)
        guard let d = Double(text) else {
            offset = start
            throw fail("expected a number")
        }
        return d
    }

    /// Reads `true` or `false`.
    public mutating func readBool() throws -> Bool {
        skipWhitespace()
        switch Self.literal(p, at: offset, end) {
        case 4 where p[offset] == UInt8(ascii: "t"):
            offset += 4
            return true
        case 5:
            offset += 5
            return false
        default: throw fail("expected true or false")
        }
    }

    /// Consumes `null` and returns true if it is next.
    public mutating func readNull() -> Bool {
        skipWhitespace()
        guard Self.literal(p, at: offset, end) == 4, p[offset] == UInt8(ascii: "n") else { return false }
        offset += 4
        return true
    }

    /// The length of `true`, `false` or `null` at `i`, compared a word at a time; 0 for none.
    @inline(__always) static func literal(_ p: UnsafePointer<UInt8>, at i: Int, _ end: Int) -> Int {
        guard i + 4 <= end else { return 0 }
        switch UInt32(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt32.self)) {
        case 0x6575_7274, 0x6C6C_756E: return 4  // "true", "null"
        case 0x736C_6166: return i + 5 <= end && p[i + 4] == UInt8(ascii: "e") ? 5 : 0  // "fals"
        default: return 0
        }
    }
}

extension UInt64 {
    @inline(__always) func rotatedLeft(by n: UInt64) -> UInt64 { (self << n) | (self >> (64 - n)) }
}
