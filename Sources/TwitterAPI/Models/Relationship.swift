import FoundationEssentials

/// How the reader stands to a person.
public struct Relationship: Equatable, Sendable {
    public var following = false
    public var followedBy = false
    public var muting = false
    public var blocking = false
    public init(following: Bool = false, followedBy: Bool = false, muting: Bool = false, blocking: Bool = false) {
        self.following = following
        self.followedBy = followedBy
        self.muting = muting
        self.blocking = blocking
    }
}
