/// RFC 3986 percent-encoding as OAuth 1.0a requires it (docs/PROTOCOL.md §1.1): only
/// `A-Z a-z 0-9 - . _ ~` stay; every other UTF-8 byte becomes `%XX` with upper-case hex.
public enum PercentEncoding {
    private static let hex = Array("0123456789ABCDEF".utf8)

    /// The encoded form of `s`.
    public static func encode(_ s: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            if isUnreserved(b) {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always) static func isUnreserved(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E
            || b == 0x5F || b == 0x7E
    }

    /// Decodes `%XX` escapes (and `+` as space when `plusIsSpace`); malformed escapes stay as
    /// written. Invalid UTF-8 becomes U+FFFD.
    public static func decode(_ s: String, plusIsSpace: Bool = false) -> String {
        let bytes = Array(s.utf8)
        guard bytes.contains(UInt8(ascii: "%")) || (plusIsSpace && bytes.contains(UInt8(ascii: "+"))) else { return s }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%"), i + 2 < bytes.count, let h = hexValue(bytes[i + 1]), let l = hexValue(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(plusIsSpace && b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }

    /// Parses `a=1&b=2` (form syntax: `+` is a space). A name without `=` gets an empty value.
    public static func parseForm(_ s: String) -> [(String, String)] {
        guard !s.isEmpty else { return [] }
        return s.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let eq = pair.firstIndex(of: "=") {
                return (decode(String(pair[..<eq]), plusIsSpace: true), decode(String(pair[pair.index(after: eq)...]), plusIsSpace: true))
            }
            return (decode(String(pair), plusIsSpace: true), "")
        }
    }

    /// Builds `a=1&b=2` with every name and value percent-encoded.
    public static func formEncode(_ parameters: [(String, String)]) -> String {
        parameters.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}
