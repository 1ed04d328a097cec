import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Routes under `/2/`: the same authentication, rate limits, faults and request log as v1.1,
/// with v2's error shapes.
extension Router {
    /// The v2 endpoint for a method and path, with the rate-limit window it counts against.
    static func v2Endpoint(method: String, path: String) -> Endpoint? {
        let p = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard p.first == "2" else { return nil }
        switch (method, Array(p.dropFirst())) {
        case ("GET", ["users"]):
            return Endpoint(limitKey: "/2/users", allowBearer: true) { w, r, i in await w.v2UsersLookup(r, i) }
        case ("GET", ["users", "me"]):
            return Endpoint(limitKey: "/2/users/me", allowBearer: false) { w, r, i in await w.v2Me(r, i) }
        case ("GET", let q) where q.count == 4 && q[0] == "users" && q[1] == "by" && q[2] == "username":
            return Endpoint(limitKey: "/2/users/by/username/:username", allowBearer: true) { w, r, i in
                await w.v2UserByName(r, i, name: q[3])
            }
        case ("GET", let q) where q.count == 4 && q[0] == "users" && q[2] == "timelines" && q[3] == "reverse_chronological":
            return Endpoint(limitKey: "/2/users/:id/timelines/reverse_chronological", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2Timeline(r, i, userID: q[1], kind: .home)
            }
        case ("GET", let q) where q.count == 3 && q[0] == "users" && q[2] == "mentions":
            return Endpoint(limitKey: "/2/users/:id/mentions", allowBearer: true) { (w, r, i) throws(SimResponse) in
                try await w.v2Timeline(r, i, userID: q[1], kind: .mentions)
            }
        case ("GET", let q) where q.count == 3 && q[0] == "users" && q[2] == "tweets":
            return Endpoint(limitKey: "/2/users/:id/tweets", allowBearer: true) { (w, r, i) throws(SimResponse) in
                try await w.v2Timeline(r, i, userID: q[1], kind: .posts)
            }
        case ("GET", ["tweets", "search", "stream"]):
            return Endpoint(limitKey: nil, allowBearer: true) { w, r, i in await w.v2OpenStream(r, i) }
        case ("GET", ["tweets", "search", "stream", "rules"]):
            return Endpoint(limitKey: "/2/tweets/search/stream/rules", allowBearer: true) { w, r, i in await w.v2ListRules(r, i) }
        case ("POST", ["tweets", "search", "stream", "rules"]):
            return Endpoint(limitKey: "POST /2/tweets/search/stream/rules", allowBearer: true) { (w, r, i) throws(SimResponse) in
                try await w.v2ChangeRules(r, i)
            }
        case ("GET", ["tweets", "search", "recent"]):
            return Endpoint(limitKey: "/2/tweets/search/recent", allowBearer: true) { (w, r, i) throws(SimResponse) in
                try await w.v2Search(r, i)
            }
        case ("GET", ["tweets"]):
            return Endpoint(limitKey: "/2/tweets", allowBearer: true) { w, r, i in await w.v2Lookup(r, i, id: nil) }
        case ("GET", let q) where q.count == 2 && q[0] == "tweets":
            return Endpoint(limitKey: "/2/tweets/:id", allowBearer: true) { w, r, i in await w.v2Lookup(r, i, id: q[1]) }
        case ("GET", let q) where q.count == 3 && q[0] == "users" && (q[2] == "owned_lists" || q[2] == "followed_lists"):
            return Endpoint(limitKey: "/2/users/:id/\(q[2])", allowBearer: true) { w, r, i in
                await w.v2Lists(r, i, userID: q[1], followed: q[2] == "followed_lists")
            }
        case ("GET", let q) where q.count == 3 && q[0] == "lists" && q[2] == "tweets":
            return Endpoint(limitKey: "/2/lists/:id/tweets", allowBearer: true) { (w, r, i) throws(SimResponse) in
                try await w.v2ListPosts(r, i, listID: q[1])
            }
        case ("GET", ["dm_events"]):
            return Endpoint(limitKey: "/2/dm_events", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2Messages(r, i, with: nil)
            }
        case ("GET", let q) where q.count == 4 && q[0] == "dm_conversations" && q[1] == "with" && q[3] == "dm_events":
            return Endpoint(limitKey: "/2/dm_conversations/with/:participant_id/dm_events", allowBearer: false) {
                (w, r, i) throws(SimResponse) in
                try await w.v2Messages(r, i, with: q[2])
            }
        case ("POST", let q) where q.count == 4 && q[0] == "dm_conversations" && q[1] == "with" && q[3] == "messages":
            return Endpoint(limitKey: "POST /2/dm_conversations/with/:participant_id/messages", allowBearer: false) {
                (w, r, i) throws(SimResponse) in
                try await w.v2SendMessage(r, i, to: q[2])
            }
        case ("POST", ["media", "upload"]):
            return Endpoint(limitKey: "POST /2/media/upload", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2UploadMedia(r, i)
            }
        case ("POST", ["media", "upload", "initialize"]):
            return Endpoint(limitKey: "POST /2/media/upload/initialize", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2InitializeUpload(r, i)
            }
        case ("POST", let q) where q.count == 4 && q[0] == "media" && q[1] == "upload" && q[3] == "append":
            return Endpoint(limitKey: "POST /2/media/upload/:id/append", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2AppendUpload(r, i, id: q[2])
            }
        case ("POST", let q) where q.count == 4 && q[0] == "media" && q[1] == "upload" && q[3] == "finalize":
            return Endpoint(limitKey: "POST /2/media/upload/:id/finalize", allowBearer: false) { w, r, i in
                await w.v2FinalizeUpload(r, i, id: q[2])
            }
        case ("POST", ["media", "metadata"]):
            return Endpoint(limitKey: "POST /2/media/metadata", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2MediaMetadata(r, i)
            }
        case ("POST", ["tweets"]):
            return Endpoint(limitKey: "POST /2/tweets", allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.v2Create(r, i) }
        case ("DELETE", let q) where q.count == 2 && q[0] == "tweets":
            return Endpoint(limitKey: "DELETE /2/tweets/:id", allowBearer: false) { w, r, i in await w.v2Delete(r, i, id: q[1]) }
        case ("POST", let q) where q.count == 3 && q[0] == "users" && q[2] == "following":
            return Endpoint(limitKey: "POST /2/users/:id/following", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2Follow(r, i, userID: q[1], target: nil)
            }
        case ("DELETE", let q) where q.count == 4 && q[0] == "users" && q[2] == "following":
            return Endpoint(limitKey: "DELETE /2/users/:source_user_id/following/:target_user_id", allowBearer: false) {
                (w, r, i) throws(SimResponse) in
                try await w.v2Follow(r, i, userID: q[1], target: q[3])
            }
        case ("GET", let q) where q.count == 3 && q[0] == "users" && (q[2] == "followers" || q[2] == "following"):
            return Endpoint(limitKey: "/2/users/:id/\(q[2])", allowBearer: true) { (w, r, i) throws(SimResponse) in
                try await w.v2People(r, i, userID: q[1], followers: q[2] == "followers")
            }
        case ("GET", let q) where q.count == 3 && q[0] == "users" && q[2] == "liked_tweets":
            return Endpoint(limitKey: "/2/users/:id/liked_tweets", allowBearer: true) { (w, r, i) throws(SimResponse) in
                try await w.v2LikedTweets(r, i, userID: q[1])
            }
        case ("GET", let q) where q.count == 3 && q[0] == "users" && q[2] == "muting":
            return Endpoint(limitKey: "/2/users/:id/muting", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2Muting(r, i, userID: q[1])
            }
        case ("POST", let q) where q.count == 3 && q[0] == "users" && q[2] == "muting":
            return Endpoint(limitKey: "POST /2/users/:id/muting", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2Mute(r, i, userID: q[1], target: nil)
            }
        case ("DELETE", let q) where q.count == 4 && q[0] == "users" && q[2] == "muting":
            return Endpoint(limitKey: "DELETE /2/users/:source_user_id/muting/:target_user_id", allowBearer: false) {
                (w, r, i) throws(SimResponse) in
                try await w.v2Mute(r, i, userID: q[1], target: q[3])
            }
        case ("GET", let q) where q.count == 3 && q[0] == "users" && q[2] == "bookmarks":
            return Endpoint(limitKey: "/2/users/:id/bookmarks", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2Bookmarks(r, i, userID: q[1])
            }
        case ("POST", let q) where q.count == 3 && q[0] == "users" && q[2] == "bookmarks":
            return Endpoint(limitKey: "POST /2/users/:id/bookmarks", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2Bookmark(r, i, userID: q[1], target: nil)
            }
        case ("DELETE", let q) where q.count == 4 && q[0] == "users" && q[2] == "bookmarks":
            return Endpoint(limitKey: "DELETE /2/users/:id/bookmarks/:tweet_id", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2Bookmark(r, i, userID: q[1], target: q[3])
            }
        case ("POST", let q) where q.count == 3 && q[0] == "users" && (q[2] == "likes" || q[2] == "retweets"):
            return Endpoint(limitKey: "POST /2/users/:id/\(q[2])", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2Engage(r, i, userID: q[1], target: nil, like: q[2] == "likes")
            }
        case ("DELETE", let q) where q.count == 4 && q[0] == "users" && (q[2] == "likes" || q[2] == "retweets"):
            return Endpoint(limitKey: "DELETE /2/users/:id/\(q[2])/:tweet_id", allowBearer: false) { (w, r, i) throws(SimResponse) in
                try await w.v2Engage(r, i, userID: q[1], target: q[3], like: q[2] == "likes")
            }
        default: return nil
        }
    }

    func routeV2(_ r: SimRequest) async -> SimResponse {
        guard let endpoint = Self.v2Endpoint(method: r.method, path: r.path) else {
            let response = World.problem(404, "Not Found Error", "The requested resource could not be found.")
            await world.record(r, auth: "none", status: 404)
            return response
        }
        let identity: World.Identity
        switch await world.authenticate(r, allowBearer: endpoint.allowBearer) {
        case .failed(let v1):
            // The same checks as v1.1, answered in v2's words.
            let response: SimResponse
            switch v1.status {
            case 403:
                response = World.problem(
                    403, "Unsupported Authentication",
                    "Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].",
                    type: "https://api.twitter.com/2/problems/unsupported-authentication")
            default: response = World.v2Unauthorized
            }
            await world.record(r, auth: "rejected", status: response.status)
            return response
        case .ok(let who): identity = who
        }
        // A request X's contract rules out is refused as X does, before it counts or runs.
        if let refusal = Contract.x.refusal(r) {
            await world.record(r, auth: { if case .app = identity { "bearer" } else { "user" } }(), status: 400)
            return refusal
        }
        return await limitedRun(endpoint, r, identity) { headers in
            var response = World.problem(429, "Too Many Requests", "Too Many Requests")
            response.headers += headers
            return response
        }
    }
}
