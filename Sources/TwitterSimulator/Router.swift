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

    /// The endpoint for `/name` (without `/1.1` and `.json`), with the `:id` part if any.
    static func endpoint(method: String, name: String) -> (Endpoint, String?)? {
        func idAfter(_ prefix: String) -> String? { name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : nil }
        switch (method, name) {
        case ("GET", "/account/verify_credentials"):
            return (Endpoint(limitKey: "/account/verify_credentials", allowBearer: false) { w, _, i in await w.verifyCredentials(i) }, nil)
        case ("GET", "/statuses/home_timeline"):
            return (
                Endpoint(limitKey: "/statuses/home_timeline", allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.home(r, i)
                }, nil
            )
        case ("GET", "/statuses/mentions_timeline"):
            return (
                Endpoint(limitKey: "/statuses/mentions_timeline", allowBearer: false) { (w, r, i) throws(SimResponse) in
                    try await w.mentions(r, i)
                }, nil
            )
        case ("GET", "/statuses/user_timeline"):
            return (
                Endpoint(limitKey: "/statuses/user_timeline", allowBearer: true) { (w, r, i) throws(SimResponse) in
                    try await w.userTimeline(r, i)
                }, nil
            )
        case ("GET", "/statuses/show"):
            return (
                Endpoint(limitKey: "/statuses/show/:id", allowBearer: true) { (w, r, i) throws(SimResponse) in
                    try await w.show(r, i, id: nil)
                }, nil
            )
        case ("GET", "/search/tweets"):
            return (
                Endpoint(limitKey: "/search/tweets", allowBearer: true) { (w, r, i) throws(SimResponse) in try await w.search(r, i) }, nil
            )
        case ("GET", "/users/show"):
            return (Endpoint(limitKey: "/users/show", allowBearer: true) { w, r, i in await w.usersShow(r, i) }, nil)
        case ("GET", "/application/rate_limit_status"):
            return (
                Endpoint(limitKey: "/application/rate_limit_status", allowBearer: true) { w, r, i in await w.rateLimitStatus(r, i) }, nil
            )
        case ("GET", "/friendships/show"):
            return (Endpoint(limitKey: "/friendships/show", allowBearer: true) { w, r, i in await w.friendshipShow(r, i) }, nil)
        case ("POST", "/friendships/create"):
            return (
                Endpoint(limitKey: nil, allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.v1Follow(r, i, create: true) },
                nil
            )
        case ("POST", "/friendships/destroy"):
            return (
                Endpoint(limitKey: nil, allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.v1Follow(r, i, create: false) },
                nil
            )
        case ("POST", "/blocks/create"):
            return (
                Endpoint(limitKey: nil, allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.v1Block(r, i, create: true) },
                nil
            )
        case ("POST", "/blocks/destroy"):
            return (
                Endpoint(limitKey: nil, allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.v1Block(r, i, create: false) },
                nil
            )
        case ("GET", "/followers/list"):
            return (Endpoint(limitKey: "/followers/list", allowBearer: true) { w, r, i in await w.v1People(r, i, followers: true) }, nil)
        case ("GET", "/friends/list"):
            return (Endpoint(limitKey: "/friends/list", allowBearer: true) { w, r, i in await w.v1People(r, i, followers: false) }, nil)
        case ("GET", "/users/lookup"):
            return (Endpoint(limitKey: "/users/lookup", allowBearer: true) { w, r, i in await w.v1UsersLookup(r, i) }, nil)
        case ("GET", "/direct_messages/events/list"):
            return (Endpoint(limitKey: "/direct_messages/events/list", allowBearer: false) { w, r, i in await w.v1Messages(r, i) }, nil)
        case ("POST", "/direct_messages/events/new"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.v1SendMessage(r, i) }, nil)
        case ("GET", "/lists/list"):
            return (Endpoint(limitKey: "/lists/list", allowBearer: true) { w, r, i in await w.v1Lists(r, i) }, nil)
        case ("GET", "/lists/statuses"):
            return (
                Endpoint(limitKey: "/lists/statuses", allowBearer: true) { (w, r, i) throws(SimResponse) in try await w.v1ListStatuses(r, i)
                }, nil
            )
        case ("GET", "/favorites/list"):
            return (
                Endpoint(limitKey: "/favorites/list", allowBearer: true) { (w, r, i) throws(SimResponse) in try await w.favoritesList(r, i)
                }, nil
            )
        case ("GET", "/mutes/users/ids"):
            return (Endpoint(limitKey: "/mutes/users/ids", allowBearer: false) { w, r, i in await w.v1MutedIDs(r, i) }, nil)
        case ("POST", "/mutes/users/create"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.v1Mute(r, i, create: true) }, nil)
        case ("POST", "/mutes/users/destroy"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.v1Mute(r, i, create: false) }, nil)
        case ("POST", "/media/upload"):
            return (Endpoint(limitKey: "POST /media/upload", allowBearer: false) { w, r, i in await w.v1Upload(r, i) }, nil)
        case ("POST", "/media/metadata/create"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.v1MediaMetadata(r, i) }, nil)
        case ("POST", "/statuses/update"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.update(r, i) }, nil)
        case ("POST", "/favorites/create"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.favorite(r, i, create: true) }, nil)
        case ("POST", "/favorites/destroy"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.favorite(r, i, create: false) }, nil)
        case ("POST", "/oauth/invalidate_token"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, _, i in await w.invalidateAccessToken(i) }, nil)
        case ("GET", "/statuses/sample"), ("POST", "/statuses/filter"), ("GET", "/statuses/filter"), ("GET", "/user"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await StreamRoutes.open(r, i, world: w) }, nil)
        default: break
        }
        if method == "GET", let id = idAfter("/statuses/show/") {
            return (
                Endpoint(limitKey: "/statuses/show/:id", allowBearer: true) { (w, r, i) throws(SimResponse) in
                    try await w.show(r, i, id: id)
                }, id
            )
        }
        if method == "POST", let id = idAfter("/statuses/retweet/") {
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.retweet(r, i, id: id) }, id)
        }
        if method == "POST", let id = idAfter("/statuses/unretweet/") {
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.unretweet(r, i, id: id) }, id)
        }
        if method == "POST", let id = idAfter("/statuses/destroy/") {
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.destroy(r, i, id: id) }, id)
        }
        return nil
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
