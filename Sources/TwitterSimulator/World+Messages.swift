import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Direct messages on v1.1 (`direct_messages/events/list` by cursor, `events/new` with a JSON
/// body), new ones from the generated people while the simulator runs, and the ones tests send.
extension World {
    /// A message to the demo user from `from` (a random person when nil); returns its id.
    func injectMessage(from name: String?, text: String?) -> UInt64? {
        let me = credentials.userID
        let people = users.values.filter { $0.id != me }.sorted { $0.id < $1.id }
        guard !people.isEmpty else { return nil }
        let sender: SimUser
        if let name {
            guard let u = user(named: name), u.id != me else { return nil }
            sender = u
        } else {
            sender = rng.pick(people)
        }
        let lines = [
            "Did you see the flock by the river this morning?", "Sending you the photos tonight.", "Are we still on for Saturday?",
            "That thread was great, thanks for sharing it.", "Running late, ten minutes.", "おはよう！ Coffee later?",
        ]
        let m = SimMessage(id: nextID(), sender: sender.id, recipient: me, text: text ?? rng.pick(lines), createdAtMs: nowMillis)
        messages.append(m)
        return m.id
    }

    /// The messages of `uid`, newest first.
    func messagesOf(_ uid: UInt64) -> [SimMessage] {
        messages.filter { $0.sender == uid || $0.recipient == uid }.sorted { $0.id > $1.id }
    }

    func v1MessageJSON(_ m: SimMessage) -> J {
        let empty = J.array([])
        return .object([
            ("type", .string("message_create")), ("id", .string(String(m.id))), ("created_timestamp", .string(String(m.createdAtMs))),
            (
                "message_create",
                .object([
                    ("target", .object([("recipient_id", .string(String(m.recipient)))])), ("sender_id", .string(String(m.sender))),
                    (
                        "message_data",
                        .object([
                            ("text", .string(m.text)),
                            ("entities", .object([("hashtags", empty), ("symbols", empty), ("user_mentions", empty), ("urls", empty)])),
                        ])
                    ),
                ])
            ),
        ])
    }

    /// `GET /1.1/direct_messages/events/list.json`: newest first, `count` up to
    /// 50 (20 when not given), the next page named by `next_cursor`.
    func v1Messages(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let uid = identity.userID else { return .error(403, code: 220, "Your credentials do not allow access to this resource.") }
        var count = 20
        if let c = r.param("count") {
            guard let n = Int(c), n > 0 else { return .error(400, code: 44, "count parameter is invalid.") }
            count = min(n, 50)
        }
        var below = UInt64.max
        if let c = r.param("cursor"), !c.isEmpty {
            guard let v = UInt64(c) else { return .error(400, code: 44, "cursor parameter is invalid.") }
            below = v
        }
        // X keeps 30 days here; the simulator keeps every message, as its world is older.
        let all = messagesOf(uid).filter { $0.id < below }
        let page = all.prefix(count)
        var out: [(String, J)] = [("events", .array(page.map(v1MessageJSON)))]
        if all.count > count, let last = page.last { out.append(("next_cursor", .string(String(last.id)))) }
        return .json(200, .object(out))
    }

    /// `POST /1.1/direct_messages/events/new.json` with
    /// `{"event":{"type":"message_create","message_create":{"target":{"recipient_id"},"message_data":{"text"}}}}`.
    func v1SendMessage(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let uid = identity.userID else { return .error(403, code: 220, "Your credentials do not allow access to this resource.") }
        guard (r.headers["content-type"] ?? "").lowercased().hasPrefix("application/json"),
            let body = ContractValue.object(r.body),
            let event = body["event"] as? [String: Any], event["type"] as? String == "message_create",
            let create = event["message_create"] as? [String: Any],
            let target = (create["target"] as? [String: Any])?["recipient_id"] as? String,
            let text = (create["message_data"] as? [String: Any])?["text"] as? String
        else {
            return .error(400, code: 214, "event.message_create: a JSON body with a target recipient_id and message_data text is required.")
        }
        guard let to = UInt64(target), users[to] != nil, to != uid else {
            return .error(403, code: 349, "You cannot send messages to this user.")
        }
        if blocking[to]?.contains(uid) ?? false || blocking[uid]?.contains(to) ?? false {
            return .error(403, code: 349, "You cannot send messages to this user.")
        }
        guard !text.isEmpty else { return .error(400, code: 214, "event.message_create.message_data.text: the text is empty.") }
        guard text.count <= 10_000 else {
            return .error(403, code: 354, "The text of your direct message is over the max character limit.")
        }
        let m = SimMessage(id: nextID(), sender: uid, recipient: to, text: text, createdAtMs: nowMillis)
        messages.append(m)
        return .json(200, .object([("event", v1MessageJSON(m))]))
    }
}

/// Users by id, many at once: what a client needs to name the people in its messages.
extension World {
    private func idList(_ r: SimRequest, _ name: String) -> [UInt64]? {
        guard let text = r.param(name), !text.isEmpty else { return nil }
        let ids = text.split(separator: ",").map { UInt64($0.trimmed()) }
        guard ids.count <= 100, ids.allSatisfy({ $0 != nil }) else { return nil }
        return ids.compactMap { $0 }
    }

    /// `GET /1.1/users/lookup.json?user_id=1,2,3` (up to 100): the ones that exist, in any order.
    func v1UsersLookup(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let ids = idList(r, "user_id") else { return .error(400, code: 44, "user_id parameter is invalid.") }
        let found = ids.compactMap { users[$0] }
        guard !found.isEmpty else { return .error(404, code: 17, "No user matches for specified terms.") }
        let enc = TweetEncoder(world: snapshot, viewer: identity.userID, mode: .compat)
        return .json(200, .array(found.map { enc.user($0) }))
    }

    /// `GET /2/users?ids=1,2,3` (up to 100): the users, and a not-found error for each missing id.
    func v2UsersLookup(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let ids = idList(r, "ids") else {
            return Self.invalidRequest("ids", "The `ids` query parameter value must be 1 to 100 comma-separated user ids")
        }
        let enc = v2Encoder(r, viewer: identity.userID)
        let found = ids.compactMap { users[$0] }
        chargeUsers(found.map(\.id))
        var out: [(String, J)] = []
        if !found.isEmpty { out.append(("data", .array(found.map { enc.user($0) }))) }
        let missing = ids.filter { users[$0] == nil }
        if !missing.isEmpty {
            out.append(
                (
                    "errors",
                    .array(
                        missing.map { id in
                            .object([
                                ("value", .string(String(id))), ("detail", .string("Could not find user with ids: [\(id)].")),
                                ("title", .string("Not Found Error")), ("resource_type", .string("user")), ("parameter", .string("ids")),
                                ("resource_id", .string(String(id))),
                                ("type", .string("https://api.twitter.com/2/problems/resource-not-found")),
                            ])
                        })
                ))
        }
        return .json(200, .object(out))
    }
}
