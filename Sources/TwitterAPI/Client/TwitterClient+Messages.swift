import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Direct messages on either API: a page of the account's messages with the people in them,
/// and sending one. v1.1 reads `direct_messages/events/list` (by cursor, 50 a page) and names
/// people with `users/lookup`; v2 reads `/2/dm_events` (by token, 100 a page) with the senders
/// expanded and looks up only the people who have not written back.
extension TwitterClient {
    /// X's limit on one message, in characters.
    public static let messageLimit = 10_000

    /// A page of the account's messages, sent and received; `next` from the page before.
    public func messages(me: User, next: String? = nil) async throws -> MessagePage {
        var page = api == .v2 ? try await v2MessagePage(next: next) : try await v1MessagePage(next: next)
        var known = Set(page.users.map(\.id))
        known.insert(me.id)
        var wanted: [UserID] = []
        for m in page.messages {
            for id in [m.senderID, m.recipientID].compactMap({ $0 }) where known.insert(id).inserted { wanted.append(id) }
        }
        if !wanted.isEmpty { page.users += try await users(ids: wanted) }
        return page
    }

    /// Sends `text` to one person; the message as X keeps it.
    public func sendMessage(_ text: String, to recipient: UserID, me: User) async throws -> DirectMessage {
        if api == .v2 {
            let id = try await v2SendMessage(to: recipient, text: text)
            return DirectMessage(
                id: UInt64(id) ?? 0, senderID: me.id, recipientID: recipient, text: text,
                createdAtMs: Int64(Date().timeIntervalSince1970 * 1000))
        }
        let body = JSONValue.object([
            (
                "event",
                .object([
                    ("type", .string("message_create")),
                    (
                        "message_create",
                        .object([
                            ("target", .object([("recipient_id", .string(recipient.description))])),
                            ("message_data", .object([("text", .string(text))])),
                        ])
                    ),
                ])
            )
        ])
        let json = try JSONValue.parse(try await call("POST", "direct_messages/events/new", [], json: Data(body.serialized.utf8)))
        guard let event = json["event"], let m = Self.v1Message(event) else {
            throw DecodeError("the message was sent but the answer did not hold it")
        }
        return m
    }

    /// People by id, up to 100 a request; ids X does not know are left out.
    public func users(ids: [UserID]) async throws -> [User] {
        var out: [User] = []
        var rest = ids[...]
        while !rest.isEmpty {
            let chunk = rest.prefix(100)
            rest = rest.dropFirst(chunk.count)
            let list = chunk.map(\.description).joined(separator: ",")
            if api == .v2 {
                out += try await v2Users(ids: list)
            } else {
                do {
                    let json = try JSONValue.parse(try await call("GET", "users/lookup", [("user_id", list)]))
                    guard case .array(let items) = json else { throw DecodeError("users/lookup did not answer with a list") }
                    out += try items.map { try V1Decoder().user(from: Data($0.serialized.utf8)) }
                } catch let e as APIError where e.code == 17 {
                    continue  // none of them exist any more
                }
            }
        }
        return out
    }

    /// Up to 100 people by id (comma-separated), through v2; remembered as known.
    func v2Users(ids list: String) async throws -> [User] {
        let page = try V2Decoder().users(from: try await call("GET", "/2/users", [("ids", list)] + V2Query.users))
        knownUsers.remember(page.users)
        return page.users
    }

    static func v1Message(_ e: JSONValue) -> DirectMessage? {
        guard e["type"]?.stringValue == "message_create", let id = e["id"]?.stringValue.flatMap(UInt64.init),
            let create = e["message_create"], let sender = create["sender_id"]?.stringValue.flatMap(UInt64.init),
            let to = create["target"]?["recipient_id"]?.stringValue.flatMap(UInt64.init)
        else { return nil }
        let data = create["message_data"]
        var urls: [Entities.Link] = []
        if case .array(let items)? = data?["entities"]?["urls"] {
            for u in items {
                guard case .array(let ix)? = u["indices"], ix.count == 2, let a = ix[0].intValue, let b = ix[1].intValue, a <= b else {
                    continue
                }
                urls.append(
                    Entities.Link(
                        target: u["expanded_url"]?.stringValue ?? u["url"]?.stringValue ?? "", display: u["display_url"]?.stringValue ?? "",
                        range: Int(a)..<Int(b)))
            }
        }
        return DirectMessage(
            id: id, senderID: UserID(sender), recipientID: UserID(to), text: data?["text"]?.stringValue ?? "",
            createdAtMs: e["created_timestamp"]?.stringValue.flatMap(Int64.init) ?? 0, urls: urls)
    }

    private func v1MessagePage(next: String?) async throws -> MessagePage {
        var params = [("count", "50")]
        if let next { params.append(("cursor", next)) }
        let json = try JSONValue.parse(try await call("GET", "direct_messages/events/list", params))
        guard case .array(let events)? = json["events"] else { throw DecodeError("direct_messages/events/list had no events") }
        let cursor = json["next_cursor"]?.stringValue
        return MessagePage(messages: events.compactMap(Self.v1Message), users: [], next: cursor?.isEmpty == false ? cursor : nil)
    }

    private func v2MessagePage(next: String?) async throws -> MessagePage {
        var params = [
            ("max_results", "100"), ("event_types", "MessageCreate"),
            ("dm_event.fields", "id,text,sender_id,dm_conversation_id,created_at,event_type,entities"), ("expansions", "sender_id"),
        ]
        params += V2Query.users
        if let next { params.append(("pagination_token", next)) }
        let json = try JSONValue.parse(try await call("GET", "/2/dm_events", params))
        var users: [User] = []
        if let included = json["includes"]?["users"] {
            let page = try V2Decoder().users(from: Data(JSONValue.object([("data", included)]).serialized.utf8))
            users = page.users
        }
        var messages: [DirectMessage] = []
        if case .array(let items)? = json["data"] {
            for m in items {
                guard m["event_type"]?.stringValue ?? "MessageCreate" == "MessageCreate",
                    let id = m["id"]?.stringValue.flatMap(UInt64.init),
                    let sender = m["sender_id"]?.stringValue.flatMap(UInt64.init)
                else { continue }
                let conversation = m["dm_conversation_id"]?.stringValue ?? ""
                var dm = DirectMessage(
                    id: id, senderID: UserID(sender), recipientID: nil, conversation: conversation, text: m["text"]?.stringValue ?? "",
                    createdAtMs: (m["created_at"]?.stringValue.flatMap(TwitterDate.parseAny) ?? 0) * 1000)
                dm.recipientID = dm.other(than: UserID(sender))
                if case .array(let links)? = m["entities"]?["urls"] ?? m["urls"] {
                    dm.urls = links.compactMap { u in
                        guard let a = u["start"]?.intValue, let b = u["end"]?.intValue, a <= b else { return nil }
                        return Entities.Link(
                            target: u["expanded_url"]?.stringValue ?? u["url"]?.stringValue ?? "",
                            display: u["display_url"]?.stringValue ?? "", range: Int(a)..<Int(b))
                    }
                }
                messages.append(dm)
            }
        }
        return MessagePage(messages: messages, users: users, next: json["meta"]?["next_token"]?.stringValue)
    }
}
