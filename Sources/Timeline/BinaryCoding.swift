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
}

/// Why a cache could not be read.
struct CacheFormatError: Error, CustomStringConvertible {
    let description: String
}

struct BinaryReader {
    private let bytes: [UInt8]
    private(set) var offset = 0
    /// Reading stops here (the checksum follows).
    private let end: Int

    init(_ bytes: [UInt8], end: Int? = nil) {
        self.bytes = bytes
        self.end = min(end ?? bytes.count, bytes.count)
    }

    var atEnd: Bool { offset >= end }

    mutating func u8() throws -> UInt8 {
        guard offset < end else { throw CacheFormatError(description: "the cache file ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try u8()
            guard shift < 64 else { throw CacheFormatError(description: "a number in the cache is too long") }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
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

    mutating func raw(_ n: Int) throws -> [UInt8] {
        guard n >= 0, n <= end - offset else { throw CacheFormatError(description: "the cache file ends early") }
        defer { offset += n }
        return Array(bytes[offset..<(offset + n)])
    }
}

/// CRC-32 (IEEE), for the cache's integrity check; eight bytes a step (slicing-by-8), so a
/// 3 MB cache is checked in a few milliseconds.
enum CRC32 {
    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[i] = c
        }
        for i in 0..<256 {
            for k in 1..<8 { t[k * 256 + i] = (t[(k - 1) * 256 + i] >> 8) ^ t[Int(t[(k - 1) * 256 + i] & 0xFF)] }
        }
        return t
    }()

    /// CRC-32 of the first `count` bytes (all when nil).
    static func of(_ bytes: [UInt8], count: Int? = nil) -> UInt32 {
        let n = min(count ?? bytes.count, bytes.count)
        var c: UInt32 = 0xFFFF_FFFF
        tables.withUnsafeBufferPointer { t in
            bytes.withUnsafeBufferPointer { b in
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
        }
        return c ^ 0xFFFF_FFFF
    }
}
