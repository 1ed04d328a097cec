/// A Twitter account as Linnet keeps it. One object per user id is shared by every tweet that
/// names it (the decoder interns them).
public final class User: Sendable, Equatable, CustomStringConvertible {
    public let id: UserID
    public let screenName: String
    public let name: String
    public let userDescription: String
    public let location: String
    /// The profile link, expanded when Twitter gave the expansion.
    public let url: String?
    public let isProtected: Bool
    public let isVerified: Bool
    public let followersCount: Int
    public let friendsCount: Int
    public let statusesCount: Int
    /// Unix seconds.
    public let createdAt: Int64?

    public init(
        id: UserID, screenName: String, name: String, userDescription: String = "", location: String = "",
        url: String? = nil, isProtected: Bool = false, isVerified: Bool = false, followersCount: Int = 0,
        friendsCount: Int = 0, statusesCount: Int = 0, createdAt: Int64? = nil
    ) {
        self.id = id
        self.screenName = screenName
        self.name = name
        self.userDescription = userDescription
        self.location = location
        self.url = url
        self.isProtected = isProtected
        self.isVerified = isVerified
        self.followersCount = followersCount
        self.friendsCount = friendsCount
        self.statusesCount = statusesCount
        self.createdAt = createdAt
    }

    public static func == (a: User, b: User) -> Bool {
        a === b
            || (a.id == b.id && a.screenName == b.screenName && a.name == b.name
                && a.userDescription == b.userDescription && a.location == b.location && a.url == b.url
                && a.isProtected == b.isProtected && a.isVerified == b.isVerified
                && a.followersCount == b.followersCount && a.friendsCount == b.friendsCount
                && a.statusesCount == b.statusesCount && a.createdAt == b.createdAt)
    }

    public var description: String { "@\(screenName) (\(id))" }
}
