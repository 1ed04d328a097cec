import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// Writing endpoints: post, reply, retweet, unretweet, delete, like, unlike.
extension World {
    static let forbiddenForApps = SimResponse.error(403, code: 220, "Your credentials do not allow access to this resource.")

    /// The encoder for a write's answer, in the tweet mode the request asked for.
    func answerEncoder(_ r: SimRequest, viewer: UInt64) -> TweetEncoder {
        TweetEncoder(world: snapshot, viewer: viewer, mode: r.param("tweet_mode") == "extended" ? .extended : .compat)
    }

    /// v1.1's answer to a refusal of the world's.
    static func v1Answer(_ refusal: WorldRefusal) -> SimResponse {
        switch refusal {
        case .tooLong: .error(403, code: 186, "Tweet needs to be a bit shorter.")
        case .duplicate: .error(403, code: 187, "Status is a duplicate.")
        case .badMedia: .error(400, code: 324, "Some of the submitted media IDs are invalid.")
        case .replyTargetGone, .replyNotAllowed:
            .error(403, code: 385, "You attempted to reply to a Tweet that is deleted or not visible to you.")
        case .quoteTargetGone: .error(400, code: 44, "attachment_url parameter is invalid.")
        case .notOnTier: forbiddenForApps
        case .postGone: .error(404, code: 144, "No status found with that ID.")
        case .notYours: .error(403, code: 183, "You may not delete another user's status.")
        case .userGone: .error(404, code: 50, "User not found.")
        case .isSelf: .error(403, code: 271, "You can't mute yourself.")
        case .blockedByThem: .error(403, code: 162, "You have been blocked from following this account.")
        case .notMuting: .error(403, code: 272, "You are not muting the specified user.")
        }
    }

    func update(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let uid = identity.userID, users[uid] != nil else { return Self.forbiddenForApps }
        guard let status = r.param("status"), !status.isEmpty else {
            return .error(400, code: 170, "Missing required parameter: status.")
        }
        var post = NewPost(text: status, replyNeedsMention: true)
        post.fillInMentions = Self.truthy(r.param("auto_populate_reply_metadata"))
        post.replyTo = r.param("in_reply_to_status_id").flatMap(UInt64.init)
        post.mediaIDs = (r.param("media_ids") ?? "").split(separator: ",").map(String.init)
        if let url = r.param("attachment_url") {
            // A quote: the address of a post, which the text does not count.
            guard url.contains("/status/"), let last = url.split(separator: "/").last, let q = UInt64(last) else {
                return Self.v1Answer(.quoteTargetGone)
            }
            post.quote = q
        }
        do {
            let t = try createPost(post, by: uid)
            return .json(200, answerEncoder(r, viewer: uid).tweet(t))
        } catch { return Self.v1Answer(error) }
    }

    func retweet(_ r: SimRequest, _ identity: Identity, id: String?) -> SimResponse {
        guard let uid = identity.userID, users[uid] != nil else { return Self.forbiddenForApps }
        do {
            guard let t = try repost(id.flatMap(UInt64.init) ?? 0, by: uid) else {
                return .error(403, code: 327, "You have already retweeted this Tweet.")
            }
            return .json(200, answerEncoder(r, viewer: uid).tweet(t))
        } catch { return Self.v1Answer(error) }
    }

    func unretweet(_ r: SimRequest, _ identity: Identity, id: String?) -> SimResponse {
        guard let uid = identity.userID else { return Self.forbiddenForApps }
        do {
            return .json(200, answerEncoder(r, viewer: uid).tweet(try unrepost(id.flatMap(UInt64.init) ?? 0, by: uid)))
        } catch { return Self.v1Answer(error) }
    }

    func destroy(_ r: SimRequest, _ identity: Identity, id: String?) -> SimResponse {
        guard let uid = identity.userID else { return Self.forbiddenForApps }
        do {
            return try deletePost(id.flatMap(UInt64.init) ?? 0, by: uid) { .json(200, answerEncoder(r, viewer: uid).tweet($0)) }
        } catch { return Self.v1Answer(error) }
    }

    /// Deletes a tweet everywhere and tells the streams.
    func remove(_ t: SimTweet) {
        deleted.insert(t.id)
        statusCounts[t.userID, default: 1] -= 1
        if let o = t.retweetedID, var original = tweets[o] {
            original.retweetedBy.removeAll { $0 == t.userID }
            tweets[o] = original
        }
        if lastStatusText[t.userID] == t.text { lastStatusText[t.userID] = nil }
        publish(.delete(id: t.id, userID: t.userID))
    }

    func favorite(_ r: SimRequest, _ identity: Identity, create: Bool) -> SimResponse {
        guard let uid = identity.userID else { return Self.forbiddenForApps }
        do {
            let (t, changed) = try setLiked(create, r.param("id").flatMap(UInt64.init) ?? 0, by: uid)
            guard changed else {
                return create ? .error(403, code: 139, "You have already favorited this status.") : Self.v1Answer(.postGone)
            }
            return .json(200, answerEncoder(r, viewer: uid).tweet(t))
        } catch { return Self.v1Answer(error) }
    }
}

/// Snowflake arithmetic for the simulator.
enum Snowflake {
    static func ms(_ id: UInt64) -> UInt64 { (id >> 22) + 1_288_834_974_657 }
}
