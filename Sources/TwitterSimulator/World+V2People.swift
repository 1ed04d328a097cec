import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// API v2's follows, mutes and bookmarks, over the same world: a follow changes the home
/// timeline on both faces; a muted author's posts leave the muter's home timeline.
extension World {
    /// The id a call acts on: from the path (`DELETE …/:id`) when given, else the body's
    /// `target_user_id` (follows, mutes) or `tweet_id` (bookmarks).
    func target(_ r: SimRequest, _ field: String, given: String?) throws(SimResponse) -> UInt64 {
        if let given {
            guard let v = UInt64(given) else { throw Self.invalidRequest(field, "The id [\(given)] is not valid") }
            return v
        }
        let b = try Self.jsonBody(r)
        guard let v = (b[field] as? String).flatMap(UInt64.init) else {
            throw Self.invalidRequest(field, "The `\(field)` field is required")
        }
        return v
    }

    /// The user a call acts for: the token's, which must be the one in the path.
    func acting(_ identity: Identity, _ userID: String) throws(SimResponse) -> UInt64 {
        guard let uid = identity.userID else { throw Self.v2Forbidden("This call needs a user's token.") }
        guard String(uid) == userID else { throw Self.v2Forbidden("You may only act for the user whose token this is.") }
        return uid
    }

    /// `POST /2/users/:id/following {"target_user_id"}`, and `DELETE …/following/:target`.
    func v2Follow(_ r: SimRequest, _ identity: Identity, userID: String, target given: String?) throws(SimResponse) -> SimResponse {
        let uid = try acting(identity, userID)
        if selfServe { return notOnTier() }
        let other = try target(r, "target_user_id", given: given)
        do { try setFollowing(given == nil, other, by: uid, refusingBlocked: false) } catch { return v2Answer(error, user: other) }
        chargeInteraction()
        var data: [(String, J)] = [("following", .bool(given == nil))]
        if given == nil { data.append(("pending_follow", .bool(false))) }
        return .json(200, .object([("data", .object(data))]))
    }

    /// `POST /2/users/:id/muting {"target_user_id"}`, and `DELETE …/muting/:target`.
    func v2Mute(_ r: SimRequest, _ identity: Identity, userID: String, target given: String?) throws(SimResponse) -> SimResponse {
        let uid = try acting(identity, userID)
        let other = try target(r, "target_user_id", given: given)
        do { try setMuted(given == nil, other, by: uid, strict: false) } catch { return v2Answer(error, user: other) }
        return .json(200, .object([("data", .object([("muting", .bool(given == nil))]))]))
    }

    /// `POST /2/users/:id/bookmarks {"tweet_id"}`, `DELETE …/bookmarks/:tweet_id`, and
    /// `GET /2/users/:id/bookmarks` (newest bookmark first).
    func v2Bookmark(_ r: SimRequest, _ identity: Identity, userID: String, target given: String?) throws(SimResponse) -> SimResponse {
        let uid = try acting(identity, userID)
        let tweetID = try target(r, "tweet_id", given: given)
        guard tweets[tweetID] != nil, !deleted.contains(tweetID) else {
            return Self.problem(
                404, "Not Found Error", "Could not find tweet with id: [\(tweetID)].",
                type: "https://api.twitter.com/2/problems/resource-not-found")
        }
        var list = bookmarks[uid] ?? []
        list.removeAll { $0 == tweetID }
        if given == nil { list.insert(tweetID, at: 0) }
        bookmarks[uid] = list
        return .json(200, .object([("data", .object([("bookmarked", .bool(given == nil))]))]))
    }

    func v2Bookmarks(_ r: SimRequest, _ identity: Identity, userID: String) throws(SimResponse) -> SimResponse {
        let uid = try acting(identity, userID)
        let paging = try v2Paging(r, tokenName: "pagination_token", range: 1...100, defaultCount: 100)
        // Newest bookmark first; the paging token names a position, not an id.
        let list = (bookmarks[uid] ?? []).compactMap { id in deleted.contains(id) ? nil : tweets[id] }
        let startAt = paging.below.map { Int($0) } ?? 0
        let slice = Array(list.dropFirst(startAt).prefix(paging.maxResults))
        var enc = v2Encoder(r, viewer: uid)
        let data = slice.map { enc.post($0) }
        chargePosts(slice.map(\.id), owned: true)
        var meta: [(String, J)] = [("result_count", .int(Int64(slice.count)))]
        if startAt + slice.count < list.count { meta.append(("next_token", .string("p\(startAt + slice.count)"))) }
        return .json(200, enc.envelope(data: slice.isEmpty ? nil : .array(data), meta: meta))
    }
}
