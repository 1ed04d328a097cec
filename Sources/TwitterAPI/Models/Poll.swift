/// A post's poll (X API v2 `includes.polls`): its choices with their votes, and when voting
/// ends or ended.
public struct Poll: Sendable, Equatable {
    public struct Choice: Sendable, Equatable {
        public var label: String
        public var votes: Int
        public init(label: String, votes: Int) {
            self.label = label
            self.votes = votes
        }
    }

    public var choices: [Choice]
    /// When voting ends (seconds since 1970), when X said.
    public var endsAt: Int64?
    public var durationMinutes: Int?
    /// X said voting is closed (`voting_status`).
    public var isClosed: Bool

    public init(choices: [Choice], endsAt: Int64? = nil, durationMinutes: Int? = nil, isClosed: Bool = false) {
        self.choices = choices
        self.endsAt = endsAt
        self.durationMinutes = durationMinutes
        self.isClosed = isClosed
    }

    /// All the votes (saturating: a damaged count cannot trap a frame).
    public var totalVotes: Int {
        choices.reduce(0) { sum, c in
            let (total, over) = sum.addingReportingOverflow(max(0, c.votes))
            return over ? Int.max : total
        }
    }

    /// X allows 2 to 4 choices of 25 characters; more than this is not a poll X sends.
    public static let maxChoices = 4
}
