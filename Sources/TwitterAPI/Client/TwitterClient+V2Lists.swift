import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// API v2 lists and direct messages.
extension TwitterClient {
    /// A list of accounts.
    public struct V2List: Equatable, Sendable {
        public var id: String
        public var name: String
        public var description: String
        public var memberCount: Int
        public var ownerID: UserID?
    }

    /// One direct message.
    public struct V2Message: Equatable, Sendable {
        public var id: String
        public var text: String
        public var senderID: UserID?
        public var conversationID: String
        /// Unix seconds.
        public var createdAt: Int64?
    }

    private static func lists(_ json: JSONValue) -> [V2List] {
        guard case .array(let items)? = json["data"] else { return [] }
        return items.compactMap { l in
            guard let id = l["id"]?.stringValue, let name = l["name"]?.stringValue else { return nil }
            return V2List(
                id: id, name: name, description: l["description"]?.stringValue ?? "", memberCount: Int(l["member_count"]?.intValue ?? 0),
                ownerID: l["owner_id"]?.stringValue.flatMap(UInt64.init).map(UserID.init))
        }
    }

    public func v2OwnedLists(userID: UserID) async throws -> [V2List] {
        Self.lists(
            try JSONValue.parse(
                try await call("GET", "/2/users/\(userID)/owned_lists", [("list.fields", "description,member_count,owner_id")])))
    }

    public func v2FollowedLists(userID: UserID) async throws -> [V2List] {
        Self.lists(
            try JSONValue.parse(
                try await call("GET", "/2/users/\(userID)/followed_lists", [("list.fields", "description,member_count,owner_id")])))
    }

    /// Posts by a list's members, newest first.
    public func v2ListPosts(listID: String, _ page: V2Page = V2Page()) async throws -> V2PostsPage {
        try await posts("/2/lists/\(listID)/tweets", page, tokenName: "pagination_token")
    }

    /// The user's direct messages, newest first; with `participant`, one conversation.
    public func v2Messages(with participant: UserID? = nil) async throws -> [V2Message] {
        let path = participant.map { "/2/dm_conversations/with/\($0)/dm_events" } ?? "/2/dm_events"
        let json = try JSONValue.parse(
            try await call("GET", path, [("dm_event.fields", "id,text,sender_id,dm_conversation_id,created_at,event_type")]))
        guard case .array(let items)? = json["data"] else { return [] }
        return items.compactMap { m in
            guard let id = m["id"]?.stringValue, m["event_type"]?.stringValue ?? "MessageCreate" == "MessageCreate" else { return nil }
            return V2Message(
                id: id, text: m["text"]?.stringValue ?? "", senderID: m["sender_id"]?.stringValue.flatMap(UInt64.init).map(UserID.init),
                conversationID: m["dm_conversation_id"]?.stringValue ?? "",
                createdAt: m["created_at"]?.stringValue.flatMap(TwitterDate.parseAny))
        }
    }

    /// Sends a direct message; returns its event id.
    public func v2SendMessage(to participant: UserID, text: String) async throws -> String {
        let body = JSONValue.object([("text", .string(text))])
        let json = try JSONValue.parse(
            try await call("POST", "/2/dm_conversations/with/\(participant)/messages", [], json: Data(body.serialized.utf8)))
        guard let id = json["data"]?["dm_event_id"]?.stringValue else {
            throw DecodeError("the message was sent but its id was not in the answer")
        }
        return id
    }
}
