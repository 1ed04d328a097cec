/// Readers for optional fields: a value of the wrong type is skipped and read as nil, so one odd
/// field never costs a whole tweet.
extension JSONReader {
    mutating func optionalString() throws -> String? {
        if peek() == .string { return try readString() }
        try skipValue()
        return nil
    }

    /// A time from a string, parsed in place when it is ASCII without escapes (a date never
    /// needs more); else from the string made as `readString` makes it, invalid UTF-8 replaced.
    mutating func optionalTime(_ parse: (UnsafeBufferPointer<UInt8>) -> Int64?) throws -> Int64? {
        guard peek() == .string else {
            try skipValue()
            return nil
        }
        let quote = offset
        offset += 1
        guard let close = closingQuote(from: offset) else { throw fail("unterminated string") }
        let inner = UnsafeBufferPointer(start: p + offset, count: close.at - offset)
        if !close.escaped, inner.allSatisfy({ $0 < 0x80 }) {
            offset = close.at + 1
            return parse(inner)
        }
        offset = quote
        var text = try readString()
        return text.withUTF8(parse)
    }

    mutating func optionalInt() throws -> Int? {
        if let v = quickCount() { return v }
        return try anyInt()
    }

    /// `optionalInt` past its quick path.
    private mutating func anyInt() throws -> Int? {
        guard peek() == .number else {
            try skipValue()
            return nil
        }
        let start = offset
        do {
            return Int(try readInt64())
        } catch {
            try skipNumber(from: start)
            return nil
        }
    }

    mutating func optionalUInt64() throws -> UInt64? {
        guard peek() == .number else {
            try skipValue()
            return nil
        }
        let start = offset
        do {
            return try readUInt64()
        } catch {
            try skipNumber(from: start)
            return nil
        }
    }

    /// A decimal id given as a string (`id_str`).
    mutating func optionalIDString() throws -> UInt64? {
        guard peek() == .string else {
            try skipValue()
            return nil
        }
        return try lenientID()
    }

    mutating func optionalDouble() throws -> Double? {
        if peek() == .number { return try readDouble() }
        try skipValue()
        return nil
    }

    mutating func optionalBool() throws -> Bool? {
        if peek() == .bool { return try readBool() }
        try skipValue()
        return nil
    }

    /// `[start, end]` as a range, when well-formed.
    mutating func optionalRange() throws -> Range<Int>? {
        guard peek() == .array else {
            try skipValue()
            return nil
        }
        // The usual form, `[12,34]` without spaces, in one pass; anything else the general way.
        if let (a, b) = compactPair() { return a <= b ? a..<b : nil }
        // Two numbers, read without collecting them in an array (one per entity).
        var first = -1
        var second = -1
        var count = 0
        try readArray { r in
            if let v = try r.optionalInt() {
                if count == 0 { first = v } else { second = v }
                count += 1
            }
        }
        guard count == 2, first >= 0, first <= second else { return nil }
        return first..<second
    }

    /// `[a,b]` of one to nine digits each, nothing between but perhaps one space after the
    /// comma (as pretty JSON and Python's `json.dumps` write it): past it, or nil with the
    /// reader where it was.
    @inline(__always) private mutating func compactPair() -> (Int, Int)? {
        var i = offset + 1
        guard let a = Self.shortNumber(p, &i, end), i < end, p[i] == UInt8(ascii: ",") else { return nil }
        i += 1
        if i < end, p[i] == 0x20 { i += 1 }
        guard let b = Self.shortNumber(p, &i, end), i < end, p[i] == UInt8(ascii: "]") else { return nil }
        offset = i + 1
        return (a, b)
    }

    /// One to nine digits at `i`, read and passed; nil for none or more (no overflow to check).
    @inline(__always) private static func shortNumber(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) -> Int? {
        let start = i
        var v = 0
        while i < end, i - start < 10 {
            let d = p[i] &- 0x30
            guard d < 10 else { break }
            v = v &* 10 &+ Int(d)
            i += 1
        }
        let n = i - start
        return n > 0 && n <= 9 ? v : nil
    }

    /// One to nine digits, no fraction or exponent (a count, an index), read in place; nil,
    /// with the reader at the value, for anything else. The general way cost six times as
    /// much, a fifth of reading a v2 entity.
    @inline(__always) private mutating func quickCount() -> Int? {
        skipWhitespace()
        var i = offset
        guard let v = Self.shortNumber(p, &i, end), i == end || !Self.continuesNumber(p[i]) else { return nil }
        offset = i
        return v
    }

    /// Whether `b` after digits makes them a number with a fraction or an exponent.
    @inline(__always) private static func continuesNumber(_ b: UInt8) -> Bool {
        b == UInt8(ascii: ".") || b | 0x20 == UInt8(ascii: "e")
    }

    private mutating func skipNumber(from start: Int) throws {
        rewind(to: start)
        try skipValue()
    }

    mutating func rewind(to position: Int) {
        offset = position
    }
}

extension JSONReader {
    /// An id from a string (as v2 sends them) or a number. A string of plain digits is read in
    /// place, without making a `String` of it.
    mutating func lenientID() throws -> UInt64? {
        switch peek() {
        case .string:
            // Up to 19 digits and the closing quote (no overflow is possible): read as they
            // stand, the common case; anything else the slower way below.
            var (quick, q) = Self.digitChunks(p, from: offset + 1, end, atMost: 19)
            while q < end, q - offset <= 19 {
                let d = p[q] &- 0x30
                guard d < 10 else { break }
                quick = quick &* 10 &+ UInt64(d)
                q += 1
            }
            if q < end, q > offset + 1, p[q] == UInt8(ascii: "\"") {
                offset = q + 1
                return quick
            }
            let span = try readStringSpan()
            // Between the quotes: digits only, else the slow way (escapes, junk).
            var v: UInt64 = 0
            var i = span.start + 1
            let last = span.end - 1
            guard i < last, last - i <= 20 else { return UInt64(try string(span)) }
            while i < last {
                let d = p[i] &- 0x30
                guard d < 10 else { return UInt64(try string(span)) }
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(UInt64(d))
                if o1 || o2 { return nil }
                v = a
                i += 1
            }
            return v
        case .number: return try optionalUInt64()
        default:
            try skipValue()
            return nil
        }
    }

    /// Whether all eight bytes (the first in the lowest) are ASCII digits: each is 0x3_, and
    /// stays so with 6 added (0x3A to 0x3F would carry into 0x4_; no byte carries into the
    /// next once the first test holds).
    @inline(__always) static func isEightDigits(_ x: UInt64) -> Bool {
        let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let threes: UInt64 = 0x3030_3030_3030_3030
        return x & high == threes && (x &+ 0x0606_0606_0606_0606) & high == threes
    }

    /// Digits from `start` eight at a time, while a whole chunk keeps their count at `limit` or
    /// less: the number they spell (no overflow below 20 digits) and where the chunks ended.
    @inline(__always) static func digitChunks(
        _ p: UnsafePointer<UInt8>, from start: Int, _ end: Int, atMost limit: Int
    ) -> (value: UInt64, end: Int) {
        var i = start
        var v: UInt64 = 0
        while i + 8 <= end, i - start + 8 <= limit {
            let chunk = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
            guard isEightDigits(chunk) else { break }
            v = v &* 100_000_000 &+ eightDigits(chunk)
            i += 8
        }
        return (v, i)
    }

    /// The number eight ASCII digits spell, the first (lowest byte) the most significant:
    /// digits joined into pairs, pairs into fours, fours into eight, each lane in one multiply.
    @inline(__always) static func eightDigits(_ x: UInt64) -> UInt64 {
        var v = x & 0x0F0F_0F0F_0F0F_0F0F
        v = (v &* 10 &+ (v >> 8)) & 0x00FF_00FF_00FF_00FF
        v = (v &* 100 &+ (v >> 16)) & 0x0000_FFFF_0000_FFFF
        return (v &* 10_000 &+ (v >> 32)) & 0xFFFF_FFFF
    }

    /// A count from a number or a string (`"edits_remaining": "4"` in real traffic).
    mutating func lenientInt() throws -> Int? {
        if let v = quickCount() { return v }
        switch peek() {
        case .string: return Int(try readString())
        case .number: return try anyInt()
        default:
            try skipValue()
            return nil
        }
    }

    /// Text from a string or a number (a `resource_id` or `value` of either kind).
    mutating func lenientText() throws -> String? {
        switch peek() {
        case .string: return try readString()
        case .number: return try optionalUInt64().map(String.init)
        default:
            try skipValue()
            return nil
        }
    }
}
