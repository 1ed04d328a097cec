import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Turns a request into an answer: control routes, injected faults, authentication, rate
/// limits, the endpoint itself, and the request log.
struct Router: Sendable {
    let world: World

    /// An endpoint: who may call it and which rate-limit window it counts against.
    struct Endpoint {
        var limitKey: String?
        var allowBearer: Bool
        var run: @Sendable (World, SimRequest, World.Identity) async throws(SimResponse) -> SimResponse
    }

    /// v1.1 paths every access level may call (`/media/upload`, without `/1.1` and `.json`).
    static let onEveryTier: Set<String> = ["/media/upload", "/media/metadata/create"]

    func handle(_ r: SimRequest) async -> SimResponse {
        if r.path.hasPrefix("/_sim/") { return await ControlRoutes.handle(r, world: world) }
        let faults = await world.faults
        if faults.delayMilliseconds > 0 {
            try? await Task.sleep(nanoseconds: SimClock.nanoseconds(Double(faults.delayMilliseconds) / 1000))
        }
        if let status = await world.takeStatusFault(path: r.path, query: r.rawQuery) {
            let response = Self.faultResponse(status, path: r.path)
            await world.record(r, auth: "fault", status: status)
            return response
        }
        var response = await route(r)
        if await world.takeReset(path: r.path), case .bytes(let data) = response.body {
            response.body = .reset(data, keep: data.count / 2)
        }
        return response
    }

    static func faultResponse(_ status: Int, path: String) -> SimResponse {
        switch status {
        case 420:
            return SimResponse(
                status: 420, headers: [("Content-Type", "text/plain")],
                body: .bytes(Data("Easy there, Turbo. Too many requests recently. Enhance your calm.".utf8)))
        case 429: return .error(429, code: 88, "Rate limit exceeded")
        case 500: return .error(500, code: 131, "Internal error")
        case 503: return .error(503, code: 130, "Over capacity")
        default: return .error(status, code: 0, HTTPReason.text(status))
        }
    }

    private func route(_ r: SimRequest) async -> SimResponse {
        let path = r.path
        switch (r.method, path) {
        case ("POST", "/oauth/request_token"): return await logged(r, "oauth") { () throws(SimResponse) in try await world.requestToken(r) }
        case ("GET", "/oauth/authorize"), ("GET", "/oauth/authenticate"): return await logged(r, "none") { await world.authorizePage(r) }
        case ("POST", "/oauth/authorize"): return await logged(r, "none") { await world.authorizeAnswer(r) }
        case ("POST", "/oauth/access_token"): return await logged(r, "oauth") { () throws(SimResponse) in try await world.accessToken(r) }
        case ("POST", "/oauth2/token"): return await logged(r, "basic") { await world.oauth2Token(r) }
        case ("POST", "/oauth2/invalidate_token"): return await logged(r, "basic") { await world.oauth2Invalidate(r) }
        case ("GET", "/i/oauth2/authorize"): return await logged(r, "none") { await world.oauth2AuthorizePage(r) }
        case ("POST", "/i/oauth2/authorize"): return await logged(r, "none") { await world.oauth2AuthorizeAnswer(r) }
        case ("POST", "/2/oauth2/token"): return await logged(r, "oauth2") { () throws(SimResponse) in try await world.oauth2UserToken(r) }
        case ("POST", "/2/oauth2/revoke"): return await logged(r, "oauth2") { () throws(SimResponse) in try await world.oauth2Revoke(r) }
        default: break
        }
        // The media server's files: not the API (no authentication, no rate limit, not billed).
        if r.method == "GET", path.hasPrefix("/media/") { return await logged(r, "none") { await world.mediaFile(r) } }
        if r.method == "GET", path.hasPrefix("/profile_images/") { return await logged(r, "none") { await world.profileImage(r) } }
        if path.hasPrefix("/2/") { return await routeV2(r) }
        guard path.hasPrefix("/1.1/"), path.hasSuffix(".json") else {
            return await logged(r, "none") { .error(404, code: 34, "Sorry, that page does not exist.") }
        }
        let name = String(path.dropFirst(4).dropLast(5))  // "/statuses/home_timeline"
        guard let (endpoint, _) = Self.endpoint(method: r.method, name: name) else {
            return await logged(r, "none") { .error(404, code: 34, "Sorry, that page does not exist.") }
        }
        let identity: World.Identity
        switch await world.authenticate(r, allowBearer: endpoint.allowBearer) {
        case .failed(let response):
            await world.record(r, auth: "rejected", status: response.status)
            return response
        case .ok(let who): identity = who
        }
        let authKind: String = { if case .app = identity { return "bearer" } else { return "user" } }()
        // Media upload is the part of v1.1 every access level keeps.
        if world.config.tier != .enterprise, !Self.onEveryTier.contains(name) {
            await world.record(r, auth: authKind, status: 403)
            return World.v1NotOnTier
        }
        return await limitedRun(endpoint, r, identity) { headers in
            SimResponse.error(429, code: 88, "Rate limit exceeded", headers: headers)
        }
    }

    /// Counts the request against its rate-limit window (a 429 in the face's words when it is
    /// spent), runs the endpoint, adds the window's headers, and logs it.
    func limitedRun(_ endpoint: Endpoint, _ r: SimRequest, _ identity: World.Identity, spent: ([(String, String)]) -> SimResponse) async
        -> SimResponse
    {
        let authKind: String = { if case .app = identity { return "bearer" } else { return "user" } }()
        var limitHeaders: [(String, String)] = []
        var counted: RateLimiter.Window?
        if let key = endpoint.limitKey {
            let (window, allowed) = await world.takeRateLimit(identity, endpoint: key)
            counted = window
            limitHeaders = [
                ("x-rate-limit-limit", String(window.limit)), ("x-rate-limit-remaining", String(window.remaining)),
                ("x-rate-limit-reset", String(window.reset)),
            ]
            if !allowed {
                let response = spent(limitHeaders)
                await world.record(r, auth: authKind, status: 429, window: window)
                return response
            }
        }
        // A handler ends early by throwing the answer (a refusal).
        var response: SimResponse
        do { response = try await endpoint.run(world, r, identity) } catch { response = error }
        response.headers += limitHeaders
        await world.record(r, auth: authKind, status: response.status, window: counted)
        return response
    }

    private func logged(_ r: SimRequest, _ auth: String, _ body: () async throws(SimResponse) -> SimResponse) async -> SimResponse {
        let response: SimResponse
        do { response = try await body() } catch { response = error }
        await world.record(r, auth: auth, status: response.status)
        return response
    }
}

/// Reason phrases for the statuses the simulator answers.
enum HTTPReason {
    static func text(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 406: return "Not Acceptable"
        case 413: return "Payload Too Large"
        case 414: return "URI Too Long"
        case 420: return "Enhance Your Calm"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(status)"
        }
    }
}
