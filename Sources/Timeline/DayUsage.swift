import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// X's pay-per-use prices in US dollars per item (docs/X-LIMITS.md, with their source); config.toml's
/// `[prices]` overrides them.
public struct UsagePrices: Equatable, Sendable {
    public var postRead = 0.005
    public var ownedRead = 0.001
    public var userRead = 0.010
    public var postCreate = 0.015
    public var postCreateWithURL = 0.20
    public var delete = 0.010
    public var interaction = 0.015
    public init() {}

    /// The names config.toml uses, each with the field it sets.
    public static var names: [(String, WritableKeyPath<UsagePrices, Double>)] {
        [
            ("post_read", \.postRead), ("owned_read", \.ownedRead), ("user_read", \.userRead), ("post_create", \.postCreate),
            ("post_create_with_url", \.postCreateWithURL), ("delete", \.delete), ("interaction", \.interaction),
        ]
    }
}

/// What one UTC day was billed for, counted as X bills: a post or user read again the same day
/// is counted once.
public struct DayUsage: Codable, Equatable, Sendable {
    public var postReads = 0
    public var ownedReads = 0
    public var userReads = 0
    public var postsCreated = 0
    public var postsCreatedWithURL = 0
    public var postsDeleted = 0
    public var interactions = 0
    /// Calls not sent because they could have passed the day's budget (not billed).
    public var refusedCalls: Int?
    public init() {}

    public func cost(_ p: UsagePrices) -> Double {
        Double(postReads) * p.postRead + Double(ownedReads) * p.ownedRead + Double(userReads) * p.userRead
            + Double(postsCreated) * p.postCreate + Double(postsCreatedWithURL) * p.postCreateWithURL
            + Double(postsDeleted) * p.delete + Double(interactions) * p.interaction
    }

    /// Each count with its config.toml price name, for `linnet usage`.
    public func items(_ p: UsagePrices) -> [(name: String, count: Int, price: Double)] {
        [
            ("post_read", postReads, p.postRead), ("owned_read", ownedReads, p.ownedRead), ("user_read", userReads, p.userRead),
            ("post_create", postsCreated, p.postCreate), ("post_create_with_url", postsCreatedWithURL, p.postCreateWithURL),
            ("delete", postsDeleted, p.delete), ("interaction", interactions, p.interaction),
        ]
    }

    static func + (a: DayUsage, b: DayUsage) -> DayUsage {
        var s = a
        s.postReads += b.postReads
        s.ownedReads += b.ownedReads
        s.userReads += b.userReads
        s.postsCreated += b.postsCreated
        s.postsCreatedWithURL += b.postsCreatedWithURL
        s.postsDeleted += b.postsDeleted
        s.interactions += b.interactions
        if let r = b.refusedCalls { s.refusedCalls = (s.refusedCalls ?? 0) + r }
        return s
    }

    enum CodingKeys: String, CodingKey {
        case postReads = "post_reads"
        case ownedReads = "owned_reads"
        case userReads = "user_reads"
        case postsCreated = "posts_created"
        case postsCreatedWithURL = "posts_created_with_url"
        case postsDeleted = "posts_deleted"
        case interactions
        case refusedCalls = "refused_calls"
    }
}
