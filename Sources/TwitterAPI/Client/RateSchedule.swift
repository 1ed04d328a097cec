/// When each endpoint may be asked again, as one value: events in (an answer's rate-limit
/// headers, a 429 with or without a time to retry, a backoff waited out), decisions out (send
/// now, or wait until a time and why; how long between polls; what a refresh key gets). Pure:
/// time is always given, never read, so it is tested on a manual clock.
public struct RateSchedule: Sendable, Equatable {
    /// The window each endpoint's last answer described.
    public private(set) var windows: [String: RateLimit] = [:]
    /// Endpoints refused with a 429 (or 420), until a time in server seconds.
    public private(set) var refusals: [String: Refusal] = [:]

    public struct Refusal: Sendable, Equatable {
        public var until: Double
        /// The answer named no time: the wait is Linnet's own (a scaled test clock may shorten
        /// it); a time the server named never is.
        public var ownBackoff: Bool
    }

    /// Linnet's own wait after a 429 that named no time.
    public static let backoffSeconds = 60.0

    public enum Event: Sendable, Equatable {
        /// An answer's `x-rate-limit-*` headers (a 429's window is spent whatever it says).
        case answered(endpoint: String, window: RateLimit, status: Int)
        /// A 429 or 420 at `now`, with the time the server named, if any.
        case refused(endpoint: String, retryAt: Int64?, now: Double)
        /// A wait of Linnet's own for the endpoint ended at `until`.
        case served(endpoint: String, until: Double)
    }

    public enum Reason: Sendable, Equatable {
        /// The last answer said the window is spent.
        case windowSpent
        /// The server refused with a 429 and named when to come back.
        case refused
        /// The server refused and named no time: Linnet's own backoff.
        case backoff
    }

    public enum Decision: Sendable, Equatable {
        case send
        case wait(until: Double, reason: Reason)
    }

    /// A refresh key: at once when the window allows, otherwise when and why not.
    public enum Refresh: Equatable, Sendable {
        case now
        case wait(seconds: Int, message: String)
    }

    public init() {}

    public mutating func apply(_ event: Event) {
        switch event {
        case .answered(let endpoint, var window, let status):
            if status == 429 { window.remaining = 0 }
            windows[endpoint] = window
        case .refused(let endpoint, let retryAt, let now):
            let until = retryAt.map(Double.init) ?? now + Self.backoffSeconds
            guard until > refusals[endpoint]?.until ?? 0 else { return }
            refusals[endpoint] = Refusal(until: until, ownBackoff: retryAt == nil)
        case .served(let endpoint, let until):
            // Only the wait that was served: a later refusal stays.
            if refusals[endpoint]?.until == until { refusals[endpoint] = nil }
        }
    }

    /// Whether a request may go now: the later of a refusal and a spent window holds it.
    public func gate(_ endpoint: String, now: Double) -> Decision {
        var decision = Decision.send
        var until = now
        if let r = refusals[endpoint], r.until > now {
            (until, decision) = (r.until, .wait(until: r.until, reason: r.ownBackoff ? .backoff : .refused))
        }
        if let w = windows[endpoint], w.remaining <= 0, Double(w.reset) > until {
            decision = .wait(until: Double(w.reset), reason: .windowSpent)
        }
        return decision
    }

    /// Until when a 429 holds the endpoint, if one does.
    public func refusedUntil(_ endpoint: String) -> Double? { refusals[endpoint]?.until }

    /// The limit per window to assume before the first answer: X's table (docs/X-LIMITS.md).
    public static func defaultLimit(_ endpoint: String) -> Int {
        XLimits.perWindow[endpoint].flatMap { $0.user ?? $0.app } ?? 15
    }

    /// How a poller paces itself beyond the window: the shortest wait allowed, when the
    /// network may be tried again, how much of the day's budget is gone.
    public struct Pace: Sendable, Equatable {
        public var windowSeconds: Double
        public var sharers: Int
        public var minimumSeconds: Double
        public var offlineUntil: Double?
        public var budgetFraction: Double
        public init(
            windowSeconds: Double = 900, sharers: Int = 1, minimumSeconds: Double = 0, offlineUntil: Double? = nil,
            budgetFraction: Double = 0
        ) {
            self.windowSeconds = windowSeconds
            self.sharers = sharers
            self.minimumSeconds = minimumSeconds
            self.offlineUntil = offlineUntil
            self.budgetFraction = budgetFraction
        }
    }

    /// Seconds until the next poll of an endpoint: the window's pace (shared between the
    /// timelines that poll it), no sooner than the minimum, the network's retry or a 429's time,
    /// and slower as the budget is used.
    public func pollSeconds(_ endpoint: String, now: Double, pace: Pace) -> Double {
        var wait = Self.interval(
            window: windows[endpoint], now: Int64(now), windowSeconds: pace.windowSeconds, defaultLimit: Self.defaultLimit(endpoint),
            sharers: pace.sharers)
        wait = max(wait, pace.minimumSeconds)
        if let offline = pace.offlineUntil { wait = max(1, offline - now) }
        if case .wait(let until, _) = gate(endpoint, now: now) { wait = max(wait, until - now) }
        return wait * Self.budgetSlowdown(pace.budgetFraction)
    }

    /// A refresh key's answer: a 429's time first, then a spent window.
    public func refresh(_ endpoint: String, now: Double) -> Refresh {
        if let until = refusedUntil(endpoint), until > now {
            let s = Int((until - now).rounded(.up))
            return .wait(seconds: s, message: "rate limited, next refresh in \(s) s")
        }
        return Self.manualRefresh(window: windows[endpoint], now: Int64(now))
    }

    /// Seconds between polls from a window alone: never faster than the window allows (home:
    /// 15 per 15 minutes → 60 s), slower as what remains falls, nothing until the reset once it
    /// is spent, split between the timelines that share the endpoint.
    public static func interval(
        window: RateLimit?, now: Int64, windowSeconds: Double = 900, defaultLimit: Int = 15, sharers: Int = 1
    ) -> Double {
        let share = Double(max(1, sharers))
        let limit = Double(max(1, window?.limit ?? defaultLimit))
        let steady = windowSeconds / limit * share
        guard let w = window else { return steady }
        let untilReset = Double(max(0, Checked.secondsBetween(now, w.reset)))
        guard w.remaining > 0 else { return max(1, untilReset) }
        // Spread what is left over the rest of the window, never faster than the steady pace.
        return max(steady, untilReset / Double(max(1, w.remaining)) * share)
    }

    public static func manualRefresh(window: RateLimit?, now: Int64) -> Refresh {
        guard let w = window, w.remaining <= 0, w.reset > now else { return .now }
        let s = Int(Checked.secondsBetween(now, w.reset))
        return .wait(seconds: s, message: "rate limited, next refresh in \(s) s")
    }

    /// How much longer than planned to wait between polls as the budget is used: from 75% of
    /// it the wait grows steadily, to ten times at 100%.
    public static func budgetSlowdown(_ fraction: Double) -> Double {
        fraction <= 0.75 ? 1 : 1 + min(1, (fraction - 0.75) / 0.25) * 9
    }
}
