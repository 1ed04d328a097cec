import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Lists on either API: the account's own and those it follows, and a list's tweets. A list is
/// named as people write it, `owner/slug` (the slug is the name in lower case, spaces as `-`).
extension TwitterClient {

    /// A list name as a slug, as Twitter makes them.
    public static func slug(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "-" })
    }

    /// The lists `me` owns, then those `me` follows.
    public func lists(me: User) async throws -> [ListInfo] {
        if api == .v2 {
            var out: [ListInfo] = []
            for kind in ["owned_lists", "followed_lists"] {
                let json = try JSONValue.parse(
                    try await call(
                        "GET", "/2/users/\(me.id)/\(kind)",
                        [
                            ("max_results", "100"), ("list.fields", "description,member_count,owner_id"), ("expansions", "owner_id"),
                            ("user.fields", "username"),
                        ]))
                var owners: [String: String] = [:]
                if case .array(let users)? = json["includes"]?["users"] {
                    for u in users {
                        if let id = u["id"]?.stringValue, let name = u["username"]?.stringValue { owners[id] = name }
                    }
                }
                guard case .array(let items)? = json["data"] else { continue }
                for l in items {
                    guard let id = l["id"]?.stringValue, let name = l["name"]?.stringValue else { continue }
                    let ownerID = l["owner_id"]?.stringValue ?? ""
                    let owner = owners[ownerID] ?? (ownerID == me.id.description ? me.screenName : ownerID)
                    out.append(
                        ListInfo(
                            id: id, name: name, slug: Self.slug(name), owner: owner, description: l["description"]?.stringValue ?? "",
                            memberCount: Int(l["member_count"]?.intValue ?? 0)))
                }
            }
            return out
        }
        let json = try JSONValue.parse(try await call("GET", "lists/list", [("user_id", me.id.description)]))
        guard case .array(let items) = json else { throw DecodeError("lists/list did not answer with a list") }
        return items.compactMap { l in
            guard let id = l["id_str"]?.stringValue, let name = l["name"]?.stringValue else { return nil }
            let slug = l["slug"]?.stringValue ?? Self.slug(name)
            return ListInfo(
                id: id, name: name, slug: slug, owner: l["user"]?["screen_name"]?.stringValue ?? "",
                description: l["description"]?.stringValue ?? "", memberCount: Int(l["member_count"]?.intValue ?? 0))
        }
    }

    /// v1.1: a list's tweets by owner and slug, paged by id like any timeline.
    public func listStatuses(owner: String, slug: String, _ page: Page = Page()) async throws -> TimelinePage {
        try V1Decoder().timeline(
            from: try await call(
                "GET", "lists/statuses", [("owner_screen_name", owner), ("slug", slug)] + page.parameters + [Self.extended]))
    }
}
