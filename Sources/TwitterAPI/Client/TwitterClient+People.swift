import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// People on either API: a profile with how the account stands to it, follows and blocks, and
/// who follows whom.
extension TwitterClient {

    /// A user by screen name and, when `me` is a user, how `me` stands to them.
    public func profile(screenName: String, me: User?) async throws -> Profile {
        let asking = me.map { $0.screenName.lowercased() != screenName.lowercased() } ?? false
        if api == .v2 {
            var fields = V2Query.userFields
            if asking { fields.append("connection_status") }
            let data = try await call(
                "GET", "/2/users/by/username/\(PercentEncoding.encode(screenName))", [("user.fields", fields.joined(separator: ","))])
            let page = try V2Decoder().users(from: data)
            guard let user = page.users.first else {
                throw APIError(httpStatus: 404, code: 50, message: page.errors.first?.description ?? "User not found.")
            }
            let json = try JSONValue.parse(data)
            let image = json["data"]?["profile_image_url"]?.stringValue
            guard asking else { return Profile(user: user, relationship: nil, imageURL: image) }
            var r = Relationship()
            if case .array(let states)? = json["data"]?["connection_status"] {
                let s = Set(states.compactMap(\.stringValue))
                r = Relationship(
                    following: s.contains("following"), followedBy: s.contains("followed_by"), muting: s.contains("muting"),
                    blocking: s.contains("blocking"))
            }
            return Profile(user: user, relationship: r, imageURL: image)
        }
        let shown = try await call("GET", "users/show", [("screen_name", screenName)])
        let user = try V1Decoder().user(from: shown)
        let image = try JSONValue.parse(shown)["profile_image_url_https"]?.stringValue
        guard asking else { return Profile(user: user, relationship: nil, imageURL: image) }
        let json = try JSONValue.parse(try await call("GET", "friendships/show", [("target_id", user.id.description)]))
        guard let s = json["relationship"]?["source"] else { throw DecodeError("friendships/show answered without a relationship") }
        return Profile(
            user: user,
            relationship: Relationship(
                following: s["following"]?.boolValue ?? false, followedBy: s["followed_by"]?.boolValue ?? false,
                muting: s["muting"]?.boolValue ?? false, blocking: s["blocking"]?.boolValue ?? false),
            imageURL: image)
    }

    /// Follows or unfollows (v1.1 `friendships/create`/`destroy`, v2 `/2/users/:id/following`).
    public func setFollowing(_ on: Bool, user: UserID, me: UserID) async throws {
        if api == .v2 {
            if on { try await v2Follow(userID: me, user) } else { try await v2Unfollow(userID: me, user) }
            return
        }
        _ = try await call("POST", on ? "friendships/create" : "friendships/destroy", [("user_id", user.description)])
    }

    /// Blocks or unblocks; v1.1 only (X API v2 has no call to block).
    public func setBlocked(_ on: Bool, user: UserID) async throws {
        guard api == .v1 else { throw APIError(httpStatus: 403, code: nil, message: Self.noBlockOnV2) }
        _ = try await call("POST", on ? "blocks/create" : "blocks/destroy", [("user_id", user.description)])
    }

    public static let noBlockOnV2 = "X API v2 has no call to block or unblock; do it on x.com."

    /// Why this client cannot block at all, known before asking (nil when it can).
    public var cannotBlock: String? { api == .v1 ? nil : Self.noBlockOnV2 }

    /// Who follows a user (`followers`) or whom they follow, a page at a time: v1.1 by cursor
    /// (200 a page), v2 by token (100 a page).
    public func people(of user: User, followers: Bool, next: String? = nil) async throws -> PeoplePage {
        if api == .v2 {
            var params = [("max_results", "100")] + V2Query.users
            if let next { params.append(("pagination_token", next)) }
            let page = try V2Decoder().users(
                from: try await call("GET", "/2/users/\(user.id)/\(followers ? "followers" : "following")", params))
            return PeoplePage(users: page.users, next: page.meta.nextToken)
        }
        let json = try JSONValue.parse(
            try await call(
                "GET", followers ? "followers/list" : "friends/list",
                [("user_id", user.id.description), ("count", "200"), ("cursor", next ?? "-1"), ("skip_status", "true")]))
        guard case .array(let items)? = json["users"] else { throw DecodeError("the list of people had no users") }
        let users = try items.map { try V1Decoder().user(from: Data($0.serialized.utf8)) }
        let cursor = json["next_cursor_str"]?.stringValue
        return PeoplePage(users: users, next: cursor == nil || cursor == "0" ? nil : cursor)
    }
}
