import FoundationEssentials

/// A page of people and where the next begins (nil at the end).
public struct PeoplePage: Equatable, Sendable {
    public var users: [User]
    public var next: String?
    public init(users: [User], next: String?) {
        self.users = users
        self.next = next
    }
}
