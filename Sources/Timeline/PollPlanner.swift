import TwitterAPI

/// When to poll an endpoint, from what its rate-limit window says: never faster than the window
/// allows (home: 15 per 15 minutes → 60 s), slower as the remaining budget falls, nothing until
/// the reset once it is spent, and the budget split between timelines that use the endpoint.
public enum PollPlanner {
    /// Seconds until the next poll.
    ///
    /// - Parameters:
    ///   - window: the last window seen, or nil before the first answer.
    ///   - windowSeconds: the window's length (Twitter's is 900).
    ///   - defaultLimit: the limit to assume before any answer.
    ///   - sharers: timelines polling the same endpoint.
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

    /// A manual refresh: at once when the budget allows, otherwise when and why not.
    public enum Refresh: Equatable, Sendable {
        case now
        case wait(seconds: Int, message: String)
    }

    public static func manualRefresh(window: RateLimit?, now: Int64) -> Refresh {
        guard let w = window, w.remaining <= 0, w.reset > now else { return .now }
        let s = Int(Checked.secondsBetween(now, w.reset))
        return .wait(seconds: s, message: "rate limited, next refresh in \(s) s")
    }
}
