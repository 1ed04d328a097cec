import FoundationEssentials

/// A person, and how the reader stands to them.
public struct Profile: Equatable, Sendable {
    public var user: User
    /// How the account stands to them; nil for the account itself or an app-only reader.
    public var relationship: Relationship?
    /// Their picture on X's media server (`…_normal.jpg`), when the answer gave one.
    public var imageURL: String?
    public init(user: User, relationship: Relationship?, imageURL: String? = nil) {
        self.user = user
        self.relationship = relationship
        self.imageURL = imageURL
    }
}
