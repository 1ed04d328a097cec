import Bedrock
import COpenSSL
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Rebuilds the OAuth 1.0a signature base string from the request as it arrived and checks the
/// HMAC-SHA1 signature, independently of the client's signer.
enum OAuthCheck {
    /// Parsed `Authorization: OAuth …` parameters (realm dropped), or nil when malformed.
    static func parseHeader(_ value: String) -> [(String, String)]? {
        let b = Array(value.utf8)
        var i = 0
        func skipSpaces() { while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 } }
        skipSpaces()
        guard i + 6 <= b.count, String(decoding: b[i..<(i + 5)], as: UTF8.self).lowercased() == "oauth",
            b[i + 5] == 0x20
        else { return nil }
        i += 6
        var out: [(String, String)] = []
        while true {
            skipSpaces()
            if i >= b.count { break }
            let nameStart = i
            while i < b.count, b[i] != 0x3D, b[i] != 0x2C { i += 1 }
            guard i < b.count, b[i] == 0x3D else { return nil }
            var nameEnd = i
            while nameEnd > nameStart, b[nameEnd - 1] == 0x20 { nameEnd -= 1 }
            i += 1
            skipSpaces()
            guard i < b.count, b[i] == 0x22 else { return nil }
            i += 1
            let valueStart = i
            while i < b.count, b[i] != 0x22 { i += 1 }
            guard i < b.count else { return nil }
            let name = FormCoding.percentDecode(String(decoding: b[nameStart..<nameEnd], as: UTF8.self), plusIsSpace: false)
            let v = FormCoding.percentDecode(String(decoding: b[valueStart..<i], as: UTF8.self), plusIsSpace: false)
            i += 1
            if name != "realm" { out.append((name, v)) }
            skipSpaces()
            if i < b.count {
                guard b[i] == 0x2C else { return nil }
                i += 1
            }
        }
        return out
    }

    /// `scheme://host[:port]/path`: the scheme from `X-Forwarded-Proto` or the listener, the host
    /// and port from `Host`, default ports left out.
    static func baseURI(_ request: SimRequest) -> String {
        let scheme = (request.headers["x-forwarded-proto"] ?? (request.isTLS ? "https" : "http")).lowercased()
        var host = (request.headers["host"] ?? "localhost").lowercased()
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") {
            let port = host[host.index(after: colon)...]
            if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
                host = String(host[..<colon])
            }
        }
        return "\(scheme)://\(host)\(request.rawPath.isEmpty ? "/" : request.rawPath)"
    }

    static func baseString(_ request: SimRequest, oauth: [(String, String)]) -> String {
        let signed: [(String, String)] = request.parameters + oauth.filter { $0.0 != "oauth_signature" }
        var encoded: [(String, String)] = []
        for (k, v) in signed { encoded.append((FormCoding.encode(k), FormCoding.encode(v))) }
        encoded.sort { (a: (String, String), b: (String, String)) -> Bool in a.0 != b.0 ? a.0 < b.0 : a.1 < b.1 }
        let params = encoded.map { (p: (String, String)) -> String in p.0 + "=" + p.1 }.joined(separator: "&")
        return request.method.uppercased() + "&" + FormCoding.encode(baseURI(request)) + "&" + FormCoding.encode(params)
    }

    static func sign(_ base: String, consumerSecret: String, tokenSecret: String) -> String {
        let key = Array((FormCoding.encode(consumerSecret) + "&" + FormCoding.encode(tokenSecret)).utf8)
        let msg = Array(base.utf8)
        var out = [UInt8](repeating: 0, count: 20)
        if copenssl_hmac_sha1(key, Int32(key.count), msg, msg.count, &out) != 1 { fatalError(String(cString: copenssl_failure())) }
        return Data(out).base64EncodedString()
    }

    /// Constant-time comparison, so timing says nothing about how much of a signature matched.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }

    /// PKCE's S256: base64url, unpadded, of the verifier's SHA-256 (RFC 7636 §4.2).
    static func s256(_ verifier: String) -> String {
        let bytes = Array(verifier.utf8)
        var out = [UInt8](repeating: 0, count: 32)
        let ok = bytes.withUnsafeBufferPointer { m in
            out.withUnsafeMutableBufferPointer { copenssl_sha256(m.baseAddress, m.count, $0.baseAddress) }
        }
        if ok != 1 { fatalError(String(cString: copenssl_failure())) }
        return Data(out).base64EncodedString().replacingAll("+", with: "-").replacingAll("/", with: "_")
            .replacingAll("=", with: "")
    }

    /// From the system's generator (the kernel's `getrandom`): OpenSSL's would start itself
    /// here (about 3 ms), where the demo's tokens are made before its first frame.
    static func randomToken(_ count: Int) -> String {
        var system = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<count).map { _ in alphabet.randomElement(using: &system)! })
    }
}

/// The simulator's parsers that read what a client sends, for the fuzzing harnesses.
public enum SimParsers {
    /// The `oauth_*` fields of an `Authorization: OAuth …` header, or nil when malformed.
    public static func authorizationHeader(_ value: String) -> [(String, String)]? { OAuthCheck.parseHeader(value) }
}
