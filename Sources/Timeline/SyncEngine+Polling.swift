import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

extension SyncEngine {
    // MARK: - Polling

    func startPolling(_ id: TimelineID) {
        guard pollers[id] == nil else { return }
        pollers[id] = Task { [weak self, clock = options.clock] in
            while !Task.isCancelled {
                guard let self else { return }
                let wait = await self.pollOnce(id)
                try? await clock.sleep(seconds: max(0.05, wait))
            }
        }
    }

    /// One poll; returns the seconds to wait before the next.
    func pollOnce(_ id: TimelineID) async -> Double {
        // The server no longer takes the sign-in: asking again cannot help until the user
        // logs in again (and restarts); the pane keeps saying so.
        if let why = signedOut {
            board.update(id) {
                $0.state = .idle
                $0.lastError = why
                $0.refused = true
            }
            return 3600
        }
        if let until = budgetSpentUntil() {
            board.update(id) {
                $0.state = .budgetSpent(until: until)
                $0.lastError = budgetWords
                $0.lastErrorAt = now()
            }
            return max(1, until - now())
        }
        lastPollAt[id] = now()
        let newest = await store.newest(id)
        if let unfinished = unfinishedCeiling.removeValue(forKey: id) {
            requestCatchUp(id, ceiling: unfinished.flatMap { u in newest.map { min(u, $0) } ?? u })
        } else {
            requestCatchUp(id, ceiling: newest)
        }
        await lanes[id]?.value
        let endpoint = self.endpoint(id)
        let sharers = opened.filter { self.endpoint($0) == endpoint && pollers[$0] != nil }.count
        var offline: Double?
        if case .offline(let retry, _) = board.status(id).state { offline = retry }
        let pace = RateSchedule.Pace(
            windowSeconds: options.windowSeconds, sharers: sharers, minimumSeconds: options.minimumPollSeconds, offlineUntil: offline,
            budgetFraction: options.ledger?.budgetFraction ?? 0)
        var wait = client.rateLimits.schedule.pollSeconds(endpoint, now: now(), pace: pace)
        wait = presenceWait(id, wait)
        let next = now() + wait
        board.update(id) {
            if case .offline = $0.state { return }
            $0.state = .polling(next: next)
        }
        return wait
    }
}
