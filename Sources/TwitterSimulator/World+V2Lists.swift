import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// API v2 lists and direct messages over the same world. Lists are made from the generated
/// users when the world starts (the demo user owns two and follows one); messages start with a
/// few sent to the demo user and grow with what is sent.
extension World {
    struct SimList {
        var id: UInt64
        var owner: UInt64
        var name: String
        var description: String
        var members: [UInt64]
        var followers: [UInt64]
    }

    struct SimMessage {
        var id: UInt64
        var sender: UInt64
        var recipient: UInt64
        var text: String
        var createdAtMs: UInt64
        /// `smaller-larger` user ids, as X names one-to-one conversations.
        var conversation: String { "\(min(sender, recipient))-\(max(sender, recipient))" }
    }

    /// Lists and messages from the users, the same for the same world.
    static func makeListsAndMessages(userIDs: [UInt64], me: UInt64, newestMs: UInt64) -> ([SimList], [SimMessage]) {
        let others = userIDs.sorted().filter { $0 != me }
        guard others.count >= 4 else { return ([], []) }
        let base: UInt64 = 1_500_000_000_000_000_000
        let lists = [
            SimList(
                id: base + 1, owner: me, name: "Friends", description: "People I read first", members: Array(others.prefix(3)),
                followers: []),
            SimList(
                id: base + 2, owner: me, name: "Birds", description: "Birders", members: Array(others.dropFirst(3).prefix(2)), followers: []
            ),
            SimList(id: base + 3, owner: others[0], name: "Reading", description: "", members: Array(others.suffix(3)), followers: [me]),
        ]
        var messages: [SimMessage] = []
        var ms = newestMs - 3_600_000
        for (n, sender) in others.prefix(3).enumerated() {
            ms += 60_000
            messages.append(
                SimMessage(
                    id: base + 100 + UInt64(n), sender: sender, recipient: me,
                    text: ["Are you coming on Saturday?", "Saw a linnet today 🐦", "Thanks & see you"][n],
                    createdAtMs: ms))
        }
        return (lists, messages)
    }

    private func listJSON(_ l: SimList) -> J {
        .object([
            ("id", .string(String(l.id))), ("name", .string(l.name)), ("description", .string(l.description)),
            ("member_count", .int(Int64(l.members.count))), ("follower_count", .int(Int64(l.followers.count))),
            ("owner_id", .string(String(l.owner))), ("private", .bool(false)),
        ])
    }

    func v2Lists(_ r: SimRequest, _ identity: Identity, userID: String, followed: Bool) -> SimResponse {
        guard let uid = UInt64(userID), users[uid] != nil else {
            return Self.invalidRequest("id", "The `id` query parameter value [\(userID)] is not valid")
        }
        let found = lists.filter { followed ? $0.followers.contains(uid) : $0.owner == uid }
        var out: [(String, J)] = []
        if !found.isEmpty { out.append(("data", .array(found.map(listJSON)))) }
        // `expansions=owner_id`: the owners, as users.
        if (r.param("expansions") ?? "").split(separator: ",").contains("owner_id") {
            let enc = v2Encoder(r, viewer: identity.userID)
            var seen = Set<UInt64>()
            let owners = found.compactMap { l in seen.insert(l.owner).inserted ? users[l.owner] : nil }
            if !owners.isEmpty {
                chargeUsers(owners.map(\.id))
                out.append(("includes", .object([("users", .array(owners.map { enc.user($0) }))])))
            }
        }
        out.append(("meta", .object([("result_count", .int(Int64(found.count)))])))
        return .json(200, .object(out))
    }

    func v2ListPosts(_ r: SimRequest, _ identity: Identity, listID: String) throws(SimResponse) -> SimResponse {
        guard let v = UInt64(listID), let list = lists.first(where: { $0.id == v }) else {
            return Self.problem(
                404, "Not Found Error", "Could not find list with id: [\(listID)].",
                type: "https://api.twitter.com/2/problems/resource-not-found")
        }
        for name in ["since_id", "until_id"] where r.param(name) != nil {
            return Self.invalidRequest(
                name,
                "The query parameter [\(name)] is not one of [id,max_results,pagination_token,tweet.fields,expansions,media.fields,poll.fields,user.fields,place.fields]"
            )
        }
        let paging = try v2Paging(r, tokenName: "pagination_token", range: 1...100, defaultCount: 100)
        let members = Set(list.members)
        let posts = Array(liveTweetsNewestFirst().filter { members.contains($0.userID) }.prefix(800))
        return v2Page(posts, paging, r, viewer: identity.userID, tokenName: "pagination_token")
    }

    private func messageJSON(_ m: SimMessage) -> J {
        .object([
            ("id", .string(String(m.id))), ("event_type", .string("MessageCreate")), ("text", .string(m.text)),
            ("sender_id", .string(String(m.sender))), ("dm_conversation_id", .string(m.conversation)),
            ("created_at", .string(SimDate.iso(Int64(m.createdAtMs / 1000)))),
        ])
    }

    /// `GET /2/dm_events` (all of the user's) and `GET /2/dm_conversations/with/:id/dm_events`.
    func v2Messages(_ r: SimRequest, _ identity: Identity, with other: String?) throws(SimResponse) -> SimResponse {
        guard let uid = identity.userID else { return Self.v2Forbidden("Direct messages need a user's token.") }
        var found = messagesOf(uid)
        if let other {
            guard let o = UInt64(other) else { return Self.invalidRequest("participant_id", "The id [\(other)] is not valid") }
            found = found.filter { $0.sender == o || $0.recipient == o }
        }
        let paging = try v2Paging(r, tokenName: "pagination_token", range: 1...100, defaultCount: 100)
        let below = found.filter { $0.id < paging.below ?? .max }
        found = Array(below.prefix(paging.maxResults))
        var meta: [(String, J)] = [("result_count", .int(Int64(found.count)))]
        if below.count > found.count, let last = found.last { meta.append(("next_token", .string("p\(last.id)"))) }
        var out: [(String, J)] = []
        if !found.isEmpty { out.append(("data", .array(found.map(messageJSON)))) }
        out.append(("meta", .object(meta)))
        if (r.param("expansions") ?? "").contains("sender_id") {
            let senders = Set(found.map(\.sender)).sorted().compactMap { users[$0] }
            let enc = v2Encoder(r, viewer: uid)
            if !senders.isEmpty {
                out.insert(("includes", .object([("users", .array(senders.map { enc.user($0) }))])), at: found.isEmpty ? 0 : 1)
            }
        }
        return .json(200, .object(out))
    }

    /// `POST /2/dm_conversations/with/:id/messages {"text"}`.
    func v2SendMessage(_ r: SimRequest, _ identity: Identity, to other: String) throws(SimResponse) -> SimResponse {
        guard let uid = identity.userID else { return Self.v2Forbidden("Direct messages need a user's token.") }
        guard let o = UInt64(other), users[o] != nil, o != uid else {
            return Self.invalidRequest("participant_id", "The id [\(other)] is not a user you can message")
        }
        let body = try Self.jsonBody(r)
        guard let text = body["text"] as? String, !text.isEmpty, text.count <= 10_000 else {
            return Self.invalidRequest("text", "The `text` field must hold 1 to 10000 characters")
        }
        let m = SimMessage(id: nextID(), sender: uid, recipient: o, text: text, createdAtMs: UInt64(nowMillis))
        messages.append(m)
        chargeInteraction()
        return .json(
            201, .object([("data", .object([("dm_conversation_id", .string(m.conversation)), ("dm_event_id", .string(String(m.id)))]))]))
    }
}
