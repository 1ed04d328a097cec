import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where the API lives: Twitter's hosts by default, the simulator's in tests and `linnet demo`.
public struct TwitterEndpoints: Sendable, Equatable {
    public var apiBase: String
    public var streamBase: String
    public var userStreamBase: String
    /// v1.1's media upload (`upload.twitter.com`).
    public var uploadBase: String

    public init(
        apiBase: String = "https://api.twitter.com", streamBase: String = "https://stream.twitter.com",
        userStreamBase: String = "https://userstream.twitter.com", uploadBase: String = "https://upload.twitter.com"
    ) {
        self.apiBase = apiBase
        self.streamBase = streamBase
        self.userStreamBase = userStreamBase
        self.uploadBase = uploadBase
    }

    /// Every service at one base URL (the simulator).
    public static func single(_ base: String) -> TwitterEndpoints {
        TwitterEndpoints(apiBase: base, streamBase: base, userStreamBase: base, uploadBase: base)
    }

    /// X's own, for an API: v2 is all at api.x.com; v1.1 at its historical hosts.
    public static func x(_ api: TwitterClient.API) -> TwitterEndpoints {
        api == .v2 ? .single("https://api.x.com") : TwitterEndpoints()
    }
}

/// How requests are authorised.
public enum TwitterAuth: Sendable {
    /// OAuth 1.0a with a user's access token.
    case user(OAuthCredentials)
    /// An app-only bearer token: search and user timelines, read-only.
    case bearer(String)
    /// An OAuth 2.0 user access token (authorization code with PKCE): a user's context on v2.
    case oauth2(accessToken: String)
    /// An OAuth 2.0 sign-in that refreshes itself (before expiry, and after a 401).
    case oauth2Session(OAuth2Session)

    public var isAppOnly: Bool { if case .bearer = self { true } else { false } }

    /// The user an access token belongs to: Twitter's tokens start with the user's id and a
    /// dash (`12345-abc…`). Nil for a bearer or a token of another shape.
    public var tokenUserID: UserID? {
        guard case .user(let c) = self, let token = c.token, let dash = token.firstIndex(of: "-") else { return nil }
        return UserID(String(token[..<dash]))
    }
}

/// The Twitter v1.1 client: signs, sends over libcurl, decodes, turns errors into words, learns
/// clock skew, and records rate limits. Thread-safe.
public final class TwitterClient: Sendable {
    public let endpoints: TwitterEndpoints
    public let auth: TwitterAuth
    public let http: HTTPClient
    public let rateLimits: RateLimitBook
    /// Which API this client reads and writes through.
    public let api: API
    public enum API: String, Sendable, CaseIterable {
        case v1 = "v1.1"
        case v2
    }
    /// Where "now" comes from when a relative wait (`Retry-After: 120`) becomes a time: the
    /// sync engine's clock, so both count time alike. OAuth timestamps use the system clock,
    /// because the server checks them against its own.
    public let clock: any WallClock
    /// Where v2 answers report what X bills for them (nil: not counted).
    public let usage: (any UsageRecording)?
    /// Authors already read, so pages of posts need not expand them again (v2).
    public let knownUsers: KnownUsers
    private let clockOffset = Atomic<Int64>(0)

    public init(
        endpoints: TwitterEndpoints = TwitterEndpoints(), auth: TwitterAuth, http: HTTPClient = HTTPClient(),
        clock: any WallClock = SystemClock(), api: API = .v1, usage: (any UsageRecording)? = nil
    ) {
        self.api = api
        self.usage = usage
        self.endpoints = endpoints
        self.auth = auth
        self.http = http
        self.clock = clock
        rateLimits = RateLimitBook(clock: clock)
        knownUsers = KnownUsers(clock: clock)
    }

    /// Seconds the server's clock is ahead of ours, learnt from a timestamp rejection.
    public var serverClockOffset: Int64 { clockOffset.load(ordering: .relaxed) }

    // MARK: - Sending

    /// `/1.1/statuses/home_timeline.json` for `statuses/home_timeline`; full paths pass through.
    static func apiPath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return "/1.1/" + path + (path.hasSuffix(".json") ? "" : ".json")
    }

    /// The rate-limit family key for a path (`/statuses/show/:id` for ids).
    static func limitKey(_ path: String) -> String {
        var p = path
        if p.hasPrefix("/1.1") { p.removeFirst(4) }
        if p.hasSuffix(".json") { p.removeLast(5) }
        for prefix in ["/statuses/show/", "/statuses/retweet/", "/statuses/unretweet/", "/statuses/destroy/"] where p.hasPrefix(prefix) {
            return prefix + ":id"
        }
        // v2: ids in the path become `:id` (`/2/users/:id/mentions`, `/2/tweets/:id`).
        if p.hasPrefix("/2/") {
            let parts = p.split(separator: "/", omittingEmptySubsequences: false)
            return "/2/" + parts.dropFirst(2).map { !$0.isEmpty && $0.allSatisfy(\.isNumber) ? ":id" : String($0) }.joined(separator: "/")
        }
        return p
    }

    /// Sends a signed request and returns the raw answer, whatever its status. Retries once with
    /// a corrected clock after a 401 code 135.
    public func send(_ method: String, _ path: String, _ params: [(String, String)] = [], base: String? = nil, json: Data? = nil)
        async throws -> HTTPResponse
    {
        let full = Self.apiPath(path)
        // The one budget gate: what a call could cost is priced before it is sent.
        guard let usage else { return try await sendAdmitted(method, full, params, base: base, json: json) }
        let worst = Billable.worstCase(method: method, path: full, params: params, json: json)
        if let worst, let refusal = usage.admit(worst) { throw BudgetRefusal(refusal) }
        // Held against the budget while it runs, so calls side by side cannot all pass it.
        defer { if let worst { usage.settle(worst) } }
        let response = try await sendAdmitted(method, full, params, base: base, json: json)
        // The one place a call is billed: what its answer carried, whichever call made it.
        if (200..<300).contains(response.status),
            let billed = Billable.billed(method: method, path: full, params: params, json: json, body: response.body), !billed.isEmpty
        {
            usage.record(billed)
        }
        return response
    }

    private func sendAdmitted(_ method: String, _ full: String, _ params: [(String, String)], base: String?, json: Data?)
        async throws -> HTTPResponse
    {
        let base = base ?? endpoints.apiBase
        if case .oauth2Session(let session) = auth {
            // Refreshed first when about to expire; once more if the server still says 401.
            let token = try await session.accessToken()
            let response = try await sendOnce(method, full, params, base: base, json: json, bearer: token)
            guard response.status == 401 else { return response }
            let fresh = try await session.refresh(after: token)
            return try await sendOnce(method, full, params, base: base, json: json, bearer: fresh.accessToken)
        }
        var response = try await sendOnce(method, full, params, base: base, json: json)
        if response.status == 401, APIError(httpStatus: 401, body: response.body).code == 135,
            let date = response.headers["date"].flatMap(HTTPDate.parse)
        {
            clockOffset.store(date - Int64(Date().timeIntervalSince1970), ordering: .relaxed)
            response = try await sendOnce(method, full, params, base: base, json: json)
        }
        return response
    }

    func makeRequest(
        _ method: String, _ path: String, _ params: [(String, String)], base: String, json: Data? = nil, bearer: String? = nil
    ) throws -> HTTPRequest {
        // With a JSON body (v2 writes) the parameters go in the query, whatever the method; a
        // JSON body is not part of the OAuth 1.0a signature.
        let isGet = method.uppercased() == "GET" || json != nil
        let query = isGet && !params.isEmpty ? "?" + PercentEncoding.formEncode(params) : ""
        let url = base + path + query
        var request = HTTPRequest(method: method.uppercased(), url: url)
        switch auth {
        case .user(let creds):
            let signer = OAuth1Signer(clockOffset: clockOffset.load(ordering: .relaxed))
            request.headers.append(
                (
                    "Authorization",
                    try signer.authorizationHeader(
                        method: method, url: url, formParameters: isGet ? [] : params, credentials: creds)
                ))
        case .bearer(let token), .oauth2(let token):
            request.headers.append(("Authorization", "Bearer " + token))
        case .oauth2Session(let session):
            request.headers.append(("Authorization", "Bearer " + (bearer ?? session.tokens.accessToken)))
        }
        if let json {
            request.headers.append(("Content-Type", "application/json"))
            request.body = json
        } else if !isGet {
            request.headers.append(("Content-Type", "application/x-www-form-urlencoded"))
            request.body = Data(PercentEncoding.formEncode(params).utf8)
        }
        return request
    }

    /// One signed request; its rate-limit headers are recorded as soon as they arrive, so a
    /// window the server said was spent is known even when the body is then cut off.
    private func sendOnce(
        _ method: String, _ path: String, _ params: [(String, String)], base: String, json: Data? = nil, bearer: String? = nil
    ) async throws -> HTTPResponse {
        let key = Self.limitKey(path)
        return try await http.send(try makeRequest(method, path, params, base: base, json: json, bearer: bearer)) {
            [rateLimits] status, headers in
            rateLimits.record(endpoint: key, headers: headers, status: status)
        }
    }

    /// Sends and returns the body of a 2xx answer; anything else becomes an `APIError`.
    public func call(_ method: String, _ path: String, _ params: [(String, String)] = [], json: Data? = nil, base: String? = nil)
        async throws -> Data
    {
        let r = try await send(method, path, params, base: base, json: json)
        guard (200..<300).contains(r.status) else {
            let now = Int64(clock.now())
            let retry =
                Checked.retryAfter(r.headers["retry-after"], now: now)
                ?? (r.status == 429 ? Checked.resetTime(r.headers["x-rate-limit-reset"], now: now) : nil)
            // A refusal for the rate holds the endpoint's family until the time named (or a
            // backoff of the schedule's own).
            if r.status == 429 || r.status == 420 {
                rateLimits.apply(
                    .refused(endpoint: Self.limitKey(Self.apiPath(path)), retryAt: retry, now: clock.now() + Double(serverClockOffset)))
            }
            throw APIError(httpStatus: r.status, body: r.body, retryAt: retry)
        }
        return r.body
    }

    /// The generic call (twurl, STTwitter's fetchResource): any method and path, the JSON back.
    public func request(method: String, path: String, parameters: [(String, String)] = []) async throws -> JSONValue {
        try JSONValue.parse(try await call(method, path, parameters))
    }
}

/// HTTP `Date` headers (`Sun, 22 Nov 2026 00:06:48 GMT`).
public enum HTTPDate {
    public static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT" else { return nil }
        // Same fields as created_at, in another order; the weekday is not checked.
        return TwitterDate.parse("Mon \(parts[2]) \(parts[1]) \(parts[4]) +0000 \(parts[3])")
    }
}
