import Bedrock
import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// What a sign-in yields: a user's access token and who they are.
public struct AccessGrant: Sendable, Equatable {
    public var token: String
    public var tokenSecret: String
    public var userID: UserID?
    public var screenName: String?
}

/// A request token waiting for the user to approve it in a browser.
public struct PendingAuthorization: Sendable, Equatable {
    public var token: String
    public var tokenSecret: String
    /// The page to open (always printed too: the user may be on ssh).
    public var authorizeURL: String
}

/// A sign-in that did not complete, in plain words.
public enum AuthFlowError: Error, Equatable, Sendable, CustomStringConvertible {
    case refused(String)
    case denied
    case wrongToken
    case timedOut(Double)
    case malformedAnswer(String)

    /// A word from a redirect's query (X's `error`, say) as it may be shown: every control
    /// written out, at most 200 characters.
    public static func shown(_ text: String) -> String {
        let visible = Sanitizer.visible(text, keepNewlines: false)
        return visible.count > 200 ? String(visible.prefix(200)) + "…" : visible
    }

    public var description: String {
        switch self {
        case .refused(let why): return "Twitter refused the sign-in: \(why)"
        case .denied: return "the app was not authorized (you chose Cancel)"
        case .wrongToken: return "the browser returned a sign-in that this session did not start; try again"
        case .timedOut(let s): return "no answer from the browser within \(Int(s)) seconds"
        case .malformedAnswer(let s): return "Twitter's answer could not be read: \(s)"
        }
    }
}

/// The OAuth 1.0a exchanges shared by the PIN, callback, xAuth and reverse-auth flows.
public struct OAuthFlows: Sendable {
    public let http: HTTPClient
    /// `https://api.twitter.com`, or the simulator's base URL.
    public let apiBase: String
    public let consumerKey: String
    public let consumerSecret: String

    public init(http: HTTPClient = HTTPClient(), apiBase: String = "https://api.twitter.com", consumerKey: String, consumerSecret: String) {
        self.http = http
        self.apiBase = apiBase
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
    }

    var app: OAuthCredentials { OAuthCredentials(consumerKey: consumerKey, consumerSecret: consumerSecret) }

    private func post(_ path: String, form: [(String, String)], credentials: OAuthCredentials, extraOAuth: [(String, String)] = [])
        async throws -> String
    {
        let url = apiBase + path
        let auth = try OAuth1Signer().authorizationHeader(
            method: "POST", url: url, formParameters: form, extraOAuth: extraOAuth, credentials: credentials)
        var request = HTTPRequest(
            method: "POST", url: url, headers: [("Authorization", auth), ("Content-Type", "application/x-www-form-urlencoded")])
        request.body = Data(PercentEncoding.formEncode(form).utf8)
        let r = try await http.send(request)
        guard r.status == 200 else { throw AuthFlowError.refused(APIError(httpStatus: r.status, body: r.body).description) }
        return String(decoding: r.body, as: UTF8.self)
    }

    /// Step 1 of the PIN and callback flows: a request token for `callback` (`oob` for a PIN).
    public func requestToken(callback: String) async throws -> PendingAuthorization {
        let body = try await post("/oauth/request_token", form: [], credentials: app, extraOAuth: [("oauth_callback", callback)])
        let pairs = Dictionary(PercentEncoding.parseForm(body), uniquingKeysWith: { _, last in last })
        guard let token = pairs["oauth_token"], let secret = pairs["oauth_token_secret"] else {
            throw AuthFlowError.malformedAnswer("no oauth_token in the request-token answer")
        }
        return PendingAuthorization(
            token: token, tokenSecret: secret, authorizeURL: apiBase + "/oauth/authorize?oauth_token=" + PercentEncoding.encode(token))
    }

    /// Step 3: the verifier (the PIN, or `oauth_verifier` from the callback) for an access token.
    public func accessToken(_ pending: PendingAuthorization, verifier: String) async throws -> AccessGrant {
        var creds = app
        creds.token = pending.token
        creds.tokenSecret = pending.tokenSecret
        let pin = verifier.trimmedLines()
        return try Self.grant(try await post("/oauth/access_token", form: [], credentials: creds, extraOAuth: [("oauth_verifier", pin)]))
    }

    /// xAuth: username and password exchanged once. The password lives only in this call.
    public func xauth(username: String, password: String) async throws -> AccessGrant {
        try Self.grant(
            try await post(
                "/oauth/access_token",
                form: [
                    ("x_auth_username", username), ("x_auth_password", password), ("x_auth_mode", "client_auth"),
                ], credentials: app))
    }

    /// Reverse auth, step 1: the signed header a server hands to a device, which the device sends
    /// back with its own credentials to get tokens for this app.
    public func reverseAuthParameters() async throws -> String {
        let body = try await post("/oauth/request_token", form: [("x_auth_mode", "reverse_auth")], credentials: app)
        guard body.hasPrefix("OAuth ") else { throw AuthFlowError.malformedAnswer("the reverse-auth answer is not an OAuth header") }
        return body
    }

    /// Reverse auth, step 2, as a device would run it: this app's credentials plus a user token
    /// buy tokens for `targetConsumerKey`.
    public func reverseAuthExchange(parameters: String, targetConsumerKey: String, deviceToken: OAuthCredentials) async throws
        -> AccessGrant
    {
        try Self.grant(
            try await post(
                "/oauth/access_token",
                form: [
                    ("x_reverse_auth_target", targetConsumerKey), ("x_reverse_auth_parameters", parameters),
                ], credentials: deviceToken))
    }

    static func grant(_ body: String) throws -> AccessGrant {
        let pairs = Dictionary(PercentEncoding.parseForm(body), uniquingKeysWith: { _, last in last })
        guard let token = pairs["oauth_token"], let secret = pairs["oauth_token_secret"] else {
            throw AuthFlowError.malformedAnswer("no oauth_token in the access-token answer")
        }
        return AccessGrant(
            token: token, tokenSecret: secret, userID: pairs["user_id"].flatMap(UserID.init), screenName: pairs["screen_name"])
    }
}

/// App-only authentication: a bearer token for the app itself (read-only).
public struct AppOnlyFlow: Sendable {
    public let http: HTTPClient
    public let apiBase: String

    public init(http: HTTPClient = HTTPClient(), apiBase: String = "https://api.twitter.com") {
        self.http = http
        self.apiBase = apiBase
    }

    private func post(_ path: String, _ body: String, consumerKey: String, consumerSecret: String) async throws -> JSONValue {
        var r = HTTPRequest(
            method: "POST", url: apiBase + path,
            headers: [
                ("Authorization", "Basic " + AppOnlyAuth.basicCredential(consumerKey: consumerKey, consumerSecret: consumerSecret)),
                ("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8"),
            ])
        r.body = Data(body.utf8)
        let response = try await http.send(r)
        guard response.status == 200 else {
            throw AuthFlowError.refused(APIError(httpStatus: response.status, body: response.body).description)
        }
        return try JSONValue.parse(response.body)
    }

    /// Gets the app's bearer token (the same one each time until it is invalidated).
    public func obtain(consumerKey: String, consumerSecret: String) async throws -> String {
        let v = try await post("/oauth2/token", "grant_type=client_credentials", consumerKey: consumerKey, consumerSecret: consumerSecret)
        guard v["token_type"]?.stringValue == "bearer", let token = v["access_token"]?.stringValue else {
            throw AuthFlowError.malformedAnswer("the token answer is not a bearer token")
        }
        return token
    }

    public func invalidate(_ token: String, consumerKey: String, consumerSecret: String) async throws {
        _ = try await post(
            "/oauth2/invalidate_token", "access_token=" + PercentEncoding.encode(token), consumerKey: consumerKey,
            consumerSecret: consumerSecret)
    }
}
