import FoundationEssentials

/// A page of direct messages, with everyone they name.
public struct MessagePage: Equatable, Sendable {
    /// Newest first, as both APIs answer.
    public var messages: [DirectMessage]
    /// Everyone the messages name.
    public var users: [User]
    public var next: String?
    public init(messages: [DirectMessage], users: [User], next: String?) {
        self.messages = messages
        self.users = users
        self.next = next
    }
}
