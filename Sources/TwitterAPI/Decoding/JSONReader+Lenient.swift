/// Readers for optional fields: a value of the wrong type is skipped and read as nil, so one odd
/// field never costs a whole tweet.
extension JSONReader {
    mutating func optionalString() throws -> String? {
        if peek() == .string { return try readString() }
        try skipValue()
        return nil
    }

    mutating func optionalInt() throws -> Int? {
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
        guard let s = try optionalString() else { return nil }
        return UInt64(s)
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
        var values: [Int] = []
        try readArray { r in
            if let v = try r.optionalInt() { values.append(v) }
        }
        guard values.count == 2, values[0] >= 0, values[0] <= values[1] else { return nil }
        return values[0]..<values[1]
    }

    private mutating func skipNumber(from start: Int) throws {
        rewind(to: start)
        try skipValue()
    }

    mutating func rewind(to position: Int) {
        offset = position
    }
}
