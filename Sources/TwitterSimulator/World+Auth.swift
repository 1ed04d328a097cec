import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Checking credentials on every request.
extension World {
    /// What a request's `Authorization` header proves, or the error Twitter would answer.
    enum AuthResult {
        case ok(Identity)
        case failed(SimResponse)
    }

    /// Verifies an OAuth 1.0a signature (with an access token unless `tokenKind` says otherwise)
    /// or a bearer token.
    func authenticate(_ request: SimRequest, allowBearer: Bool = true) -> AuthResult {
        guard let header = request.headers["authorization"], !header.isEmpty else {
            return .failed(.error(400, code: 215, "Bad Authentication data."))
        }
        if header.lowercased().hasPrefix("bearer ") {
            let token = String(header.dropFirst(7)).trimmed()
            // An OAuth 2.0 user token: a user's context, on API v2 only.
            if request.path.hasPrefix("/2/"), let grant = oauth2User(token) {
                return .ok(.user(userID: grant.userID, consumerKey: grant.clientID, token: token))
            }
            guard let consumer = consumerByBearer[token] else {
                return .failed(.error(401, code: 89, "Invalid or expired token."))
            }
            guard allowBearer else {
                return .failed(.error(403, code: 220, "Your credentials do not allow access to this resource."))
            }
            return .ok(.app(consumerKey: consumer))
        }
        let checked: Checked
        do { checked = try verifySignature(request, header: header, tokenKind: .access) } catch { return .failed(error) }
        guard let token = checked.token, let access = accessTokens[token] else {
            return .failed(.error(400, code: 215, "Bad Authentication data."))
        }
        return .ok(.user(userID: access.userID, consumerKey: checked.consumerKey, token: token))
    }

    enum TokenKind { case none, request, access }

    struct Checked {
        var consumerKey: String
        var token: String?
        var oauth: [(String, String)]
    }

    /// The whole OAuth 1.0a check: parameters present, consumer and token known, timestamp within
    /// the window, nonce fresh, signature right.
    func verifySignature(_ request: SimRequest, header: String, tokenKind: TokenKind) throws(SimResponse) -> Checked {
        guard let oauth = OAuthCheck.parseHeader(header) else {
            throw .error(400, code: 215, "Bad Authentication data.")
        }
        var seen = Set<String>()
        for (k, _) in oauth where !seen.insert(k).inserted {
            throw .error(400, code: 215, "Bad Authentication data.")
        }
        func value(_ k: String) -> String? { oauth.first { $0.0 == k }?.1 }
        guard let consumerKey = value("oauth_consumer_key"), let signature = value("oauth_signature"),
            let timestampText = value("oauth_timestamp"), let nonce = value("oauth_nonce"),
            value("oauth_signature_method") == "HMAC-SHA1", value("oauth_version").map({ $0 == "1.0" }) ?? true
        else {
            throw .error(400, code: 215, "Bad Authentication data.")
        }
        guard let consumer = consumers[consumerKey] else {
            throw .error(401, code: 32, "Could not authenticate you.")
        }
        // Taken without overflow: a timestamp of Int64.min is refused, not trapped on.
        let timestamp = Int64(timestampText) ?? .min
        let skew = timestamp.subtractingReportingOverflow(now)
        guard !skew.overflow, skew.partialValue.magnitude <= UInt64(max(0, config.timestampWindowSeconds)) else {
            throw .error(401, code: 135, "Timestamp out of bounds.", headers: [("Date", SimDate.http(now))])
        }
        let token = value("oauth_token")
        var tokenSecret = ""
        switch tokenKind {
        case .access:
            guard let t = token else { throw .error(400, code: 215, "Bad Authentication data.") }
            guard let access = accessTokens[t], !access.revoked, access.consumerKey == consumerKey else {
                throw .error(401, code: 89, "Invalid or expired token.")
            }
            tokenSecret = access.secret
        case .request:
            if let t = token {
                guard let rt = requestTokens[t], rt.consumerKey == consumerKey else {
                    throw .error(401, code: 89, "Invalid or expired token.")
                }
                tokenSecret = rt.secret
            }
        case .none:
            if let t = token {
                guard let access = accessTokens[t], !access.revoked else {
                    throw .error(401, code: 89, "Invalid or expired token.")
                }
                tokenSecret = access.secret
            }
        }
        let expected = OAuthCheck.sign(
            OAuthCheck.baseString(request, oauth: oauth), consumerSecret: consumer.secret, tokenSecret: tokenSecret)
        guard OAuthCheck.equal(expected, signature) else {
            throw .error(401, code: 32, "Could not authenticate you.")
        }
        // A nonce may be used once per timestamp window.
        let nonceKey = consumerKey + "|" + (token ?? "") + "|" + nonce + "|" + timestampText
        if nonces[nonceKey] != nil { throw .error(401, code: 32, "Could not authenticate you.") }
        nonces[nonceKey] = timestamp
        if nonces.count > 50_000 {
            let cutoff = now - 2 * config.timestampWindowSeconds
            nonces = nonces.filter { $0.value >= cutoff }
        }
        return Checked(consumerKey: consumerKey, token: token, oauth: oauth)
    }

    /// `Basic base64(key:secret)` for the OAuth 2 endpoints.
    func basicConsumer(_ request: SimRequest) -> String? {
        guard let header = request.headers["authorization"], header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmed()),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let key = FormCoding.decode(String(text[..<colon]))
        let secret = FormCoding.decode(String(text[text.index(after: colon)...]))
        guard let consumer = consumers[key], OAuthCheck.equal(consumer.secret, secret) else { return nil }
        return key
    }
}
