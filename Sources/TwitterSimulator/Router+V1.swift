import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The v1.1 endpoint table: each path's rate-limit family, whether a bearer token may call it,
/// and its handler.
extension Router {
    /// The endpoint for `/name` (without `/1.1` and `.json`), with the `:id` part if any.
    static func endpoint(method: String, name: String) -> (Endpoint, String?)? {
        func idAfter(_ prefix: String) -> String? { name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : nil }
        switch (method, name) {
        case ("GET", "/account/verify_credentials"):
            return (Endpoint(limitKey: "/account/verify_credentials", allowBearer: false) { w, _, i in await w.verifyCredentials(i) }, nil)
        case ("GET", "/statuses/home_timeline"):
            return (
                Endpoint(limitKey: "/statuses/home_timeline", allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.home(r, i)
                }, nil
            )
        case ("GET", "/statuses/mentions_timeline"):
            return (
                Endpoint(limitKey: "/statuses/mentions_timeline", allowBearer: false) { (w, r, i) throws(SimResponse) in
                    try await w.mentions(r, i)
                }, nil
            )
        case ("GET", "/statuses/user_timeline"):
            return (
                Endpoint(limitKey: "/statuses/user_timeline", allowBearer: true) { (w, r, i) throws(SimResponse) in
                    try await w.userTimeline(r, i)
                }, nil
            )
        case ("GET", "/statuses/show"):
            return (
                Endpoint(limitKey: "/statuses/show/:id", allowBearer: true) { (w, r, i) throws(SimResponse) in
                    try await w.show(r, i, id: nil)
                }, nil
            )
        case ("GET", "/search/tweets"):
            return (
                Endpoint(limitKey: "/search/tweets", allowBearer: true) { (w, r, i) throws(SimResponse) in try await w.search(r, i) }, nil
            )
        case ("GET", "/users/show"):
            return (Endpoint(limitKey: "/users/show", allowBearer: true) { w, r, i in await w.usersShow(r, i) }, nil)
        case ("GET", "/application/rate_limit_status"):
            return (
                Endpoint(limitKey: "/application/rate_limit_status", allowBearer: true) { w, r, i in await w.rateLimitStatus(r, i) }, nil
            )
        case ("GET", "/friendships/show"):
            return (Endpoint(limitKey: "/friendships/show", allowBearer: true) { w, r, i in await w.friendshipShow(r, i) }, nil)
        case ("POST", "/friendships/create"):
            return (
                Endpoint(limitKey: nil, allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.v1Follow(r, i, create: true) },
                nil
            )
        case ("POST", "/friendships/destroy"):
            return (
                Endpoint(limitKey: nil, allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.v1Follow(r, i, create: false) },
                nil
            )
        case ("POST", "/blocks/create"):
            return (
                Endpoint(limitKey: nil, allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.v1Block(r, i, create: true) },
                nil
            )
        case ("POST", "/blocks/destroy"):
            return (
                Endpoint(limitKey: nil, allowBearer: false) { (w, r, i) throws(SimResponse) in try await w.v1Block(r, i, create: false) },
                nil
            )
        case ("GET", "/followers/list"):
            return (Endpoint(limitKey: "/followers/list", allowBearer: true) { w, r, i in await w.v1People(r, i, followers: true) }, nil)
        case ("GET", "/friends/list"):
            return (Endpoint(limitKey: "/friends/list", allowBearer: true) { w, r, i in await w.v1People(r, i, followers: false) }, nil)
        case ("GET", "/users/lookup"):
            return (Endpoint(limitKey: "/users/lookup", allowBearer: true) { w, r, i in await w.v1UsersLookup(r, i) }, nil)
        case ("GET", "/direct_messages/events/list"):
            return (Endpoint(limitKey: "/direct_messages/events/list", allowBearer: false) { w, r, i in await w.v1Messages(r, i) }, nil)
        case ("POST", "/direct_messages/events/new"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.v1SendMessage(r, i) }, nil)
        case ("GET", "/lists/list"):
            return (Endpoint(limitKey: "/lists/list", allowBearer: true) { w, r, i in await w.v1Lists(r, i) }, nil)
        case ("GET", "/lists/statuses"):
            return (
                Endpoint(limitKey: "/lists/statuses", allowBearer: true) { (w, r, i) throws(SimResponse) in try await w.v1ListStatuses(r, i)
                }, nil
            )
        case ("GET", "/favorites/list"):
            return (
                Endpoint(limitKey: "/favorites/list", allowBearer: true) { (w, r, i) throws(SimResponse) in try await w.favoritesList(r, i)
                }, nil
            )
        case ("GET", "/mutes/users/ids"):
            return (Endpoint(limitKey: "/mutes/users/ids", allowBearer: false) { w, r, i in await w.v1MutedIDs(r, i) }, nil)
        case ("POST", "/mutes/users/create"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.v1Mute(r, i, create: true) }, nil)
        case ("POST", "/mutes/users/destroy"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.v1Mute(r, i, create: false) }, nil)
        case ("POST", "/media/upload"):
            return (Endpoint(limitKey: "POST /media/upload", allowBearer: false) { w, r, i in await w.v1Upload(r, i) }, nil)
        case ("POST", "/media/metadata/create"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.v1MediaMetadata(r, i) }, nil)
        case ("POST", "/statuses/update"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.update(r, i) }, nil)
        case ("POST", "/favorites/create"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.favorite(r, i, create: true) }, nil)
        case ("POST", "/favorites/destroy"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.favorite(r, i, create: false) }, nil)
        case ("POST", "/oauth/invalidate_token"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, _, i in await w.invalidateAccessToken(i) }, nil)
        case ("GET", "/statuses/sample"), ("POST", "/statuses/filter"), ("GET", "/statuses/filter"), ("GET", "/user"):
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await StreamRoutes.open(r, i, world: w) }, nil)
        default: break
        }
        if method == "GET", let id = idAfter("/statuses/show/") {
            return (
                Endpoint(limitKey: "/statuses/show/:id", allowBearer: true) { (w, r, i) throws(SimResponse) in
                    try await w.show(r, i, id: id)
                }, id
            )
        }
        if method == "POST", let id = idAfter("/statuses/retweet/") {
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.retweet(r, i, id: id) }, id)
        }
        if method == "POST", let id = idAfter("/statuses/unretweet/") {
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.unretweet(r, i, id: id) }, id)
        }
        if method == "POST", let id = idAfter("/statuses/destroy/") {
            return (Endpoint(limitKey: nil, allowBearer: false) { w, r, i in await w.destroy(r, i, id: id) }, id)
        }
        return nil
    }
}
