import TwitterAPI

/// One conversation: its messages oldest first, the person in it, and how far it was read.
public struct Conversation: Equatable, Sendable {
    public var id: String
    /// The other person; nil in a group conversation.
    public var other: UserID?
    public var messages: [DirectMessage] = []
    /// The newest message read; those after it from the other side are unread.
    public var lastRead: UInt64 = 0

    public var newest: DirectMessage? { messages.last }

    /// Messages from the other side after the last read one.
    public func unread(me: UserID) -> Int {
        var n = 0
        for m in messages.reversed() {
            if m.id <= lastRead { break }
            if m.senderID != me { n += 1 }
        }
        return n
    }
}

/// The account's direct messages as the panes show them: conversations newest first, the
/// people they name, and where the next older page begins.
public struct Mailbox: Equatable, Sendable {
    public var me: UserID?
    public private(set) var conversations: [Conversation] = []
    public var users: [UserID: User] = [:]
    /// The cursor of the next older page; nil when everything was read or nothing yet.
    public var older: String?
    /// Whether a page was ever read (an empty inbox is then really empty).
    public var loaded = false
    /// Messages kept per conversation, the newest.
    public static let keepPerConversation = 500

    public init(me: UserID? = nil) { self.me = me }

    public var unread: Int { me.map { me in conversations.reduce(0) { $0 + $1.unread(me: me) } } ?? 0 }

    public func conversation(_ id: String) -> Conversation? { conversations.first { $0.id == id } }

    /// Adds messages (any order, any page); ones held already are kept once. Returns the ones
    /// that were new and came from someone else.
    @discardableResult
    public mutating func merge(_ messages: [DirectMessage], users: [User]) -> [DirectMessage] {
        for u in users { self.users[u.id] = u }
        var incoming: [DirectMessage] = []
        var index = Dictionary(uniqueKeysWithValues: conversations.enumerated().map { ($1.id, $0) })
        for m in messages {
            let i: Int
            if let found = index[m.conversation] {
                i = found
            } else {
                conversations.append(Conversation(id: m.conversation, other: me.flatMap { m.other(than: $0) }))
                i = conversations.count - 1
                index[m.conversation] = i
            }
            var c = conversations[i]
            // Most pages are newer than all held, or older than all held: a binary search finds
            // the place either way.
            var lo = 0
            var hi = c.messages.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if c.messages[mid].id < m.id { lo = mid + 1 } else { hi = mid }
            }
            if lo < c.messages.count, c.messages[lo].id == m.id { continue }
            c.messages.insert(m, at: lo)
            if c.messages.count > Self.keepPerConversation { c.messages.removeFirst(c.messages.count - Self.keepPerConversation) }
            conversations[i] = c
            if m.senderID != me { incoming.append(m) }
        }
        conversations.sort { ($0.newest?.id ?? 0) > ($1.newest?.id ?? 0) }
        return incoming
    }

    /// Marks a conversation read up to its newest message; false when nothing changed.
    @discardableResult
    public mutating func markRead(_ id: String) -> Bool {
        guard let i = conversations.firstIndex(where: { $0.id == id }), let newest = conversations[i].newest?.id,
            conversations[i].lastRead < newest
        else { return false }
        conversations[i].lastRead = newest
        return true
    }

    /// Sets where each conversation was read to (from the cache).
    public mutating func setRead(_ marks: [String: UInt64]) {
        for i in conversations.indices {
            if let m = marks[conversations[i].id] { conversations[i].lastRead = max(conversations[i].lastRead, m) }
        }
    }

    /// The person to write to in a conversation, if it has one.
    public func person(_ id: String) -> User? { conversation(id)?.other.flatMap { users[$0] } }

    /// The conversation with a person, named as X names it.
    public static func conversationID(_ a: UserID, _ b: UserID) -> String {
        "\(min(a.rawValue, b.rawValue))-\(max(a.rawValue, b.rawValue))"
    }
}
