import FoundationEssentials

extension V2Encoder {
    /// A user as v2 writes one: the fields asked for, and how the viewer stands to them.
    func user(_ u: SimUser) -> J {
        let f = fields.user
        var out: [(String, J)] = [("id", .string(String(u.id))), ("name", .string(u.name)), ("username", .string(u.screenName))]
        if f.contains("created_at") { out.append(("created_at", .string(Self.iso(u.createdAtMs)))) }
        if f.contains("description") { out.append(("description", .string(u.description))) }
        if f.contains("location"), !u.location.isEmpty { out.append(("location", .string(u.location))) }
        if f.contains("protected") { out.append(("protected", .bool(u.isProtected))) }
        if f.contains("verified") { out.append(("verified", .bool(u.isVerified))) }
        if f.contains("connection_status"), let v = viewer, v != u.id {
            var c: [J] = []
            if world.users[v]?.following.contains(u.id) ?? false { c.append(.string("following")) }
            if u.following.contains(v) { c.append(.string("followed_by")) }
            if world.muting[v]?.contains(u.id) ?? false { c.append(.string("muting")) }
            if world.blocking[v]?.contains(u.id) ?? false { c.append(.string("blocking")) }
            out.append(("connection_status", .array(c)))
        }
        if f.contains("profile_image_url") {
            out.append(("profile_image_url", .string("https://pbs.twimg.invalid/profile_images/\(u.id)/\(u.screenName)_normal.png")))
        }
        if f.contains("public_metrics") {
            out.append(
                (
                    "public_metrics",
                    .object([
                        ("followers_count", .int(Int64(world.followerCounts[u.id] ?? 0))),
                        ("following_count", .int(Int64(u.following.count))),
                        ("tweet_count", .int(Int64(world.statusCounts[u.id] ?? 0))), ("listed_count", .int(0)), ("like_count", .int(0)),
                    ])
                ))
        }
        return .object(out)
    }
}
