import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// OAuth 2.0 authorization code with PKCE, as X runs it: a consent page, codes that are
/// single-use and expire, S256 or plain challenges checked, access tokens that expire, refresh
/// tokens that rotate (only with `offline.access`), and revocation.
extension World {
    struct OAuth2Pending {
        var clientID: String
        var redirectURI: String
        var state: String
        var challenge: String
        var method: String
        var scopes: [String]
        var createdAt: Double
    }

    /// Sign-ins begun and not answered that are kept, and for how long: the oldest go first, so
    /// unauthenticated page loads cannot grow the server.
    static let pendingLimit = 1_000
    static let pendingSeconds: Double = 600
    /// X takes a `state` of up to 500 characters; RFC 7636 §4.2 a challenge of 43 to 128.
    static let stateLimit = 500
    static let challengeLengths = 43...128

    func prunePending() {
        let now = wallNow
        oauth2Pending = oauth2Pending.filter { now - $0.value.createdAt < Self.pendingSeconds }
        while oauth2Pending.count >= Self.pendingLimit, let oldest = oauth2Pending.min(by: { $0.value.createdAt < $1.value.createdAt }) {
            oauth2Pending[oldest.key] = nil
        }
        oauth2Codes = oauth2Codes.filter { now - $0.value.issuedAt <= config.oauth2CodeSeconds }
    }

    struct OAuth2Code {
        var clientID: String
        var redirectURI: String
        var challenge: String
        var method: String
        var userID: UInt64
        var scopes: [String]
        var issuedAt: Double
    }

    struct OAuth2Grant {
        var userID: UInt64
        var clientID: String
        var scopes: [String]
        var expiresAt: Double
    }

    /// The clients the demo app registered: the public id, and the confidential id with its secret.
    func oauth2ClientKnown(_ id: String) -> Bool { id == config.oauth2ClientID || id == config.oauth2ConfidentialClientID }

    var wallNow: Double { Date().timeIntervalSince1970 + Double(clockOffset) }

    static func oauth2Error(_ status: Int, _ error: String, _ description: String) -> SimResponse {
        .json(status, .object([("error", .string(error)), ("error_description", .string(description))]))
    }

    /// `GET /i/oauth2/authorize`: checks the request and shows the consent page.
    func oauth2AuthorizePage(_ r: SimRequest) -> SimResponse {
        guard let client = r.param("client_id"), oauth2ClientKnown(client) else {
            return .html(400, AuthorizePages.message("Something went wrong: this app is not known (client_id)."))
        }
        guard let redirect = r.param("redirect_uri"), config.oauth2RedirectURIs.contains(redirect) else {
            return .html(400, AuthorizePages.message("Something went wrong: the redirect_uri does not match one the app registered."))
        }
        guard r.param("response_type") == "code", let challenge = r.param("code_challenge"), !challenge.isEmpty,
            let state = r.param("state"), !state.isEmpty
        else {
            return .html(400, AuthorizePages.message("Something went wrong: response_type=code, state and code_challenge are required."))
        }
        guard state.count <= Self.stateLimit, Self.challengeLengths.contains(challenge.utf8.count),
            challenge.utf8.allSatisfy({ b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "-._~".utf8.contains(b)
            }), (r.param("scope") ?? "").utf8.count <= 1_000
        else {
            return .html(
                400,
                AuthorizePages.message(
                    "Something went wrong: state may hold up to 500 characters, code_challenge 43 to 128 of letters, digits and -._~."))
        }
        let method = r.param("code_challenge_method") ?? "plain"
        guard method == "S256" || method == "plain" else {
            return .html(400, AuthorizePages.message("Something went wrong: code_challenge_method must be S256 or plain."))
        }
        let scopes = (r.param("scope") ?? "").split(separator: " ").map(String.init)
        let id = OAuthCheck.randomToken(24)
        prunePending()
        oauth2Pending[id] = OAuth2Pending(
            clientID: client, redirectURI: redirect, state: state, challenge: challenge, method: method, scopes: scopes, createdAt: wallNow)
        return .html(200, AuthorizePages.oauth2Form(request: id, appName: "Linnet demo", scopes: scopes))
    }

    /// `POST /i/oauth2/authorize`: the user's answer; redirects with a code (or `access_denied`).
    func oauth2AuthorizeAnswer(_ r: SimRequest) -> SimResponse {
        guard let id = r.param("request"), let p = oauth2Pending[id], wallNow - p.createdAt < Self.pendingSeconds else {
            return .html(403, AuthorizePages.message("This page is no longer valid. Start the sign-in again from the app."))
        }
        func redirect(_ params: [(String, String)]) -> SimResponse {
            let separator = p.redirectURI.contains("?") ? "&" : "?"
            return SimResponse(
                status: 302, headers: [("Location", p.redirectURI + separator + FormCoding.encode(params))], body: .bytes(Data()))
        }
        if r.param("cancel") != nil {
            oauth2Pending[id] = nil
            return redirect([("error", "access_denied"), ("state", p.state)])
        }
        guard let name = r.param("session[username_or_email]"), let password = r.param("session[password]"),
            let user = user(named: name), OAuthCheck.equal(user.password, password)
        else {
            return .html(
                401,
                AuthorizePages.oauth2Form(
                    request: id, appName: "Linnet demo", scopes: p.scopes, error: "The username and password did not match."))
        }
        oauth2Pending[id] = nil
        prunePending()
        let code = OAuthCheck.randomToken(40)
        oauth2Codes[code] = OAuth2Code(
            clientID: p.clientID, redirectURI: p.redirectURI, challenge: p.challenge, method: p.method, userID: user.id, scopes: p.scopes,
            issuedAt: wallNow)
        return redirect([("state", p.state), ("code", code)])
    }

    /// The client a token request comes from: HTTP Basic (confidential) or `client_id` (public).
    private func oauth2Client(_ r: SimRequest) throws(SimResponse) -> String {
        if let header = r.headers["authorization"], header.lowercased().hasPrefix("basic ") {
            guard let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmed()),
                let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
            else { throw Self.oauth2Error(401, "invalid_client", "Malformed client authentication.") }
            let id = FormCoding.percentDecode(String(text[..<colon]), plusIsSpace: true)
            let secret = FormCoding.percentDecode(String(text[text.index(after: colon)...]), plusIsSpace: true)
            guard id == config.oauth2ConfidentialClientID, OAuthCheck.equal(secret, config.oauth2ConfidentialClientSecret) else {
                throw Self.oauth2Error(401, "invalid_client", "Client authentication failed.")
            }
            return id
        }
        guard let id = r.param("client_id"), id == config.oauth2ClientID else {
            throw Self.oauth2Error(401, "invalid_client", "Missing valid authorization header")
        }
        return id
    }

    /// A new access token (and, with `offline.access`, a refresh token) for a user and client.
    func grant(userID: UInt64, clientID: String, scopes: [String]) -> (access: String, refresh: String?) {
        let (access, refresh) = Self.newGrantTokens(scopes: scopes)
        keep(access: access, refresh: refresh, userID: userID, clientID: clientID, scopes: scopes)
        return (access, refresh)
    }

    /// An access token, and a refresh token when `offline.access` is granted.
    static func newGrantTokens(scopes: [String]) -> (access: String, refresh: String?) {
        (OAuthCheck.randomToken(48), scopes.contains("offline.access") ? OAuthCheck.randomToken(48) : nil)
    }

    /// Honours tokens made elsewhere (the demo's, handed out before the world was made); the
    /// access token lives `oauth2AccessTokenSeconds` from now by the world's clock.
    func keep(access: String, refresh: String?, userID: UInt64, clientID: String, scopes: [String]) {
        oauth2Access[access] = OAuth2Grant(
            userID: userID, clientID: clientID, scopes: scopes, expiresAt: wallNow + config.oauth2AccessTokenSeconds)
        if let refresh { oauth2Refresh[refresh] = OAuth2Grant(userID: userID, clientID: clientID, scopes: scopes, expiresAt: .infinity) }
    }

    private func issue(userID: UInt64, clientID: String, scopes: [String]) -> SimResponse {
        let (access, refresh) = grant(userID: userID, clientID: clientID, scopes: scopes)
        var fields: [(String, J)] = [
            ("token_type", .string("bearer")), ("expires_in", .int(Int64(config.oauth2AccessTokenSeconds))),
            ("access_token", .string(access)), ("scope", .string(scopes.joined(separator: " "))),
        ]
        if let refresh { fields.append(("refresh_token", .string(refresh))) }
        return .json(200, .object(fields))
    }

    /// `POST /2/oauth2/token`: a code (with its PKCE verifier) or a refresh token for tokens.
    func oauth2UserToken(_ r: SimRequest) throws(SimResponse) -> SimResponse {
        let client = try oauth2Client(r)
        switch r.param("grant_type") {
        case "authorization_code":
            // Single use: the code is gone whatever happens next.
            guard let code = r.param("code"), let c = oauth2Codes.removeValue(forKey: code), c.clientID == client else {
                return Self.oauth2Error(400, "invalid_request", "Value passed for the authorization code was invalid.")
            }
            guard wallNow - c.issuedAt <= config.oauth2CodeSeconds else {
                return Self.oauth2Error(400, "invalid_request", "Value passed for the authorization code was invalid.")
            }
            guard r.param("redirect_uri") == c.redirectURI else {
                return Self.oauth2Error(
                    400, "invalid_request", "Value passed for the redirect uri did not match the uri of the authorization code.")
            }
            let verifier = r.param("code_verifier") ?? ""
            let expected = c.method == "S256" ? OAuthCheck.s256(verifier) : verifier
            guard !verifier.isEmpty, OAuthCheck.equal(expected, c.challenge) else {
                return Self.oauth2Error(400, "invalid_request", "Value passed for the code verifier did not match the code challenge.")
            }
            return issue(userID: c.userID, clientID: client, scopes: c.scopes)
        case "refresh_token":
            // Rotation: the refresh token used is spent.
            guard let token = r.param("refresh_token"), let g = oauth2Refresh.removeValue(forKey: token), g.clientID == client else {
                return Self.oauth2Error(400, "invalid_request", "Value passed for the token was invalid.")
            }
            return issue(userID: g.userID, clientID: client, scopes: g.scopes)
        default:
            return Self.oauth2Error(400, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token.")
        }
    }

    /// `POST /2/oauth2/revoke`: an access or refresh token stops working.
    func oauth2Revoke(_ r: SimRequest) throws(SimResponse) -> SimResponse {
        let client = try oauth2Client(r)
        guard let token = r.param("token") else { return Self.oauth2Error(400, "invalid_request", "Missing required parameter [token].") }
        if oauth2Access[token]?.clientID == client { oauth2Access[token] = nil }
        if oauth2Refresh[token]?.clientID == client { oauth2Refresh[token] = nil }
        return .json(200, .object([("revoked", .bool(true))]))
    }

    /// Ends every access token now; returns how many there were.
    func expireOAuth2AccessTokens() -> Int {
        let n = oauth2Access.count
        for k in oauth2Access.keys { oauth2Access[k]?.expiresAt = wallNow - 1 }
        return n
    }

    /// The user an OAuth 2.0 access token stands for, while it is valid.
    func oauth2User(_ token: String) -> OAuth2Grant? {
        guard let g = oauth2Access[token] else { return nil }
        guard g.expiresAt > wallNow else {
            oauth2Access[token] = nil
            return nil
        }
        return g
    }
}
