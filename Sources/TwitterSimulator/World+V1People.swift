import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// People on v1.1: a relationship (`friendships/show`), follows and blocks made and undone, and
/// who follows whom (`followers/list`, `friends/list`, cursored), over the same follow graph v2
/// reads and writes.
extension World {
    /// The user a write names by `user_id` or `screen_name`, never the acting user.
    private func otherUser(_ r: SimRequest, _ uid: UInt64) throws(SimResponse) -> SimUser {
        guard let u = namedUser(r) else { throw .error(404, code: 50, "User not found.") }
        guard u.id != uid else { throw .error(403, code: 158, "You can't do that to yourself.") }
        return u
    }

    /// `GET /1.1/friendships/show.json`: how the source (the token's user by default) and the
    /// target stand.
    func friendshipShow(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        let source: SimUser?
        if let id = r.param("source_id") {
            source = UInt64(id).flatMap { users[$0] }
        } else if let name = r.param("source_screen_name") {
            source = user(named: name)
        } else {
            source = identity.userID.flatMap { users[$0] }
        }
        let target: SimUser?
        if let id = r.param("target_id") {
            target = UInt64(id).flatMap { users[$0] }
        } else {
            target = r.param("target_screen_name").flatMap { user(named: $0) }
        }
        guard let s = source, let t = target else { return .error(404, code: 50, "User not found.") }
        let sFollowsT = s.following.contains(t.id)
        let tFollowsS = t.following.contains(s.id)
        return .json(
            200,
            .object([
                (
                    "relationship",
                    .object([
                        (
                            "source",
                            .object([
                                ("id", .uint(s.id)), ("id_str", .string(String(s.id))), ("screen_name", .string(s.screenName)),
                                ("following", .bool(sFollowsT)), ("followed_by", .bool(tFollowsS)),
                                ("blocking", .bool(blocking[s.id]?.contains(t.id) ?? false)),
                                ("muting", .bool(muting[s.id]?.contains(t.id) ?? false)), ("can_dm", .bool(tFollowsS)),
                            ])
                        ),
                        (
                            "target",
                            .object([
                                ("id", .uint(t.id)), ("id_str", .string(String(t.id))), ("screen_name", .string(t.screenName)),
                                ("following", .bool(tFollowsS)), ("followed_by", .bool(sFollowsT)),
                            ])
                        ),
                    ])
                )
            ]))
    }

    /// `POST /1.1/friendships/create.json` and `destroy.json`: the user followed or unfollowed.
    func v1Follow(_ r: SimRequest, _ identity: Identity, create: Bool) throws(SimResponse) -> SimResponse {
        guard let uid = identity.userID, users[uid] != nil else { return Self.forbiddenForApps }
        let other = try otherUser(r, uid)
        do { try setFollowing(create, other.id, by: uid, refusingBlocked: true) } catch { return Self.v1Answer(error) }
        return .json(200, TweetEncoder(world: snapshot, viewer: uid, mode: .compat).user(other))
    }

    /// `POST /1.1/blocks/create.json` and `destroy.json`: a block also ends follows both ways.
    func v1Block(_ r: SimRequest, _ identity: Identity, create: Bool) throws(SimResponse) -> SimResponse {
        guard let uid = identity.userID else { return Self.forbiddenForApps }
        let other = try otherUser(r, uid)
        if create {
            blocking[uid, default: []].insert(other.id)
            if var me = users[uid], me.following.contains(other.id) {
                me.following.removeAll { $0 == other.id }
                followerCounts[other.id, default: 1] -= 1
                users[uid] = me
            }
            if var them = users[other.id], them.following.contains(uid) {
                them.following.removeAll { $0 == uid }
                followerCounts[uid, default: 1] -= 1
                users[other.id] = them
            }
        } else {
            blocking[uid]?.remove(other.id)
        }
        return .json(200, TweetEncoder(world: snapshot, viewer: uid, mode: .compat).user(other))
    }

    /// Who follows `uid` (newest id first) or whom `uid` follows (in the order followed, newest first).
    func followers(of uid: UInt64) -> [UInt64] { users.values.filter { $0.following.contains(uid) }.map(\.id).sorted(by: >) }
    func followed(by uid: UInt64) -> [UInt64] { (users[uid]?.following ?? []).reversed() }

    /// `GET /1.1/followers/list.json` and `friends/list.json`: 20 a page by default (up to 200),
    /// the cursor a position.
    func v1People(_ r: SimRequest, _ identity: Identity, followers: Bool) -> SimResponse {
        guard
            let u = namedUserOrSelf(r, identity)
        else {
            return .error(404, code: 50, "User not found.")
        }
        let count = r.param("count").flatMap(Int.init) ?? 20
        guard (1...200).contains(count) else { return .error(400, code: 44, "count parameter is invalid.") }
        guard let cursor = Int64(r.param("cursor") ?? "-1"), cursor == -1 || cursor > 0 else {
            return .error(400, code: 44, "cursor parameter is invalid.")
        }
        let all = followers ? self.followers(of: u.id) : followed(by: u.id)
        let start = cursor == -1 ? 0 : Int(cursor)
        let page = all.dropFirst(start).prefix(count).compactMap { users[$0] }
        let next: Int64 = start + page.count < all.count ? Int64(start + page.count) : 0
        let enc = TweetEncoder(world: snapshot, viewer: identity.userID, mode: .compat)
        return .json(
            200,
            .object([
                ("users", .array(page.map { enc.user($0) })), ("next_cursor", .int(next)), ("next_cursor_str", .string(String(next))),
                ("previous_cursor", .int(0)), ("previous_cursor_str", .string("0")),
            ]))
    }

    /// `GET /2/users/:id/followers` and `/following`: users, paged by token, 1–1000 a page.
    func v2People(_ r: SimRequest, _ identity: Identity, userID: String, followers: Bool) throws(SimResponse) -> SimResponse {
        guard let uid = UInt64(userID), users[uid] != nil else {
            return Self.invalidRequest("id", "The `id` query parameter value [\(userID)] is not valid")
        }
        let paging = try v2Paging(r, tokenName: "pagination_token", range: 1...1000, defaultCount: 100)
        let all = (followers ? self.followers(of: uid) : followed(by: uid)).compactMap { users[$0] }
        let startAt = paging.below.map { Int($0) } ?? 0
        let slice = Array(all.dropFirst(startAt).prefix(paging.maxResults))
        let enc = v2Encoder(r, viewer: identity.userID)
        chargeUsers(slice.map(\.id))
        var meta: [(String, J)] = [("result_count", .int(Int64(slice.count)))]
        if startAt + slice.count < all.count { meta.append(("next_token", .string("p\(startAt + slice.count)"))) }
        return .json(200, enc.envelope(data: slice.isEmpty ? nil : .array(slice.map { enc.user($0) }), meta: meta))
    }
}
