import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Twitter's per-endpoint 15-minute windows, counted per user token or per app.
struct RateLimiter: Sendable {
    /// Limits per window: (user auth, app auth), from docs/X-LIMITS.md (X's documentation).
    static var table: [String: (user: Int?, app: Int?)] { SimLimits.perWindow }
    /// Families `rate_limit_status` lists, by the first path component.
    static func family(_ endpoint: String) -> String {
        String(endpoint.dropFirst().split(separator: "/").first ?? "")
    }

    struct Window: Sendable {
        var limit: Int
        var remaining: Int
        var reset: Int64
    }

    private var windows: [String: Window] = [:]

    /// The limit that applies to an endpoint for this kind of auth (15 for unlisted GETs).
    static func limit(_ endpoint: String, app: Bool) -> Int {
        guard let entry = SimLimits.perWindow[endpoint] else { return 15 }
        // An endpoint X lists for one kind of auth only is counted by that figure for both
        // (which auth it takes is the route's to say).
        return (app ? entry.app ?? entry.user : entry.user ?? entry.app) ?? 15
    }

    /// Counts one request; returns the window after it, and whether the request is allowed.
    mutating func take(key: String, endpoint: String, app: Bool, now: Int64, windowSeconds: Double) -> (Window, Bool) {
        let id = key + "|" + endpoint
        var w = current(id: id, endpoint: endpoint, app: app, now: now, windowSeconds: windowSeconds)
        guard w.remaining > 0 else {
            windows[id] = w
            return (w, false)
        }
        w.remaining -= 1
        windows[id] = w
        return (w, true)
    }

    /// The window as it stands, without counting.
    mutating func peek(key: String, endpoint: String, app: Bool, now: Int64, windowSeconds: Double) -> Window {
        current(id: key + "|" + endpoint, endpoint: endpoint, app: app, now: now, windowSeconds: windowSeconds)
    }

    private func current(id: String, endpoint: String, app: Bool, now: Int64, windowSeconds: Double) -> Window {
        if let w = windows[id], w.reset > now { return w }
        let limit = Self.limit(endpoint, app: app)
        return Window(limit: limit, remaining: limit, reset: now + Int64(max(1, windowSeconds.rounded(.up))))
    }

    mutating func resetAll() { windows.removeAll() }
}
