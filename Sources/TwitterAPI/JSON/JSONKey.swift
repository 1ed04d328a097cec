/// An object key as it stands in the document, compared without building a `String`.
public struct JSONKey {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Set when the key held escapes: the decoded bytes.
    let decoded: [UInt8]?

    /// The key as a string.
    public var string: String {
        decoded.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the key equals `literal`.
    @inline(__always) public func equals(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        if let d = decoded {
            guard d.count == n else { return false }
            return d.withUnsafeBufferPointer { memcmpEqual($0.baseAddress, literal.utf8Start, n) }
        }
        guard bytes.count == n else { return false }
        return memcmpEqual(bytes.baseAddress, literal.utf8Start, n)
    }

    /// Lets `switch key { case "id_str": ... }` work.
    @inline(__always) public static func ~= (pattern: StaticString, key: JSONKey) -> Bool {
        key.equals(pattern)
    }
}

@inline(__always) private func memcmpEqual(_ a: UnsafePointer<UInt8>?, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    guard let a else { return n == 0 }
    var i = 0
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
