import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The day's spending limit on pay-per-use access, as it slows and stops polling.
extension SyncEngine {
    /// When today's budget is spent, the end of the UTC day; nil while there is budget left.
    /// The budget counts as spent once not even one post and its author fit in what is left:
    /// the gate would refuse any page.
    nonisolated func budgetSpentUntil() -> Double? {
        guard let l = options.ledger, l.budgetPerDay != nil,
            l.budgetFraction >= 1 || (l.affordablePosts(TwitterClient.V2Query.perPost) ?? 1) < 1
        else {
            return nil
        }
        return l.endOfDay()
    }

    /// Posts a page may ask for so that the page, priced at its worst, fits today's budget.
    nonisolated func affordablePage(_ wanted: Int) -> Int {
        guard let left = options.ledger?.affordablePosts(TwitterClient.V2Query.perPost) else { return wanted }
        return max(1, min(wanted, left))
    }

    /// How much longer than planned to wait between polls as the budget is used: from 75% of
    /// it the wait grows steadily, to ten times at 100%.
    public nonisolated static func budgetSlowdown(_ fraction: Double) -> Double { RateSchedule.budgetSlowdown(fraction) }

    nonisolated var budgetWords: String {
        guard let l = options.ledger, let b = l.budgetPerDay else { return "" }
        return Self.budgetSpentWords(budget: b, spent: l.todayCost, source: l.budgetSource)
    }

    public nonisolated static func budgetSpentWords(budget: Double, spent: Double, source: String = "budget_per_day in config.toml")
        -> String
    {
        let state = spent >= budget ? "is spent" : "is all but spent (the next page could pass it)"
        return
            "Today's budget of \(UsageFormat.dollars(budget)) \(state) (≈ \(UsageFormat.dollars(spent))): polling stops until 00:00 UTC. "
            + "Raise \(source) to read more today."
    }
}
