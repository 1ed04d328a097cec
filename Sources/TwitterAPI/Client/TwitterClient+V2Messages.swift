import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Direct messages on X API v2.
extension TwitterClient {
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
