import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The accounts this user muted on the server, on either API: v1.1's cursored id list, or
/// v2's paged user list.
extension TwitterClient {
    /// At most this many pages are read (25,000 ids on v1.1, 5,000 users on v2).
    static let mutePages = 5

    public func mutedUserIDs(me: UserID) async throws -> Set<UserID> {
        var ids = Set<UserID>()
        if api == .v2 {
            var token: String?
            for _ in 0..<Self.mutePages {
                var params = [("max_results", "1000")]
                if let token { params.append(("pagination_token", token)) }
                let json = try JSONValue.parse(try await call("GET", "/2/users/\(me)/muting", params))
                if case .array(let users)? = json["data"] {
                    for id in users.compactMap({ $0["id"]?.stringValue.flatMap(UInt64.init) }) { ids.insert(UserID(id)) }
                }
                token = json["meta"]?["next_token"]?.stringValue
                if token == nil { break }
            }
            return ids
        }
        var cursor = "-1"
        for _ in 0..<Self.mutePages {
            let json = try JSONValue.parse(try await call("GET", "mutes/users/ids", [("cursor", cursor), ("stringify_ids", "true")]))
            guard case .array(let list)? = json["ids"] else { throw DecodeError("mutes/users/ids answered without ids") }
            for v in list { if let id = v.stringValue.flatMap(UInt64.init) { ids.insert(UserID(id)) } }
            guard let next = json["next_cursor_str"]?.stringValue, next != "0" else { break }
            cursor = next
        }
        return ids
    }

    /// Mutes or unmutes an account (v1.1 `mutes/users/create`/`destroy`, v2 `/2/users/:id/muting`).
    public func setMuted(_ muted: Bool, user: UserID, me: UserID) async throws {
        if api == .v2 {
            if muted { try await v2Mute(userID: me, user) } else { try await v2Unmute(userID: me, user) }
            return
        }
        _ = try await call("POST", muted ? "mutes/users/create" : "mutes/users/destroy", [("user_id", String(user.rawValue))])
    }
}
