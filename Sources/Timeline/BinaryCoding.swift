import CScan
import TwitterAPI

/// A small binary writer and reader for the cache: varints, length-prefixed UTF-8, and a CRC-32
/// over the whole file so a damaged cache is noticed rather than half-read.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func varint(_ v: UInt64) { bytes.appendLEB128(v) }

    mutating func int(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }
    mutating func int(_ v: Int) { int(Int64(v)) }
    mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }

    mutating func string(_ s: String) {
        varint(UInt64(s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }

    mutating func optionalString(_ s: String?) {
        bool(s != nil)
        if let s { string(s) }
    }

    mutating func raw(_ b: [UInt8]) { bytes.append(contentsOf: b) }
    mutating func raw(_ b: ArraySlice<UInt8>) { bytes.append(contentsOf: b) }
}

/// Why a cache could not be read.
struct CacheFormatError: Error, CustomStringConvertible {
    let description: String
}

struct BinaryReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    /// Reading stops here (a checksum or the next section follows).
    private let end: Int

    init(_ bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.end = min(end ?? bytes.count, bytes.count)
        offset = min(max(start, 0), self.end)
    }

    var atEnd: Bool { offset >= end }
    var remaining: Int { end - offset }

    mutating func skip(_ n: Int) throws {
        guard n >= 0, n <= end - offset else { throw CacheFormatError(description: "the cache file ends early") }
        offset += n
    }

    mutating func u8() throws -> UInt8 {
        guard offset < end else { throw CacheFormatError(description: "the cache file ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Inlined for the one-byte numbers most fields are (a call per number was a sixth of
    /// loading a cache); longer ones go on in `longVarint`.
    @inline(__always) mutating func varint() throws -> UInt64 {
        if offset < end, bytes[offset] < 0x80 {
            offset += 1
            return UInt64(bytes[offset - 1])
        }
        return try longVarint()
    }

    private mutating func longVarint() throws -> UInt64 {
        let available = end - offset
        let (value, length) = Self.readLEB128(bytes, at: offset, available: available)
        guard length > 0 else {
            // Ten bytes that all go on, and an eleventh: more than 64 bits.
            throw CacheFormatError(description: available > 10 ? "a number in the cache is too long" : "the cache file ends early")
        }
        offset += length
        return value
    }

    /// The array passed borrowed: read through `self`, it was retained for each number.
    private static func readLEB128(_ bytes: [UInt8], at offset: Int, available: Int) -> (value: UInt64, length: Int) {
        guard available > 0 else { return (0, 0) }
        return bytes.withUnsafeBufferPointer { TwitterAPI.readLEB128($0.baseAddress! + offset, available: available) }
    }

    /// A count of things that follow, each at least a byte: never more than the bytes left.
    mutating func count() throws -> Int {
        guard let n = Int(exactly: try varint()), n <= end - offset else {
            throw CacheFormatError(description: "a count in the cache runs past its end")
        }
        return n
    }

    mutating func int() throws -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    mutating func intValue() throws -> Int { Int(try int()) }
    mutating func bool() throws -> Bool { try u8() != 0 }

    mutating func string() throws -> String {
        guard let n = Int(exactly: try varint()), n <= end - offset else {
            throw CacheFormatError(description: "a text in the cache runs past its end")
        }
        defer { offset += n }
        return String(decoding: bytes[offset..<(offset + n)], as: UTF8.self)
    }

    mutating func optionalString() throws -> String? { try bool() ? try string() : nil }

    /// The next `n` bytes, not copied.
    mutating func slice(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n >= 0, n <= end - offset else { throw CacheFormatError(description: "the cache file ends early") }
        defer { offset += n }
        return bytes[offset..<(offset + n)]
    }

    mutating func raw(_ n: Int) throws -> [UInt8] {
        guard n >= 0, n <= end - offset else { throw CacheFormatError(description: "the cache file ends early") }
        defer { offset += n }
        return Array(bytes[offset..<(offset + n)])
    }
}

/// CRC-32 checks of the cache: IEEE for formats 2 to 4, Castagnoli (CRC-32C) for format 5's
/// sections, which the processor's `crc32` instruction computes where there is one (SSE4.2:
/// about 7 GB/s here against 1.2 GB/s for the table). Otherwise eight bytes a table step
/// (slicing-by-8).
enum CRC32 {
    /// Eight tables of 256 for a reflected polynomial.
    private static func tables(_ polynomial: UInt32) -> [UInt32] {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? polynomial ^ (c >> 1) : c >> 1 }
            t[i] = c
        }
        for i in 0..<256 {
            for k in 1..<8 { t[k * 256 + i] = (t[(k - 1) * 256 + i] >> 8) ^ t[Int(t[(k - 1) * 256 + i] & 0xFF)] }
        }
        return t
    }

    private static let ieee = tables(0xEDB8_8320)
    private static let castagnoliTables = tables(0x82F6_3B78)
    private static let hasInstruction = linnet_has_crc32c() != 0

    /// CRC-32 (IEEE) of `count` bytes from `from` (to the end when nil).
    static func of(_ bytes: [UInt8], from: Int = 0, count: Int? = nil) -> UInt32 {
        withBytes(bytes, from: from, count: count) { sliced($0, ieee) }
    }

    /// CRC-32C of `count` bytes from `from`.
    static func castagnoli(_ bytes: [UInt8], from: Int = 0, count: Int? = nil) -> UInt32 {
        withBytes(bytes, from: from, count: count) { b in
            hasInstruction ? ~linnet_crc32c(~0, b.baseAddress, b.count) : sliced(b, castagnoliTables)
        }
    }

    /// The table's CRC-32C alone, whatever the processor (the tests hold the instruction to it).
    static func castagnoliByTable(_ bytes: [UInt8]) -> UInt32 {
        withBytes(bytes, from: 0, count: nil) { sliced($0, castagnoliTables) }
    }

    private static func withBytes(_ bytes: [UInt8], from: Int, count: Int?, _ body: (UnsafeBufferPointer<UInt8>) -> UInt32) -> UInt32 {
        let start = min(max(from, 0), bytes.count)
        let n = max(0, min(count ?? bytes.count, bytes.count - start))
        return bytes.withUnsafeBufferPointer { whole in body(UnsafeBufferPointer(rebasing: whole[start..<start + n])) }
    }

    private static func sliced(_ b: UnsafeBufferPointer<UInt8>, _ tables: [UInt32]) -> UInt32 {
        let n = b.count
        var c: UInt32 = 0xFFFF_FFFF
        tables.withUnsafeBufferPointer { t in
            var i = 0
            while i + 8 <= n {
                let lo = c ^ (UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24)
                let hi = UInt32(b[i + 4]) | UInt32(b[i + 5]) << 8 | UInt32(b[i + 6]) << 16 | UInt32(b[i + 7]) << 24
                c =
                    t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int(lo >> 8 & 0xFF)] ^ t[5 * 256 + Int(lo >> 16 & 0xFF)]
                    ^ t[4 * 256 + Int(lo >> 24)] ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int(hi >> 8 & 0xFF)]
                    ^ t[256 + Int(hi >> 16 & 0xFF)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < n {
                c = t[Int((c ^ UInt32(b[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }
        return c ^ 0xFFFF_FFFF
    }
}
