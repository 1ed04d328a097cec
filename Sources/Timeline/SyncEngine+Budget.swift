import Foundation
import TwitterAPI

/// The day's spending limit on pay-per-use access, as it slows and stops polling.
extension SyncEngine {
    /// When today's budget is spent, the end of the UTC day; nil while there is budget left.
    nonisolated func budgetSpentUntil() -> Double? {
        guard let l = options.ledger, l.budgetPerDay != nil, l.budgetFraction >= 1 else { return nil }
        return l.endOfDay()
    }

    /// How much longer than planned to wait between polls as the budget is used: from 75% of
    /// it the wait grows steadily, to ten times at 100%.
    public nonisolated static func budgetSlowdown(_ fraction: Double) -> Double {
        fraction <= 0.75 ? 1 : 1 + min(1, (fraction - 0.75) / 0.25) * 9
    }

    nonisolated var budgetWords: String {
        guard let l = options.ledger, let b = l.budgetPerDay else { return "" }
        return Self.budgetSpentWords(budget: b, spent: l.todayCost)
    }

    public nonisolated static func budgetSpentWords(budget: Double, spent: Double) -> String {
        "Today's budget of \(UsageFormat.dollars(budget)) is spent (≈ \(UsageFormat.dollars(spent))): polling stops until 00:00 UTC. "
            + "Raise budget_per_day in config.toml to read more today."
    }
}
