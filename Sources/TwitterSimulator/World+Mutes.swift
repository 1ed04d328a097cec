import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The account's mutes as both faces list them (and v1.1's create and destroy): what the
/// client hides in panes the server does not filter (mentions, searches).
extension World {
    /// Ids v1.1 pages through by cursor: 5,000 to a page, as Twitter did.
    static let muteIDsPerPage = 5000

    /// `GET /1.1/mutes/users/ids.json?cursor=`: newest muted first; the cursor names a position.
    func v1MutedIDs(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let uid = identity.userID else { return Self.forbiddenForApps }
        let cursorText = r.param("cursor") ?? "-1"
        guard let cursor = Int64(cursorText), cursor == -1 || cursor > 0 else {
            return .error(400, code: 44, "cursor parameter is invalid.")
        }
        let all = (muting[uid] ?? []).sorted(by: >)
        let start = cursor == -1 ? 0 : Int(cursor)
        let page = all.dropFirst(start).prefix(Self.muteIDsPerPage)
        let next = start + page.count < all.count ? Int64(start + page.count) : 0
        let previous = start == 0 ? 0 : Int64(-max(1, start - Self.muteIDsPerPage))
        let stringify = r.param("stringify_ids") == "true"
        return .json(
            200,
            .object([
                ("ids", .array(page.map { stringify ? .string(String($0)) : .int(Int64($0)) })),
                ("next_cursor", .int(next)), ("next_cursor_str", .string(String(next))),
                ("previous_cursor", .int(previous)), ("previous_cursor_str", .string(String(previous))),
            ]))
    }

    /// `POST /1.1/mutes/users/create.json` and `destroy.json` (`screen_name` or `user_id`):
    /// answers with the user muted or unmuted.
    func v1Mute(_ r: SimRequest, _ identity: Identity, create: Bool) -> SimResponse {
        guard let uid = identity.userID else { return Self.forbiddenForApps }
        guard let u = namedUser(r) else { return Self.v1Answer(.userGone) }
        do { try setMuted(create, u.id, by: uid, strict: true) } catch { return Self.v1Answer(error) }
        return .json(200, TweetEncoder(world: snapshot, viewer: uid, mode: .compat).user(u))
    }

    /// `GET /2/users/:id/muting`: the muted users, newest muted first, paged by token.
    func v2Muting(_ r: SimRequest, _ identity: Identity, userID: String) throws(SimResponse) -> SimResponse {
        let uid = try acting(identity, userID)
        let paging = try v2Paging(r, tokenName: "pagination_token", range: 1...1000, defaultCount: 100)
        let all = (muting[uid] ?? []).sorted(by: >).compactMap { users[$0] }
        let startAt = paging.below.map { Int($0) } ?? 0
        let slice = Array(all.dropFirst(startAt).prefix(paging.maxResults))
        let enc = v2Encoder(r, viewer: uid)
        chargeUsers(slice.map(\.id))
        var meta: [(String, J)] = [("result_count", .int(Int64(slice.count)))]
        if startAt + slice.count < all.count { meta.append(("next_token", .string("p\(startAt + slice.count)"))) }
        return .json(200, enc.envelope(data: slice.isEmpty ? nil : .array(slice.map { enc.user($0) }), meta: meta))
    }
}
