import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Lists on v1.1: `lists/list` (owned and subscribed) and `lists/statuses` (by `list_id`, or by
/// `slug` with `owner_screen_name` or `owner_id`), over the same lists v2 serves.
extension World {
    static func slug(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "-" })
    }

    private func v1ListJSON(_ l: SimList, viewer: UInt64?) -> J {
        let owner = users[l.owner]
        let slug = Self.slug(l.name)
        var fields: [(String, J)] = [
            ("id", .uint(l.id)), ("id_str", .string(String(l.id))), ("name", .string(l.name)), ("slug", .string(slug)),
            ("full_name", .string("@\(owner?.screenName ?? "")/\(slug)")), ("description", .string(l.description)),
            ("member_count", .int(Int64(l.members.count))), ("subscriber_count", .int(Int64(l.followers.count))),
            ("mode", .string("public")), ("uri", .string("/\(owner?.screenName ?? "")/lists/\(slug)")),
            ("following", .bool(viewer.map { l.followers.contains($0) } ?? false)),
        ]
        if let owner { fields.append(("user", TweetEncoder(world: snapshot, viewer: viewer, mode: .compat).user(owner))) }
        return .object(fields)
    }

    /// `GET /1.1/lists/list.json`: the lists a user owns, then those they subscribe to.
    func v1Lists(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard
            let u = namedUserOrSelf(r, identity)
        else {
            return .error(404, code: 34, "Sorry, that page does not exist.")
        }
        let found = lists.filter { $0.owner == u.id } + lists.filter { $0.followers.contains(u.id) }
        return .json(200, .array(found.prefix(100).map { v1ListJSON($0, viewer: identity.userID) }))
    }

    /// `GET /1.1/lists/statuses.json`: tweets by the list's members, paged like a timeline.
    func v1ListStatuses(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        let list: SimList?
        if let idText = r.param("list_id") {
            list = UInt64(idText).flatMap { id in lists.first { $0.id == id } }
        } else if let slug = r.param("slug") {
            let owner = r.param("owner_id").flatMap(UInt64.init) ?? r.param("owner_screen_name").flatMap { user(named: $0)?.id }
            list = owner.flatMap { o in lists.first { $0.owner == o && Self.slug($0.name) == slug.lowercased() } }
        } else {
            return .error(400, code: 112, "You must specify either a list ID or a slug and owner.")
        }
        guard let list else { return .error(404, code: 34, "Sorry, that page does not exist.") }
        let o = try readOptions(r)
        let members = Set(list.members)
        var found = liveTweetsNewestFirst().filter { members.contains($0.userID) }
        if r.param("include_rts") == "false" { found = found.filter { $0.retweetedID == nil } }
        return timelineJSON(Array(found.prefix(800)), viewer: identity.userID, o)
    }
}
