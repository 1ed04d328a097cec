/// Consuming faults and rate-limit tokens.
extension World {
    /// The status to answer instead, if a status fault covers this path.
    func takeStatusFault(path: String, query: String = "") -> Int? {
        guard
            let i = faults.statusFaults.firstIndex(where: {
                path.hasPrefix($0.path) && $0.count > 0 && ($0.query.map { query.contains($0) } ?? true)
            })
        else { return nil }
        faults.statusFaults[i].count -= 1
        let status = faults.statusFaults[i].status
        if faults.statusFaults[i].count == 0 { faults.statusFaults.remove(at: i) }
        return status
    }

    func takeReset(path: String) -> Bool {
        guard let i = faults.resets.firstIndex(where: { path.hasPrefix($0.path) && $0.count > 0 }) else { return false }
        faults.resets[i].count -= 1
        if faults.resets[i].count == 0 { faults.resets.remove(at: i) }
        return true
    }

    func takeRateLimit(_ identity: Identity, endpoint: String) -> (RateLimiter.Window, Bool) {
        var isApp = false
        if case .app = identity { isApp = true }
        return limits.take(
            key: identity.limitKey, endpoint: endpoint, app: isApp, now: now, windowSeconds: config.rateLimitWindowSeconds)
    }

    func setFaults(_ plan: FaultPlan) { faults = plan }
    /// At most ten years either way: the clock stays a time the simulator can write.
    func setClockOffset(_ seconds: Int64) { clockOffset = min(max(seconds, -315_360_000), 315_360_000) }
    func resetRateLimits() { limits.resetAll() }
}
