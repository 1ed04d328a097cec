import FoundationEssentials

/// A person, and how the reader stands to them.
public struct Profile: Equatable, Sendable {
    public var user: User
    /// How the account stands to them; nil for the account itself or an app-only reader.
    public var relationship: Relationship?
    public init(user: User, relationship: Relationship?) {
        self.user = user
        self.relationship = relationship
    }
}
