import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A user's likes on both faces: v1.1 `favorites/list` and v2 `/2/users/:id/liked_tweets`.
/// Newest tweet first (the simulator does not keep when a like was made; X orders by that).
extension World {
    func likedTweets(of userID: UInt64) -> [SimTweet] {
        liveTweetsNewestFirst().filter { $0.favoritedBy.contains(userID) }
    }

    /// `GET /1.1/favorites/list.json`: `screen_name` or `user_id` (the token's user by
    /// default), `count` up to 200, `since_id`, `max_id`.
    func favoritesList(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        guard
            let u = namedUserOrSelf(r, identity)
        else {
            return .error(404, code: 34, "Sorry, that page does not exist.")
        }
        let o = try readOptions(r)
        return timelineJSON(likedTweets(of: u.id), viewer: identity.userID, o)
    }

    /// `GET /2/users/:id/liked_tweets`: `max_results` 5–100 and `pagination_token` only (no
    /// `since_id` or `until_id` on this endpoint, as on X).
    func v2LikedTweets(_ r: SimRequest, _ identity: Identity, userID: String) throws(SimResponse) -> SimResponse {
        guard let uid = UInt64(userID), users[uid] != nil else {
            return Self.invalidRequest("id", "The `id` query parameter value [\(userID)] is not valid")
        }
        for name in ["since_id", "until_id", "start_time", "end_time"] where r.param(name) != nil {
            return Self.invalidRequest(
                name,
                "The query parameter [\(name)] is not one of [id,max_results,pagination_token,expansions,tweet.fields,media.fields,poll.fields,user.fields,place.fields]"
            )
        }
        let paging = try v2Paging(r, tokenName: "pagination_token", range: 5...100, defaultCount: 100)
        return v2Page(
            likedTweets(of: uid), paging, r, viewer: identity.userID, tokenName: "pagination_token", owned: identity.userID == uid)
    }
}
