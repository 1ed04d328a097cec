/// One endpoint's rate-limit window.
public struct RateLimit: Equatable, Sendable {
    public var limit: Int
    public var remaining: Int
    /// Unix seconds when the window resets.
    public var reset: Int64
    public init(limit: Int, remaining: Int, reset: Int64) {
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
    }
}

/// The body of `application/rate_limit_status`.
public struct RateLimitStatus: Equatable, Sendable {
    /// Which credentials the limits belong to. The token itself is never kept.
    public enum Context: Equatable, Sendable {
        case user
        case application
        case unknown
    }

    public var context: Context
    /// Family (`statuses`) → endpoint (`/statuses/home_timeline`) → window.
    public var resources: [String: [String: RateLimit]]

    /// The window for an endpoint such as `/statuses/home_timeline`, in any family.
    public func limit(for endpoint: String) -> RateLimit? {
        for (_, endpoints) in resources {
            if let l = endpoints[endpoint] { return l }
        }
        return nil
    }
}
