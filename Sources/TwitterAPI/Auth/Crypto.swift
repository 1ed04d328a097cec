import Bedrock
import COpenSSL
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// HMAC-SHA1, SHA-256 and random bytes from OpenSSL's libcrypto.
public enum Crypto {
    /// HMAC-SHA1 of `message` under `key`: 20 bytes.
    public static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        let ok = key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    copenssl_hmac_sha1(k.baseAddress, Int32(k.count), m.baseAddress, m.count, o.baseAddress)
                }
            }
        }
        // HMAC with SHA-1 cannot fail for in-memory input unless libcrypto is missing or broken.
        if ok != 1 { fatalError(String(cString: copenssl_failure())) }
        return out
    }

    /// SHA-256 of `message`: 32 bytes.
    public static func sha256(_ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = message.withUnsafeBufferPointer { m in
            out.withUnsafeMutableBufferPointer { copenssl_sha256(m.baseAddress, m.count, $0.baseAddress) }
        }
        if ok != 1 { fatalError(String(cString: copenssl_failure())) }
        return out
    }

    /// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5), as PKCE uses.
    public static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingAll("+", with: "-").replacingAll("/", with: "_")
            .replacingAll("=", with: "")
    }

    /// `count` cryptographically strong random bytes.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var buf = [UInt8](repeating: 0, count: count)
        let ok = buf.withUnsafeMutableBufferPointer { copenssl_random($0.baseAddress, Int32(count)) }
        if ok != 1 { fatalError(String(cString: copenssl_failure())) }
        return buf
    }

    /// Lower-case hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { cFormat("%02x", $0) }.joined()
    }
}
