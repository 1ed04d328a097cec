import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// API v2 writes: posts (replies, quotes, media), deletes, likes and reposts.
extension World {
    /// The JSON object of a v2 write's body, or the problem to answer.
    static func jsonBody(_ r: SimRequest) throws(SimResponse) -> [String: Any] {
        guard (r.headers["content-type"] ?? "").lowercased().hasPrefix("application/json") else {
            throw problem(415, "Unsupported Media Type", "The request body must be JSON (Content-Type: application/json).")
        }
        guard let object = ContractValue.object(r.body) else {
            throw invalidRequest("body", "The request body is not a JSON object")
        }
        return object
    }

    func v2Create(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        guard let uid = identity.userID, users[uid] != nil else { return Self.v2Forbidden("Posting needs a user's token.") }
        let body = try Self.jsonBody(r)
        let text = body["text"] as? String ?? ""
        let quote = (body["quote_tweet_id"] as? String).flatMap(UInt64.init)
        let replyTo = ((body["reply"] as? [String: Any])?["in_reply_to_tweet_id"] as? String).flatMap(UInt64.init)
        let mediaIDs = ((body["media"] as? [String: Any])?["media_ids"] as? [String]) ?? []
        let replySettings = body["reply_settings"] as? String
        if let rs = replySettings, !["following", "mentionedUsers", "subscribers", "verified"].contains(rs) {
            return Self.invalidRequest(
                "reply_settings", "The `reply_settings` field value [\(rs)] is not one of [following,mentionedUsers,subscribers,verified]")
        }
        guard !text.isEmpty || quote != nil || !mediaIDs.isEmpty else { return Self.invalidRequest("text", "The `text` field is required") }
        guard mediaIDs.count <= 4 else { return Self.invalidRequest("media.media_ids", "A post may carry at most 4 media.") }
        var post = NewPost(text: text, replyTo: replyTo, quote: quote, mediaIDs: mediaIDs, replySettings: replySettings)
        post.checksAccess = true
        let t: SimTweet
        do { t = try createPost(post, by: uid) } catch { return v2Answer(error) }
        chargeCreate(withURL: !Extractor.urls(in: text).isEmpty)
        return .json(
            201,
            .object([
                (
                    "data",
                    .object([
                        ("id", .string(String(t.id))), ("text", .string(TweetEncoder.escape(t.text))),
                        ("edit_history_tweet_ids", .array([.string(String(t.id))])),
                    ])
                )
            ]))
    }

    /// v2's answer to a refusal of the world's.
    func v2Answer(_ refusal: WorldRefusal, id: String = "", user: UInt64 = 0) -> SimResponse {
        switch refusal {
        case .badMedia: Self.invalidRequest("media.media_ids", "Your media IDs are invalid.")
        case .tooLong: Self.v2Forbidden("Your Tweet text is too long.")
        case .duplicate: Self.v2Forbidden("You are not allowed to create a Tweet with duplicate content.")
        case .notOnTier: notOnTier()
        case .replyTargetGone:
            Self.invalidRequest("reply.in_reply_to_tweet_id", "The post you are replying to is deleted or not visible to you.")
        case .replyNotAllowed: Self.replyNotAllowed
        case .quoteTargetGone: Self.invalidRequest("quote_tweet_id", "The post you are quoting is deleted or not visible to you.")
        case .postGone:
            Self.problem(
                404, "Not Found Error", "Could not find tweet with id: [\(id)].",
                type: "https://api.twitter.com/2/problems/resource-not-found")
        case .notYours: Self.v2Forbidden("You are not allowed to delete a Tweet you did not create.")
        // v2 answers a user it will not act on as not found (oneself included).
        case .userGone, .isSelf, .blockedByThem, .notMuting:
            Self.problem(
                404, "Not Found Error", "Could not find user with id: [\(user)].",
                type: "https://api.twitter.com/2/problems/resource-not-found")
        }
    }

    func v2Delete(_ r: SimRequest, _ identity: Identity, id: String) -> SimResponse {
        guard let uid = identity.userID else { return Self.v2Forbidden("Deleting needs a user's token.") }
        do {
            let answer = try deletePost(UInt64(id) ?? 0, by: uid) { _ in
                .json(200, .object([("data", .object([("deleted", .bool(true))]))]))
            }
            chargeDelete()
            return answer
        } catch { return v2Answer(error, id: id) }
    }

    /// Likes and reposts: `POST /2/users/:id/likes {"tweet_id"}`, `DELETE …/likes/:tweet_id`,
    /// and the same under `retweets`.
    func v2Engage(_ r: SimRequest, _ identity: Identity, userID: String, target: String?, like: Bool) throws(SimResponse) -> SimResponse {
        let uid = try acting(identity, userID)
        if like, selfServe { return notOnTier() }
        let key = like ? "liked" : "retweeted"
        let tweetID = try self.target(r, "tweet_id", given: target)
        guard tweets[tweetID] != nil, !deleted.contains(tweetID) else { return v2Answer(.postGone, id: String(tweetID)) }
        let create = target == nil
        chargeInteraction()
        do {
            if like {
                _ = try setLiked(create, tweetID, by: uid)
            } else if create {
                _ = try repost(tweetID, by: uid)
            } else {
                _ = try unrepost(tweetID, by: uid)
            }
        } catch { return v2Answer(error, id: String(tweetID)) }
        return .json(200, .object([("data", .object([(key, .bool(create))]))]))
    }
}
