import Synchronization

/// What the last answers said about each endpoint's rate-limit window, for the scheduler.
public final class RateLimitBook: Sendable {
    private let windows = Mutex<[String: RateLimit]>([:])

    public init() {}

    /// Records the `x-rate-limit-*` headers of an answer for `endpoint` (`/statuses/home_timeline`).
    public func record(endpoint: String, headers: [String: String], status: Int) {
        guard let limit = headers["x-rate-limit-limit"].flatMap(Int.init),
            let remaining = headers["x-rate-limit-remaining"].flatMap(Int.init),
            let reset = headers["x-rate-limit-reset"].flatMap(Int64.init)
        else { return }
        windows.withLock { $0[endpoint] = RateLimit(limit: limit, remaining: status == 429 ? 0 : remaining, reset: reset) }
    }

    /// The window last seen for an endpoint.
    public func window(for endpoint: String) -> RateLimit? { windows.withLock { $0[endpoint] } }

    /// Every endpoint seen.
    public var all: [String: RateLimit] { windows.withLock { $0 } }
}
