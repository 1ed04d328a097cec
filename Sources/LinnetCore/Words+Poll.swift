import TwitterAPI

/// A poll on a card: each choice with its share, then the votes and the time left.
extension Words {
    /// `▪ Tabs  ██████░░░░  62% · 1.2K` (no share before anyone voted).
    public static func pollChoice(_ label: String, votes: Int, total: Int) -> String {
        guard total > 0 else { return "▪ \(label)" }
        let share = Double(votes) / Double(total)
        let filled = Int((share * 10).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 10 - filled)
        return "▪ \(label)  \(bar) \(Int((share * 100).rounded()))% · \(Format.count(votes))"
    }

    /// `Poll · 1,204 votes · 3 h 5 min left`, or `· final results` once voting ended.
    public static func pollFooter(_ poll: Poll, now: Double) -> String {
        let votes = poll.totalVotes == 1 ? "1 vote" : "\(Format.count(poll.totalVotes)) votes"
        if poll.isClosed || (poll.endsAt.map { Double($0) <= now } ?? false) { return "Poll · \(votes) · final results" }
        guard let ends = poll.endsAt else { return "Poll · \(votes)" }
        // To the minute: a card is redrawn when this changes, not every second.
        let left = Double(ends) - now
        let minutes = left - left.truncatingRemainder(dividingBy: 60)
        return "Poll · \(votes) · " + (left < 60 ? "under a minute left" : "\(Format.wait(minutes)) left")
    }
}
