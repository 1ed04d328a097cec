import Foundation

/// Twitter's per-endpoint 15-minute windows, counted per user token or per app.
struct RateLimiter: Sendable {
    /// Limits per window: (user auth, app auth); nil means the endpoint refuses that auth.
    static let table: [String: (user: Int, app: Int?)] = [
        "/account/verify_credentials": (75, nil),
        "/statuses/home_timeline": (15, nil),
        "/statuses/mentions_timeline": (75, nil),
        "/statuses/user_timeline": (900, 1500),
        "/statuses/show/:id": (900, 900),
        "/search/tweets": (180, 450),
        "/users/show": (900, 900),
        "/application/rate_limit_status": (180, 180),
        "/favorites/list": (75, 75),
        "/mutes/users/ids": (15, nil),
        "/lists/list": (15, 15),
        "/direct_messages/events/list": (15, nil),
        "/users/lookup": (900, 300),
        "/2/users": (900, 300),
        "/friendships/show": (180, 15),
        "/followers/list": (15, 15),
        "/friends/list": (15, 15),
        "/2/users/:id/followers": (15, 15),
        "/2/users/:id/following": (15, 15),
        "/lists/statuses": (900, 900),
        // API v2 (docs/PROTOCOL-V2.md §2), per user and per app.
        "/2/users/me": (75, nil),
        "/2/users/:id/timelines/reverse_chronological": (180, nil),
        "/2/users/:id/mentions": (300, 450),
        "/2/users/:id/tweets": (900, 1500),
        "/2/tweets/search/recent": (300, 450),
        "/2/tweets": (900, 450),
        "/2/tweets/:id": (900, 450),
        "POST /2/tweets": (100, nil),
        "DELETE /2/tweets/:id": (50, nil),
        "POST /2/users/:id/likes": (50, nil),
        "DELETE /2/users/:id/likes/:tweet_id": (50, nil),
        "POST /2/users/:id/retweets": (50, nil),
        "DELETE /2/users/:id/retweets/:tweet_id": (50, nil),
        "/2/tweets/search/stream/rules": (450, 450),
        "POST /2/users/:id/following": (50, nil),
        "POST /2/media/upload": (500, nil),
        "/2/users/:id/owned_lists": (15, 15),
        "/2/users/:id/followed_lists": (15, 15),
        "/2/lists/:id/tweets": (900, 900),
        "/2/dm_events": (15, nil),
        "/2/dm_conversations/with/:participant_id/dm_events": (15, nil),
        "POST /2/dm_conversations/with/:participant_id/messages": (15, nil),
        "POST /2/media/upload/initialize": (1875, nil),
        "POST /2/media/upload/:id/append": (1875, nil),
        "POST /2/media/upload/:id/finalize": (1875, nil),
        "DELETE /2/users/:id/following/:target_user_id": (50, nil),
        "/2/users/:id/muting": (15, nil),
        "/2/users/:id/liked_tweets": (75, 75),
        "POST /2/users/:id/muting": (50, nil),
        "DELETE /2/users/:id/muting/:target_user_id": (50, nil),
        "/2/users/:id/bookmarks": (180, nil),
        "POST /2/users/:id/bookmarks": (50, nil),
        "DELETE /2/users/:id/bookmarks/:tweet_id": (50, nil),
        "POST /2/tweets/search/stream/rules": (450, 450),
    ]
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
        guard let entry = table[endpoint] else { return 15 }
        return app ? (entry.app ?? entry.user) : entry.user
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
