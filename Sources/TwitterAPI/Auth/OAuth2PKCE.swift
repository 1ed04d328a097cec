import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A PKCE pair (RFC 7636): the secret verifier kept by the client and the S256 challenge sent
/// with the authorization request.
public struct PKCE: Sendable, Equatable {
    public let verifier: String
    public var challenge: String { Self.challenge(for: verifier) }

    public init(verifier: String) { self.verifier = verifier }

    /// A fresh verifier: 32 random bytes, base64url (43 characters, within 43…128).
    public static func make() -> PKCE { PKCE(verifier: Crypto.base64URL(Crypto.randomBytes(32))) }

    /// `BASE64URL(SHA256(verifier))`.
    public static func challenge(for verifier: String) -> String { Crypto.base64URL(Crypto.sha256(Array(verifier.utf8))) }
}

/// What an OAuth 2.0 token answer gave: the access token, when it expires, and the refresh
/// token (only with the `offline.access` scope).
public struct OAuth2Tokens: Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String?
    /// Unix seconds.
    public var expiresAt: Double
    public var scopes: [String]
    public init(accessToken: String, refreshToken: String?, expiresAt: Double, scopes: [String]) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scopes = scopes
    }
}

/// X's OAuth 2.0 authorization code flow with PKCE (docs/PROTOCOL-V2.md §4): the URL to send the
/// user to, the code exchanged for tokens, refresh and revoke. A public client sends its id in
/// the body; a confidential one authenticates with HTTP Basic.
public struct OAuth2Flow: Sendable {
    public let http: HTTPClient
    public let clientID: String
    public let clientSecret: String?
    /// `https://x.com/i/oauth2/authorize` on X; the simulator's own page in tests.
    public let authorizeURL: String
    /// The API base (`https://api.x.com`): token and revoke are under `/2/oauth2/`.
    public let apiBase: String
    public let clock: any WallClock

    /// The scopes Linnet asks for: reading and writing posts, likes, follows, lists and mutes
    /// read, and a refresh token.
    public static let scopes = [
        "tweet.read", "users.read", "tweet.write", "like.read", "like.write", "follows.read", "follows.write", "list.read",
        "mute.read", "mute.write", "dm.read", "dm.write", "media.write", "offline.access",
    ]

    public init(
        http: HTTPClient, clientID: String, clientSecret: String? = nil, authorizeURL: String = "https://x.com/i/oauth2/authorize",
        apiBase: String = "https://api.x.com", clock: any WallClock = SystemClock()
    ) {
        self.http = http
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.authorizeURL = authorizeURL
        self.apiBase = apiBase
        self.clock = clock
    }

    /// Where to send the user.
    public func authorizationURL(redirectURI: String, state: String, pkce: PKCE, scopes: [String] = Self.scopes) -> String {
        let params: [(String, String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI), ("scope", scopes.joined(separator: " ")),
            ("state", state), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
        ]
        return authorizeURL + "?" + PercentEncoding.formEncode(params)
    }

    /// The code from what the user pasted back: the whole redirected URL (its `state` must be
    /// ours) or the bare code. An `error` in the URL (the user said no) is said in words.
    public static func code(fromPasted text: String, state: String) throws -> String {
        let t = text.trimmedLines()
        guard t.contains("?") || t.contains("code=") || t.contains("error=") else {
            guard !t.isEmpty, !t.contains(" ") else {
                throw AuthFlowError.malformedAnswer("nothing that looks like a code or a redirected address was pasted")
            }
            return t
        }
        let query = t.split(separator: "?", maxSplits: 1).last.map(String.init) ?? t
        let fields = PercentEncoding.parseForm(String(query.split(separator: "#").first ?? ""))
        func field(_ name: String) -> String? { fields.last { $0.0 == name }?.1 }
        // Our state first: an error from another sign-in says nothing of this one.
        guard field("state") == state else {
            throw AuthFlowError.wrongToken
        }
        if let error = field("error") {
            if error == "access_denied" { throw AuthFlowError.denied }
            throw AuthFlowError.refused(AuthFlowError.shown(error))
        }
        guard let code = field("code"), !code.isEmpty else { throw AuthFlowError.malformedAnswer("the pasted address has no code") }
        return code
    }

    /// Exchanges an authorization code (within 30 s of the redirect) for tokens.
    public func exchange(code: String, redirectURI: String, pkce: PKCE) async throws -> OAuth2Tokens {
        try await token([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", pkce.verifier),
        ])
    }

    /// New tokens for a refresh token. The answer's refresh token replaces the old one, which
    /// may no longer work: save it before using the new access token.
    public func refresh(_ refreshToken: String) async throws -> OAuth2Tokens {
        var t = try await token([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
        if t.refreshToken == nil { t.refreshToken = refreshToken }
        return t
    }

    public func revoke(_ token: String) async throws {
        let r = try await http.send(request("/2/oauth2/revoke", [("token", token), ("token_type_hint", "access_token")]))
        guard (200..<300).contains(r.status) else { throw APIError(httpStatus: r.status, body: r.body) }
    }

    private func request(_ path: String, _ params: [(String, String)]) -> HTTPRequest {
        var body = params
        var request = HTTPRequest(method: "POST", url: apiBase + path)
        if let secret = clientSecret {
            let basic = Data((PercentEncoding.encode(clientID) + ":" + PercentEncoding.encode(secret)).utf8).base64EncodedString()
            request.headers.append(("Authorization", "Basic " + basic))
        } else {
            body.append(("client_id", clientID))
        }
        request.headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        request.body = Data(PercentEncoding.formEncode(body).utf8)
        return request
    }

    private func token(_ params: [(String, String)]) async throws -> OAuth2Tokens {
        let started = clock.now()
        let r = try await http.send(request("/2/oauth2/token", params))
        guard (200..<300).contains(r.status) else { throw APIError(httpStatus: r.status, body: r.body) }
        let json = try JSONValue.parse(r.body)
        guard let access = json["access_token"]?.stringValue else { throw DecodeError("the token answer has no access_token") }
        let lifetime = json["expires_in"]?.intValue.map(Double.init) ?? 7200
        return OAuth2Tokens(
            accessToken: access, refreshToken: json["refresh_token"]?.stringValue, expiresAt: started + min(max(0, lifetime), 86_400 * 30),
            scopes: (json["scope"]?.stringValue ?? "").split(separator: " ").map(String.init))
    }
}
