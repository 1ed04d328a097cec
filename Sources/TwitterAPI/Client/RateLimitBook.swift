import FoundationEssentials
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// What the last answers said about each endpoint's rate-limit window, for the scheduler.
public final class RateLimitBook: Sendable {
    private let windows = Locked<[String: RateLimit]>([:])
    private let clock: any WallClock

    public init(clock: any WallClock = SystemClock()) { self.clock = clock }

    /// Records the `x-rate-limit-*` headers of an answer for `endpoint` (`/statuses/home_timeline`).
    public func record(endpoint: String, headers: [String: String], status: Int) {
        let now = Int64(clock.now())
        guard let limit = Checked.count(headers["x-rate-limit-limit"]),
            let remaining = Checked.count(headers["x-rate-limit-remaining"]),
            let reset = Checked.resetTime(headers["x-rate-limit-reset"], now: now)
        else { return }
        windows.withLock { $0[endpoint] = RateLimit(limit: limit, remaining: status == 429 ? 0 : remaining, reset: reset) }
    }

    /// The window last seen for an endpoint.
    public func window(for endpoint: String) -> RateLimit? { windows.withLock { $0[endpoint] } }

    /// Every endpoint seen.
    public var all: [String: RateLimit] { windows.withLock { $0 } }
}
