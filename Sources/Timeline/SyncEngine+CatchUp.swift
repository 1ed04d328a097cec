import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

extension SyncEngine {
    // MARK: - Catching up

    /// Queues a catch-up; several asked for before it runs become one, from the lowest ceiling.
    func requestCatchUp(_ id: TimelineID, ceiling: TweetID?) {
        if let existing = pendingCatchUp[id] {
            switch (existing, ceiling) {
            case (nil, _): break
            case (_, nil): pendingCatchUp[id] = .some(nil)
            case (let a?, let b?): pendingCatchUp[id] = .some(min(a, b))
            }
        } else {
            pendingCatchUp[id] = .some(ceiling)
        }
        guard lanes[id] == nil else { return }
        lanes[id] = Task { [weak self] in
            while let self, let next = await self.takePending(id) {
                await self.catchUp(id, ceiling: next)
            }
        }
    }

    /// The next queued catch-up's ceiling (itself optional), or nil when none is queued.
    private func takePending(_ id: TimelineID) -> TweetID?? {
        guard let c = pendingCatchUp.removeValue(forKey: id), opened.contains(id) else {
            lanes[id] = nil
            return nil
        }
        return .some(c)
    }

    /// Fetches everything newer than a floor just below `ceiling` (the newest tweet held when
    /// the stream connected), page by page, then drops held tweets above the floor that the
    /// server no longer has. With nothing held, one page.
    func catchUp(_ id: TimelineID, ceiling: TweetID?) async {
        board.count { $0.catchUps += 1 }
        if board.status(id).state == .idle { board.update(id) { $0.state = .loading } }
        // Everything held now that a complete fetch does not return is gone from the server;
        // the floor comes from the lowest ceiling asked for, so merged catch-ups miss nothing.
        let top = await store.newest(id)
        let low = ceiling ?? top
        let floor: TweetID?
        if let low {
            if let ledger = options.ledger, face.billsReads {
                floor = await store.floor(id, below: low, depth: options.reconcileDepth) { ledger.readToday($0) }
            } else {
                floor = await store.floor(id, below: low, depth: options.reconcileDepth)
            }
        } else {
            floor = nil
        }
        var maxID: TweetID?
        var present = Set<TweetID>()
        var complete = false
        do {
            for page in 0..<(floor == nil ? 1 : options.maxCatchUpPages) {
                // Past the budget, what is fetched stays and the rest is left as a gap.
                if page > 0, budgetSpentUntil() != nil { break }
                let request = PageRequest(count: options.pageSize, sinceID: floor, maxID: maxID, marksGaps: pagesOlder(id))
                let asked = writes
                let (tweets, returned) = try await fetch(id, request)
                await store.merge(page: withSessionFlags(tweets, asked: asked), into: id, request: request)
                present.formUnion(tweets.map(\.id))
                if returned < options.pageSize {
                    complete = true
                    break
                }
                guard let oldest = tweets.map(\.id).min(), oldest.rawValue > 1 else { break }
                maxID = TweetID(oldest.rawValue - 1)
            }
            if complete, let floor, let top, Self.reconcilable(id) {
                let n = await store.reconcile(id, above: floor, upTo: top, present: present)
                board.count { $0.reconciled += n }
            }
            let settled = settledState(id)
            board.update(id) {
                $0.refused = false
                switch $0.state {
                case .loading, .rateLimited: $0.state = settled
                case .offline where self.pollers[id] != nil: $0.state = settled
                default: break
                }
            }
            retries[id] = nil
        } catch {
            if Task.isCancelled || (error as? TransportError) == .cancelled || !opened.contains(id) { return }
            if Self.signInRefused(error) {
                signedOut = Self.signedOutWords(error)
                fail(id, reason: signedOut ?? "", state: .idle, refused: true)
                return
            }
            let attempt = (retries[id] ?? 0) + 1
            retries[id] = attempt
            let delay = min(320, 5 * pow(2, Double(min(attempt, 7) - 1)))
            let retryAt = max(now() + delay, client.rateLimits.schedule.refusedUntil(endpoint(id)) ?? 0)
            fail(id, error, retry: retryAt)
            // A poller tries again on its own schedule, from this ceiling; a stream-fed timeline
            // must still catch up.
            if pollers[id] != nil {
                let earlier = unfinishedCeiling[id] ?? nil
                unfinishedCeiling[id] = .some(earlier.flatMap { e in low.map { min(e, $0) } } ?? low)
            } else {
                let wait = retryAt - now()
                Task { [weak self, clock = options.clock] in
                    try? await clock.sleep(seconds: wait)
                    await self?.requestCatchUp(id, ceiling: low)
                }
            }
        }
    }

    /// A refusal of the sign-in itself: 401 with Twitter's code 89 (invalid or expired token)
    /// or 32 (could not authenticate), or an OAuth 2.0 sign-in that could not be renewed.
    nonisolated static func signInRefused(_ error: any Error) -> Bool {
        if let e = error as? APIError { return e.httpStatus == 401 && (e.code == 89 || e.code == 32) }
        // (A renewal that worked but could not be saved is not one: the sign-in still works.)
        if let e = error as? AuthFlowError, case .refused(let why) = e { return why.contains("log in again") }
        return false
    }

    nonisolated static func signedOutWords(_ error: any Error) -> String {
        var why = Self.words(error)
        while why.hasSuffix(".") { why.removeLast() }
        if why.contains("log in again") { return why.prefix(1).uppercased() + why.dropFirst() + "." }
        return "The server refused the sign-in (\(why)): log in again with `linnet login`."
    }

    /// Whether older posts of a timeline can be asked for by id (a gap below a post filled).
    nonisolated func pagesOlder(_ id: TimelineID) -> Bool {
        switch id {
        case .likes, .list: return face.pagesLikesAndListsByID
        case .thread, .messages, .conversation: return false
        default: return true
        }
    }

    /// Pages the next older tweets below what is held (or below a gap).
    public func loadOlder(_ id: TimelineID, below: TweetID? = nil) async {
        // Likes and lists on v2 are read a newest page at a time, by token: nothing below a gap
        // can be asked for, so none is claimed filled.
        if below != nil, !pagesOlder(id) { return }
        var start = below
        if start == nil { start = await store.view(id).oldest }
        guard let oldest = start, oldest.rawValue > 1 else { return }
        board.update(id) { $0.loadingOlder = true }
        defer { board.update(id) { $0.loadingOlder = false } }
        let request = PageRequest(count: options.pageSize, maxID: TweetID(oldest.rawValue - 1))
        do {
            let asked = writes
            let (tweets, returned) = try await fetch(id, request)
            await store.merge(page: withSessionFlags(tweets, asked: asked), into: id, request: request)
            if returned == 0 && below == nil { board.update(id) { $0.reachedEnd = true } }
        } catch {
            fail(id, reason: Self.words(error), state: nil)
        }
    }

}
