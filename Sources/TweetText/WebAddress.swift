/// The one rule for an address from the network that Linnet hands on (to the browser, to the
/// terminal as an OSC 8 target): http or https only, parsed and written out again (RFC 3986)
/// with a host, no user name or password, no control characters and no spaces, the host in
/// its ASCII (IDNA) form and everything outside RFC 3986's characters percent-encoded. The
/// result always begins `http://` or `https://`, so no program can read it as an option.
public enum WebAddress {
    /// Why an address is not handed on, in words for the notice line.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        case notWeb, controlCharacters, spaces, noHost, badHost, userInfo, badPort, tooLong

        public var description: String {
            switch self {
            case .notWeb: return "it is not a web address (only http and https are opened)"
            case .controlCharacters: return "it holds control characters"
            case .spaces: return "it holds spaces"
            case .noHost: return "it names no host"
            case .badHost: return "its host name is not valid"
            case .userInfo: return "it carries a user name or password before the host"
            case .badPort: return "its port is not a number from 1 to 65535"
            case .tooLong: return "it is longer than \(WebAddress.maxLength) characters"
            }
        }
    }

    /// Longest address handed on, in bytes once encoded (browsers take far more; no real link
    /// is near it, and a bound keeps a hostile one from filling a command line or a terminal).
    public static let maxLength = 8192

    /// The address as Linnet hands it on, or why it is not.
    public static func check(_ address: String) -> Result<String, Refusal> {
        // Past four times the bound no host's IDNA form can bring it back under: refused unread.
        guard address.utf8.count <= 4 * maxLength else { return .failure(.tooLong) }
        let scalars = Array(address.unicodeScalars)
        if scalars.contains(where: { isControl($0.value) }) { return .failure(.controlCharacters) }
        if scalars.contains(where: { isSpace($0.value) }) { return .failure(.spaces) }
        guard let colon = scalars.firstIndex(of: ":") else { return .failure(.notWeb) }
        let scheme = String(String.UnicodeScalarView(scalars[..<colon])).lowercased()
        guard scheme == "http" || scheme == "https" else { return .failure(.notWeb) }
        var i = colon + 1
        // Backslashes are slashes to a browser (WHATWG URL): `https:\\evil` must not hide a host.
        func isSlash(_ k: Int) -> Bool { k < scalars.count && (scalars[k] == "/" || scalars[k] == "\\") }
        guard isSlash(i), isSlash(i + 1) else { return .failure(.noHost) }
        i += 2
        var end = i
        while end < scalars.count, !"/?#\\".unicodeScalars.contains(scalars[end]) { end += 1 }
        let authority = Array(scalars[i..<end])
        if authority.contains("@") { return .failure(.userInfo) }
        // Host and port: an IPv6 literal in brackets, or a name (or IPv4) before the last colon.
        var hostPart = authority[...]
        var port: ArraySlice<Unicode.Scalar>? = nil
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return .failure(.badHost) }
            hostPart = authority[...close]
            let rest = authority[(close + 1)...]
            if let c = rest.first {
                guard c == ":" else { return .failure(.badHost) }
                port = rest.dropFirst()
            }
        } else if let c = authority.lastIndex(of: ":") {
            hostPart = authority[..<c]
            port = authority[(c + 1)...]
        }
        guard !hostPart.isEmpty else { return .failure(.noHost) }
        guard let host = asciiHost(hostPart) else { return .failure(.badHost) }
        var out = scheme + "://" + host
        // An empty port is the scheme's own (RFC 3986 §6.2.3) and is left out.
        if let port, !port.isEmpty {
            guard port.count <= 5, port.allSatisfy({ ("0"..."9").contains($0) }),
                let n = Int(String(String.UnicodeScalarView(port))), (1...65535).contains(n)
            else { return .failure(.badPort) }
            out += ":" + String(n)
        }
        // Path, query and fragment: RFC 3986's characters kept, a valid %XX kept, the rest encoded.
        var k = end
        while k < scalars.count {
            let c = scalars[k]
            if c == "\\" {
                out += "/"
            } else if c == "%", k + 2 < scalars.count, isHex(scalars[k + 1]), isHex(scalars[k + 2]) {
                out.unicodeScalars.append(contentsOf: scalars[k...(k + 2)])
                k += 2
            } else if c.isASCII, c != "%", isURICharacter(UInt8(c.value)) {
                out.unicodeScalars.append(c)
            } else {
                for b in String(c).utf8 { out += percent(b) }
            }
            k += 1
            if out.utf8.count > maxLength { return .failure(.tooLong) }
        }
        if out.utf8.count > maxLength { return .failure(.tooLong) }
        return .success(out)
    }

    /// The checked address, or nil.
    public static func safe(_ address: String) -> String? {
        if case .success(let s) = check(address) { return s }
        return nil
    }

    /// A host as written on the wire: a bracketed IPv6 literal as it is (hex, colons, dots), or
    /// a name whose labels are letters, digits and hyphens once in their ASCII form.
    static func asciiHost(_ host: ArraySlice<Unicode.Scalar>) -> String? {
        if host.first == "[" {
            guard host.last == "]", host.count > 2,
                host.dropFirst().dropLast().allSatisfy({ $0 == ":" || $0 == "." || isHex($0) })
            else { return nil }
            return String(String.UnicodeScalarView(host)).lowercased()
        }
        // A full stop in any script (。．｡) separates labels, as IDNA says.
        let labels = host.split(omittingEmptySubsequences: false) {
            ["." as Unicode.Scalar, "\u{3002}", "\u{FF0E}", "\u{FF61}"].contains($0)
        }
        var out: [String] = []
        for (n, label) in labels.enumerated() {
            // One trailing dot (a fully qualified name) is allowed; no other empty label.
            if label.isEmpty {
                guard n == labels.count - 1, n > 0 else { return nil }
                out.append("")
                continue
            }
            let lowered = label.map { $0.properties.lowercaseMapping.unicodeScalars.first ?? $0 }
            guard let ascii = Punycode.toASCII(label: lowered.map(\.value)), ascii.utf8.count <= 63,
                ascii.utf8.allSatisfy({ isLabelByte($0) }), ascii.first != "-", ascii.last != "-"
            else { return nil }
            out.append(ascii.lowercased())
        }
        let name = out.joined(separator: ".")
        return name.utf8.count <= 253 ? name : nil
    }

    static func isControl(_ v: UInt32) -> Bool { v < 0x20 || (0x7F...0x9F).contains(v) }

    /// Spaces and the invisible characters that a reader would take for nothing or for a space.
    static func isSpace(_ v: UInt32) -> Bool {
        v == 0x20 || v == 0xA0 || v == 0x1680 || (0x2000...0x200F).contains(v) || (0x2028...0x202F).contains(v)
            || (0x205F...0x206F).contains(v) || v == 0x3000 || v == 0xFEFF
    }

    static func isHex(_ c: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(c) || ("a"..."f").contains(c) || ("A"..."F").contains(c)
    }

    static func isLabelByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
    }

    /// RFC 3986's unreserved and reserved characters, less `;`, which ends a field of some
    /// terminal sequences.
    static func isURICharacter(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            || "-._~:/?#[]@!$&'()*+,=".utf8.contains(b)
    }

    static func percent(_ b: UInt8) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        return "%" + String(decoding: [hex[Int(b >> 4)], hex[Int(b & 0xF)]], as: UTF8.self)
    }
}
