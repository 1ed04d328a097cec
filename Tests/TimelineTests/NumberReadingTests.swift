import Testing
import TwitterAPI

@testable import Timeline

/// The cache's and the packings' LEB128 numbers, read a word at a time, against the byte loop
/// they replaced: the same value, length and refusal for every input, cut anywhere.
@Suite struct NumberReadingTests {
    /// The byte loop the cache read with before: a value and its length, or why not.
    static func reference(_ bytes: [UInt8], from: Int, end: Int) -> Result<(UInt64, Int), CacheFormatError> {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var at = from
        while true {
            guard at < end else { return .failure(CacheFormatError(description: "the cache file ends early")) }
            let b = bytes[at]
            at += 1
            guard shift < 64 else { return .failure(CacheFormatError(description: "a number in the cache is too long")) }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return .success((result, at - from)) }
            shift += 7
        }
    }

    /// Numbers of every length as the writer writes them, each followed by a few bytes, and
    /// runs of random bytes mostly with the high bit set (numbers too long, or cut short).
    static func inputs() -> [[UInt8]] {
        var rng = SystemRandomNumberGenerator()
        var out: [[UInt8]] = []
        for bits in 0...64 {
            for _ in 0..<8 {
                let low: UInt64 = bits == 0 ? 0 : 1 << (bits - 1)
                let v: UInt64 = bits == 0 ? 0 : .random(in: low...(bits == 64 ? .max : (1 << bits) - 1), using: &rng)
                var b: [UInt8] = []
                b.appendLEB128(v)
                b += (0..<Int.random(in: 0...9)).map { _ in UInt8.random(in: 0...255) }
                out.append(b)
            }
        }
        for _ in 0..<2_000 {
            out.append((0..<Int.random(in: 0...16)).map { _ in UInt8.random(in: 0...127) | (Int.random(in: 0..<10) < 8 ? 0x80 : 0) })
        }
        // Eleven bytes that go on, and ten that end with 64 bits' worth and more.
        out.append([UInt8](repeating: 0xFF, count: 11))
        out.append([UInt8](repeating: 0xFF, count: 9) + [0x7F])
        return out
    }

    @Test func wordReadsEqualTheByteLoop() {
        var checked = 0
        for bytes in Self.inputs() {
            for end in 0...bytes.count {
                for from in 0..<max(1, end) where from <= end {
                    let expected = Self.reference(bytes, from: from, end: end)
                    var r = BinaryReader(bytes, start: from, end: end)
                    switch (expected, Result { try r.varint() }) {
                    case (.success(let (v, n)), .success(let got)):
                        #expect(got == v, "\(bytes) from \(from) to \(end)")
                        #expect(r.offset == from + n)
                    case (.failure(let e), .failure(let got)):
                        #expect("\(got)" == e.description, "\(bytes) from \(from) to \(end)")
                    case (let e, let got):
                        Issue.record("\(bytes) from \(from) to \(end): expected \(e), read \(got)")
                    }
                    // The packings' reader: the same number, or none where the cache refuses.
                    let packed = bytes[from..<end].withUnsafeBufferPointer { b -> (UInt64, Int) in
                        guard let base = b.baseAddress, b.count > 0 else { return (0, 0) }
                        return readLEB128(base, available: b.count)
                    }
                    switch expected {
                    case .success(let (v, n)): #expect(packed == (v, n))
                    case .failure: #expect(packed.1 == 0)
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 10_000)
    }
}
