import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Consumer and (optionally) token credentials for OAuth 1.0a.
public struct OAuthCredentials: Equatable, Sendable {
    public var consumerKey: String
    public var consumerSecret: String
    public var token: String?
    public var tokenSecret: String?

    public init(consumerKey: String, consumerSecret: String, token: String? = nil, tokenSecret: String? = nil) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.tokenSecret = tokenSecret
    }
}

/// OAuth 1.0a HMAC-SHA1 signing (RFC 5849 §3.4), with the nonce and clock injectable for tests.
public struct OAuth1Signer: Sendable {
    /// Makes a nonce: ASCII only, as Twitter requires.
    public var nonce: @Sendable () -> String
    /// Unix seconds.
    public var timestamp: @Sendable () -> Int64

    /// A signer with random 32-byte hex nonces and the system clock shifted by `clockOffset`
    /// seconds (learnt from a 401 code 135 answer's `Date`).
    public init(clockOffset: Int64 = 0) {
        nonce = { Crypto.hex(Crypto.randomBytes(16)) }
        timestamp = { Int64(Date().timeIntervalSince1970) + clockOffset }
    }

    /// A signer with fixed values, for tests and published vectors.
    public init(nonce: @escaping @Sendable () -> String, timestamp: @escaping @Sendable () -> Int64) {
        self.nonce = nonce
        self.timestamp = timestamp
    }

    /// The normalised parameter string (RFC 5849 §3.4.1.3.2): encode, sort by name then value,
    /// join. Duplicates stay.
    public static func normalizedParameters(_ parameters: [(String, String)]) -> String {
        let encoded: [(String, String)] = parameters.map { (PercentEncoding.encode($0.0), PercentEncoding.encode($0.1)) }
        // Encoded text is ASCII, so String order is byte order.
        let sorted = encoded.sorted { (a: (String, String), b: (String, String)) -> Bool in
            a.0 == b.0 ? a.1 < b.1 : a.0 < b.0
        }
        return sorted.map { (pair: (String, String)) -> String in pair.0 + "=" + pair.1 }.joined(separator: "&")
    }

    /// `METHOD&uri&params`, each part percent-encoded.
    public static func baseString(method: String, target: RequestTarget, parameters: [(String, String)]) -> String {
        method.uppercased() + "&" + PercentEncoding.encode(target.baseStringURI) + "&"
            + PercentEncoding.encode(normalizedParameters(parameters))
    }

    /// `pct(consumer secret)&pct(token secret)`; the `&` stays when there is no token.
    public static func signingKey(consumerSecret: String, tokenSecret: String?) -> String {
        PercentEncoding.encode(consumerSecret) + "&" + PercentEncoding.encode(tokenSecret ?? "")
    }

    /// base64(HMAC-SHA1(key, base string)).
    public static func signature(baseString: String, key: String) -> String {
        Data(Crypto.hmacSHA1(key: Array(key.utf8), message: Array(baseString.utf8))).base64EncodedString()
    }

    /// The `oauth_*` parameters for a request, signature included.
    ///
    /// - Parameters:
    ///   - formParameters: the body's parameters when it is `application/x-www-form-urlencoded`.
    ///   - extraOAuth: protocol parameters beyond the usual ones (`oauth_callback`, `oauth_verifier`).
    public func oauthParameters(
        method: String, url: String, formParameters: [(String, String)] = [], extraOAuth: [(String, String)] = [],
        credentials: OAuthCredentials
    ) throws -> [(String, String)] {
        guard let target = RequestTarget(url) else { throw OAuthError.badURL(url) }
        var oauth: [(String, String)] = [
            ("oauth_consumer_key", credentials.consumerKey),
            ("oauth_nonce", nonce()),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", String(timestamp())),
        ]
        if let token = credentials.token { oauth.append(("oauth_token", token)) }
        oauth.append(("oauth_version", "1.0"))
        oauth.append(contentsOf: extraOAuth)
        let query = target.query.map(PercentEncoding.parseForm) ?? []
        let base = Self.baseString(method: method, target: target, parameters: query + formParameters + oauth)
        let key = Self.signingKey(consumerSecret: credentials.consumerSecret, tokenSecret: credentials.tokenSecret)
        oauth.append(("oauth_signature", Self.signature(baseString: base, key: key)))
        return oauth.sorted { $0.0 < $1.0 }
    }

    /// The `Authorization: OAuth …` header value for a request.
    public func authorizationHeader(
        method: String, url: String, formParameters: [(String, String)] = [], extraOAuth: [(String, String)] = [],
        credentials: OAuthCredentials
    ) throws -> String {
        let params = try oauthParameters(
            method: method, url: url, formParameters: formParameters, extraOAuth: extraOAuth, credentials: credentials)
        return Self.header(params)
    }

    /// Formats `OAuth k="v", …` with encoded names and values.
    public static func header(_ params: [(String, String)]) -> String {
        "OAuth " + params.map { "\(PercentEncoding.encode($0.0))=\"\(PercentEncoding.encode($0.1))\"" }.joined(separator: ", ")
    }

    /// Parses an `Authorization: OAuth …` value into decoded pairs (realm dropped). Nil when it is
    /// not an OAuth header or is malformed.
    public static func parseHeader(_ value: String) -> [(String, String)]? {
        let trimmed = value.trimmed()
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "oauth " else { return nil }
        var result: [(String, String)] = []
        for part in trimmed.dropFirst(6).split(separator: ",") {
            let item = part.trimmed()
            if item.isEmpty { continue }
            guard let eq = item.firstIndex(of: "=") else { return nil }
            let name = PercentEncoding.decode(String(item[..<eq]).trimmed())
            var raw = String(item[item.index(after: eq)...]).trimmed()
            guard raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") else { return nil }
            raw = String(raw.dropFirst().dropLast())
            if name == "realm" { continue }
            result.append((name, PercentEncoding.decode(raw)))
        }
        return result
    }
}

/// App-only authentication (OAuth 2 client credentials, docs/PROTOCOL.md §3).
public enum AppOnlyAuth {
    /// The `Basic` credential: base64(pct(key) ":" pct(secret)).
    public static func basicCredential(consumerKey: String, consumerSecret: String) -> String {
        let joined = PercentEncoding.encode(consumerKey) + ":" + PercentEncoding.encode(consumerSecret)
        return Data(joined.utf8).base64EncodedString()
    }
}

/// Errors from building a signed request.
public enum OAuthError: Error, Equatable, Sendable, CustomStringConvertible {
    case badURL(String)

    public var description: String {
        switch self {
        case .badURL(let u): return "cannot sign a request to \(u): not an absolute http(s) URL"
        }
    }
}
