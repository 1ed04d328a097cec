/// An object key, compared without building a `String`: its bytes in the document, or, for a
/// key sent with escapes, its decoded bytes (valid while the reader's `body` runs). Holds no
/// reference, so passing one per key costs no retain or release.
public struct JSONKey {
    let bytes: UnsafeBufferPointer<UInt8>

    /// The key as a string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the key equals `literal`.
    @inline(__always) public func equals(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard bytes.count == n else { return false }
        return memcmpEqual(bytes.baseAddress, literal.utf8Start, n)
    }

    /// Lets `switch key { case "id_str": ... }` work.
    @inline(__always) public static func ~= (pattern: StaticString, key: JSONKey) -> Bool {
        key.equals(pattern)
    }
}

/// Whether n bytes at a and b are equal, compared a word at a time: two loads that may overlap
/// cover any length from 1 to 16 without reading outside either (keys are short; a byte loop
/// was a sixth of reading an entity).
@inline(__always) private func memcmpEqual(_ a: UnsafePointer<UInt8>?, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    guard let a else { return n == 0 }
    let x = UnsafeRawPointer(a)
    let y = UnsafeRawPointer(b)
    @inline(__always) func same<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> Bool {
        x.loadUnaligned(fromByteOffset: at, as: T.self) == y.loadUnaligned(fromByteOffset: at, as: T.self)
    }
    switch n {
    case 0: return true
    case 1: return a[0] == b[0]
    case 2..<4: return same(0, UInt16.self) && same(n - 2, UInt16.self)
    case 4..<8: return same(0, UInt32.self) && same(n - 4, UInt32.self)
    default:
        var i = 0
        while i + 8 < n {
            guard same(i, UInt64.self) else { return false }
            i += 8
        }
        return same(n - 8, UInt64.self)
    }
}
