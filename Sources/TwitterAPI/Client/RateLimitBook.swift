import FoundationEssentials
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// The client's rate-limit schedule, fed as answers arrive: the one place what the server said
/// about its windows and refusals is kept. Thread-safe.
public final class RateLimitBook: Sendable {
    private let state = Locked(RateSchedule())
    private let clock: any WallClock

    public init(clock: any WallClock = SystemClock()) { self.clock = clock }

    /// Records the `x-rate-limit-*` headers of an answer for `endpoint` (`/statuses/home_timeline`).
    public func record(endpoint: String, headers: [String: String], status: Int) {
        let now = Int64(clock.now())
        guard let limit = Checked.count(headers["x-rate-limit-limit"]),
            let remaining = Checked.count(headers["x-rate-limit-remaining"]),
            let reset = Checked.resetTime(headers["x-rate-limit-reset"], now: now)
        else { return }
        apply(.answered(endpoint: endpoint, window: RateLimit(limit: limit, remaining: remaining, reset: reset), status: status))
    }

    public func apply(_ event: RateSchedule.Event) { state.withLock { $0.apply(event) } }

    /// The schedule as it stands.
    public var schedule: RateSchedule { state.withLock { $0 } }

    /// The window last seen for an endpoint.
    public func window(for endpoint: String) -> RateLimit? { schedule.windows[endpoint] }

    /// Every endpoint seen.
    public var all: [String: RateLimit] { schedule.windows }
}
