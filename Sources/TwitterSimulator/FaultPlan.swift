/// Faults the simulator injects, set by command-line flags or `POST /_sim/faults`.
public struct FaultPlan: Sendable, Codable, Equatable {
    /// Answer the next `count` requests whose path starts with `path` with `status`.
    public struct StatusFault: Sendable, Codable, Equatable {
        public var path: String
        public var status: Int
        public var count: Int
        /// Only requests whose query holds this text (`max_id=`: the pages after the first).
        public var query: String?
        public init(path: String, status: Int, count: Int, query: String? = nil) {
            self.path = path
            self.status = status
            self.count = count
            self.query = query
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

    private enum CodingKeys: String, CodingKey {
        case dropStreamAfterMessages, stallStreamSeconds, stallAfterMessages, statusFaults, delayMilliseconds
        case malformedFrames, truncatedMessages, resets
    }

    /// Every field is optional in JSON, so a test names only the faults it wants.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        dropStreamAfterMessages = try c.decodeIfPresent(Int.self, forKey: .dropStreamAfterMessages)
        // Values a test could not mean are clamped: an hour of stall, ten minutes of delay.
        stallStreamSeconds = try c.decodeIfPresent(Double.self, forKey: .stallStreamSeconds).map {
            $0.isFinite ? min(max(0, $0), 3600) : 3600
        }
        stallAfterMessages = try c.decodeIfPresent(Int.self, forKey: .stallAfterMessages) ?? 0
        statusFaults = try c.decodeIfPresent([StatusFault].self, forKey: .statusFaults) ?? []
        delayMilliseconds = min(max(0, try c.decodeIfPresent(Int.self, forKey: .delayMilliseconds) ?? 0), 600_000)
        malformedFrames = try c.decodeIfPresent(Int.self, forKey: .malformedFrames) ?? 0
        truncatedMessages = try c.decodeIfPresent(Int.self, forKey: .truncatedMessages) ?? 0
        resets = try c.decodeIfPresent([StatusFault].self, forKey: .resets) ?? []
    }
}

/// Waits the simulator takes from its flags and control routes, converted with checks.
enum SimClock {
    /// Nanoseconds for `Task.sleep`: negative and NaN are 0, anything over a day is a day.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return UInt64(min(seconds, 86_400) * 1e9)
    }
}
