import Bedrock
import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// The v2 face over the same world: a post made on one face is read on the other.
extension World {
    /// A v2 problem answer (RFC 7807), as X sends for whole-request errors.
    static func problem(_ status: Int, _ title: String, _ detail: String, type: String = "about:blank", extra: [(String, J)] = [])
        -> SimResponse
    {
        var fields: [(String, J)] = [("title", .string(title)), ("detail", .string(detail)), ("type", .string(type))]
        if type == "about:blank" { fields.append(("status", .int(Int64(status)))) }
        return problemJSON(status, .object(fields + extra))
    }

    /// A problem is sent as `application/problem+json`, as X does (the contract lists a
    /// Problem schema under that type and an `Error` under `application/json`).
    static func problemJSON(_ status: Int, _ value: J) -> SimResponse {
        SimResponse(status: status, headers: [("Content-Type", "application/problem+json")], body: .bytes(Data(value.bytes)))
    }

    static func invalidRequest(_ parameter: String, _ message: String) -> SimResponse {
        problemJSON(
            400,
            .object([
                ("errors", .array([.object([("parameters", .object([(parameter, .array([]))])), ("message", .string(message))])])),
                ("title", .string("Invalid Request")), ("detail", .string("One or more parameters to your request was invalid.")),
                ("type", .string("https://api.twitter.com/2/problems/invalid-request")),
            ]))
    }

    static let v2Unauthorized = problem(401, "Unauthorized", "Unauthorized")
    static func v2Forbidden(_ detail: String) -> SimResponse { problem(403, "Forbidden", detail) }

    func v2Encoder(_ r: SimRequest, viewer: UInt64?) -> V2Encoder {
        V2Encoder(world: snapshot, fields: V2Fields(r), viewer: viewer)
    }

    func v2Me(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let id = identity.userID, let u = users[id] else { return Self.v2Forbidden("This call needs a user's token.") }
        let enc = v2Encoder(r, viewer: id)
        chargeUsers([id])
        return .json(200, enc.envelope(data: enc.user(u)))
    }

    /// `GET /2/users/by/username/:username`: one user, or an error beside no data.
    func v2UserByName(_ r: SimRequest, _ identity: Identity, name: String) -> SimResponse {
        let enc = v2Encoder(r, viewer: identity.userID)
        guard let u = user(named: name) else {
            return .json(
                200,
                .object([
                    (
                        "errors",
                        .array([
                            .object([
                                ("value", .string(name)), ("detail", .string("Could not find user with username: [\(name)].")),
                                ("title", .string("Not Found Error")), ("resource_type", .string("user")),
                                ("parameter", .string("username")), ("resource_id", .string(name)),
                                ("type", .string("https://api.twitter.com/2/problems/resource-not-found")),
                            ])
                        ])
                    )
                ]))
        }
        chargeUsers([u.id])
        return .json(200, enc.envelope(data: enc.user(u)))
    }

    enum V2Timeline { case home, mentions, posts }

    /// Paging of a v2 list: `max_results`, `since_id`, `until_id` (both exclusive), and the
    /// token from the last page's `meta` (`pagination_token` or `next_token`).
    struct V2Paging {
        var maxResults: Int
        var sinceID: UInt64?
        var untilID: UInt64?
        var below: UInt64?
    }

    func v2Paging(_ r: SimRequest, tokenName: String, range: ClosedRange<Int>, defaultCount: Int) throws(SimResponse) -> V2Paging {
        var p = V2Paging(maxResults: defaultCount)
        if let m = r.param("max_results") {
            guard let n = Int(m), range.contains(n) else {
                throw Self.invalidRequest(
                    "max_results",
                    "The `max_results` query parameter value [\(m)] is not between \(range.lowerBound) and \(range.upperBound)")
            }
            p.maxResults = n
        }
        for (name, keyPath) in [("since_id", \V2Paging.sinceID), ("until_id", \V2Paging.untilID)] {
            guard let text = r.param(name), !text.isEmpty else { continue }
            guard let v = UInt64(text) else {
                throw Self.invalidRequest(name, "The `\(name)` query parameter value [\(text)] is not valid")
            }
            p[keyPath: keyPath] = v
        }
        if let token = r.param(tokenName), !token.isEmpty {
            guard token.hasPrefix("p"), let v = UInt64(token.dropFirst()) else {
                throw Self.invalidRequest(tokenName, "The `\(tokenName)` query parameter value [\(token)] is not valid")
            }
            p.below = v
        }
        return p
    }

    /// One page of `list` (newest first) with its `meta`.
    func v2Page(_ list: [SimTweet], _ p: V2Paging, _ r: SimRequest, viewer: UInt64?, tokenName: String, owned: Bool = false)
        -> SimResponse
    {
        var found: [SimTweet] = []
        var more = false
        for t in list {
            if let u = p.untilID, t.id >= u { continue }
            if let b = p.below, t.id >= b { continue }
            if let s = p.sinceID, t.id <= s { break }
            if found.count == p.maxResults {
                more = true
                break
            }
            found.append(t)
        }
        var enc = v2Encoder(r, viewer: viewer)
        let data = found.map { enc.post($0) }
        chargePosts(found.map(\.id), owned: owned)
        chargePosts(enc.includedTweets, owned: false)
        chargeUsers(enc.includedUsers)
        var meta: [(String, J)] = [("result_count", .int(Int64(found.count)))]
        if let newest = found.first, let oldest = found.last {
            meta = [("newest_id", .string(String(newest.id))), ("oldest_id", .string(String(oldest.id)))] + meta
            // The token names the oldest post shown: the next page starts below it.
            if more { meta.append(("next_token", .string("p\(oldest.id)"))) }
        }
        // An empty page has no `data` at all.
        return .json(200, enc.envelope(data: found.isEmpty ? nil : .array(data), meta: meta))
    }

    func v2Timeline(_ r: SimRequest, _ identity: Identity, userID: String, kind: V2Timeline) throws(SimResponse) -> SimResponse {
        guard let uid = UInt64(userID), users[uid] != nil else {
            return Self.invalidRequest("id", "The `id` query parameter value [\(userID)] is not valid")
        }
        if kind == .home, identity.userID != uid {
            return Self.v2Forbidden("You may only read the home timeline of the user whose token this is.")
        }
        let paging = try v2Paging(
            r, tokenName: "pagination_token", range: kind == .home ? 1...100 : 5...100, defaultCount: kind == .home ? 100 : 10)
        var list: [SimTweet]
        switch kind {
        case .home: list = Array(homeTweets(of: uid).prefix(800))
        case .mentions: list = Array(mentionTweets(of: uid).prefix(800))
        case .posts: list = Array(userTweets(of: uid).prefix(3200))
        }
        let exclude = Set((r.param("exclude") ?? "").split(separator: ",").map(String.init))
        if exclude.contains("replies") { list = list.filter { $0.inReplyToStatusID == nil } }
        if exclude.contains("retweets") { list = list.filter { $0.retweetedID == nil } }
        // Reads of the token owner's own posts and mentions are "owned reads"; home is not.
        let owned = kind != .home && identity.userID == uid
        return v2Page(list, paging, r, viewer: identity.userID, tokenName: "pagination_token", owned: owned)
    }

    func v2Search(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        guard let q = r.param("query"), !q.trimmed().isEmpty else {
            return Self.invalidRequest("query", "The `query` query parameter can not be empty")
        }
        guard q.count <= 512 else { return Self.invalidRequest("query", "The `query` query parameter is longer than 512 characters") }
        let paging = try v2Paging(r, tokenName: "next_token", range: 10...100, defaultCount: 10)
        let query = SearchQuery(q)
        let weekAgo = UInt64(max(0, now - 7 * 86400)) * 1000
        let hits = liveTweetsNewestFirst().filter { $0.createdAtMs >= weekAgo && query.matches(candidate($0)) }
        return v2Page(hits, paging, r, viewer: identity.userID, tokenName: "next_token")
    }

    /// `GET /2/tweets/:id` and `GET /2/tweets?ids=`: missing posts are errors beside the data.
    func v2Lookup(_ r: SimRequest, _ identity: Identity, id: String?) -> SimResponse {
        let ids: [String]
        if let id {
            ids = [id]
        } else {
            ids = (r.param("ids") ?? "").split(separator: ",").map(String.init)
            guard !ids.isEmpty, ids.count <= 100 else {
                return Self.invalidRequest("ids", "The `ids` query parameter must hold 1 to 100 ids")
            }
        }
        var enc = v2Encoder(r, viewer: identity.userID)
        var data: [J] = []
        var errors: [J] = []
        for text in ids {
            guard let v = UInt64(text) else { return Self.invalidRequest(id == nil ? "ids" : "id", "The id [\(text)] is not valid") }
            if let t = tweets[v], !deleted.contains(v) {
                data.append(enc.post(t))
                chargePosts([t.id], owned: false)
            } else {
                errors.append(
                    .object([
                        ("value", .string(text)), ("detail", .string("Could not find tweet with \(id == nil ? "ids" : "id"): [\(text)].")),
                        ("title", .string("Not Found Error")), ("resource_type", .string("tweet")),
                        ("parameter", .string(id == nil ? "ids" : "id")), ("resource_id", .string(text)),
                        ("type", .string("https://api.twitter.com/2/problems/resource-not-found")),
                    ]))
            }
        }
        chargePosts(enc.includedTweets, owned: false)
        chargeUsers(enc.includedUsers)
        let payload: J? = id == nil ? (data.isEmpty ? nil : .array(data)) : data.first
        return .json(200, enc.envelope(data: payload, errors: errors))
    }
}
