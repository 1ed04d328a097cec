/// Faults the simulator injects, set by command-line flags or `POST /_sim/faults`.
public struct FaultPlan: Sendable, Codable, Equatable {
    /// Answer the next `count` requests whose path starts with `path` with `status`.
    public struct StatusFault: Sendable, Codable, Equatable {
        public var path: String
        public var status: Int
        public var count: Int
        public init(path: String, status: Int, count: Int) {
            self.path = path
            self.status = status
            self.count = count
        }
    }

    /// Close each stream after this many messages (tweets, deletes and notices; not keep-alives).
    public var dropStreamAfterMessages: Int?
    /// The next stream connection goes silent (no bytes, no keep-alives) for this long, after
    /// `stallAfterMessages` messages, then carries on.
    public var stallStreamSeconds: Double?
    public var stallAfterMessages = 0
    public var statusFaults: [StatusFault] = []
    /// Extra delay before every answer, in milliseconds.
    public var delayMilliseconds = 0
    /// The next stream message goes out as a broken frame (a bad length line, or garbage).
    public var malformedFrames = 0
    /// The next stream message goes out cut in half (correctly framed).
    public var truncatedMessages = 0
    /// The next `count` requests to `path` lose their connection halfway through the answer.
    public var resets: [StatusFault] = []

    public init() {}
}
