import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The budget gate: what a call could cost, priced before it is sent, refused past
/// `budget_per_day`, and held while it runs.
extension UsageLedger {
    /// What a call could cost at most, from its worst case (ids unknown: each counted).
    public func price(_ worst: Billable) -> Double {
        let owned = worst.owner != nil && worst.owner == state.withLock { $0.me }
        var u = DayUsage()
        if owned { u.ownedReads = worst.posts.count } else { u.postReads = worst.posts.count }
        u.postReads += worst.includedPosts.count
        u.userReads = worst.users.count
        u.postsCreated = worst.creates
        u.postsCreatedWithURL = worst.createsWithURL
        u.postsDeleted = worst.deletes
        u.interactions = worst.interactions
        return u.cost(prices)
    }

    /// The budget gate (every call the client sends asks it): a call whose worst case would take
    /// today's spending past `budget_per_day` is not sent, and is counted as refused.
    public func admit(_ worst: Billable) -> String? {
        guard let budget = budgetPerDay else { return nil }
        let cost = price(worst)
        let spent = todayCost
        let day = Self.day(clock.now())
        // Held against the budget with what other calls in flight hold, under one lock.
        let admitted = state.withLock { s -> Bool in
            guard cost > 0, spent + s.held + cost > budget + 1e-9 else {
                s.held += cost
                return true
            }
            var w = s.pending[day] ?? DayUsage()
            w.refusedCalls = (w.refusedCalls ?? 0) + 1
            s.pending[day] = w
            s.dirty = true
            return false
        }
        if admitted { return nil }
        return "Not sent: it could cost up to \(UsageFormat.dollars(cost)), and today's budget of \(UsageFormat.dollars(budget)) has "
            + "\(UsageFormat.dollars(max(0, budget - spent))) left. Reads resume at 00:00 UTC, or raise \(budgetSource)."
    }

    public func settle(_ worst: Billable) {
        let cost = price(worst)
        state.withLock { $0.held = max(0, $0.held - cost) }
    }

    /// How many posts, each priced as `perPost` (one post of a page at its worst), today's
    /// budget still pays for; nil without a budget.
    public func affordablePosts(_ perPost: Billable) -> Int? {
        guard let budget = budgetPerDay else { return nil }
        let each = price(perPost)
        guard each > 0 else { return 1_000 }
        let held = state.withLock { $0.held }
        // Bounded before it becomes an Int: a tiny price or an endless budget must not trap.
        let n = ((budget - todayCost - held) / each + 1e-9).rounded(.down)
        return n.isFinite ? Int(max(0, min(1_000, n))) : (n > 0 ? 1_000 : 0)
    }
}
