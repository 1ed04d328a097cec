/// A page of `search/tweets` results.
public struct SearchResponse: Sendable {
    /// Paging data Twitter returns with each page.
    public struct Metadata: Equatable, Sendable {
        public var maxID: TweetID?
        public var sinceID: TweetID?
        /// Query string for newer results, e.g. `?since_id=…&q=…`.
        public var refreshURL: String?
        /// Query string for the next older page; nil on the last page.
        public var nextResults: String?
        public var count: Int?
        public var completedIn: Double?
        public var query: String?
        public init(
            maxID: TweetID? = nil, sinceID: TweetID? = nil, refreshURL: String? = nil, nextResults: String? = nil,
            count: Int? = nil, completedIn: Double? = nil, query: String? = nil
        ) {
            self.maxID = maxID
            self.sinceID = sinceID
            self.refreshURL = refreshURL
            self.nextResults = nextResults
            self.count = count
            self.completedIn = completedIn
            self.query = query
        }
    }

    public var statuses: [Tweet]
    public var metadata: Metadata?
    /// Tweets in the page that could not be read, with why.
    public var problems: [DecodeProblem]
}

/// A page of a timeline: the tweets read, and those skipped with the reason.
public struct TimelinePage: Sendable {
    public var tweets: [Tweet]
    public var problems: [DecodeProblem]
}

/// One item of a page that could not be turned into a model; the rest of the page stands.
public struct DecodeProblem: Equatable, Sendable, CustomStringConvertible {
    /// Position of the item in its array.
    public var index: Int
    public var reason: String
    public var description: String { "item \(index) skipped: \(reason)" }
}
