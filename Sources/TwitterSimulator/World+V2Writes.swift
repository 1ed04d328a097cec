import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// API v2 writes: posts (replies, quotes, media), deletes, likes and reposts.
extension World {
    /// The JSON object of a v2 write's body, or the problem to answer.
    static func jsonBody(_ r: SimRequest) -> Result<[String: Any], SimResponse> {
        guard (r.headers["content-type"] ?? "").lowercased().hasPrefix("application/json") else {
            return .failure(problem(415, "Unsupported Media Type", "The request body must be JSON (Content-Type: application/json)."))
        }
        guard let object = ContractValue.object(r.body) else {
            return .failure(invalidRequest("body", "The request body is not a JSON object"))
        }
        return .success(object)
    }

    func v2Create(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let uid = identity.userID, users[uid] != nil else { return Self.v2Forbidden("Posting needs a user's token.") }
        let body: [String: Any]
        switch Self.jsonBody(r) {
        case .failure(let e): return e
        case .success(let b): body = b
        }
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
        guard let attached = attachments(mediaIDs, owner: uid) else {
            return Self.invalidRequest("media.media_ids", "Your media IDs are invalid.")
        }
        guard TweetLength(text).weightedLength <= 280 else { return Self.v2Forbidden("Your Tweet text is too long.") }
        guard lastStatusText[uid] != text else { return Self.v2Forbidden("You are not allowed to create a Tweet with duplicate content.") }
        var t = SimTweet(id: nextID(), userID: uid, text: text, createdAtMs: 0)
        t.createdAtMs = Snowflake.ms(t.id)
        (t.text, t.links) = wrapLinks(text)
        if !attached.isEmpty { t.media = attached }
        t.replySettings = replySettings
        if quote != nil, selfServe { return notOnTier() }
        if let replyTo {
            guard let parent = tweets[replyTo], !deleted.contains(replyTo), let author = users[parent.userID] else {
                return Self.invalidRequest("reply.in_reply_to_tweet_id", "The post you are replying to is deleted or not visible to you.")
            }
            guard replyAllowed(by: uid, to: parent) else { return Self.replyNotAllowed }
            t.inReplyToStatusID = replyTo
            t.inReplyToUserID = parent.userID
            t.inReplyToScreenName = author.screenName
        }
        if let quote {
            guard tweets[quote] != nil, !deleted.contains(quote) else {
                return Self.invalidRequest("quote_tweet_id", "The post you are quoting is deleted or not visible to you.")
            }
            t.quotedID = quote
        }
        lastStatusText[uid] = text
        insert(t)
        publish(.tweet(t))
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

    func v2Delete(_ r: SimRequest, _ identity: Identity, id: String) -> SimResponse {
        guard let uid = identity.userID else { return Self.v2Forbidden("Deleting needs a user's token.") }
        guard let v = UInt64(id), let t = tweets[v], !deleted.contains(v) else {
            return Self.problem(
                404, "Not Found Error", "Could not find tweet with id: [\(id)].",
                type: "https://api.twitter.com/2/problems/resource-not-found")
        }
        guard t.userID == uid else { return Self.v2Forbidden("You are not allowed to delete a Tweet you did not create.") }
        remove(t)
        chargeDelete()
        return .json(200, .object([("data", .object([("deleted", .bool(true))]))]))
    }

    /// Likes and reposts: `POST /2/users/:id/likes {"tweet_id"}`, `DELETE …/likes/:tweet_id`,
    /// and the same under `retweets`.
    func v2Engage(_ r: SimRequest, _ identity: Identity, userID: String, target: String?, like: Bool) -> SimResponse {
        let uid: UInt64
        switch acting(identity, userID) {
        case .failure(let e): return e
        case .success(let u): uid = u
        }
        if like, selfServe { return notOnTier() }
        let key = like ? "liked" : "retweeted"
        let tweetID: UInt64
        switch self.target(r, "tweet_id", given: target) {
        case .failure(let e): return e
        case .success(let v): tweetID = v
        }
        guard var t = tweets[tweetID], !deleted.contains(tweetID) else {
            return Self.problem(
                404, "Not Found Error", "Could not find tweet with id: [\(tweetID)].",
                type: "https://api.twitter.com/2/problems/resource-not-found")
        }
        let create = target == nil
        chargeInteraction()
        if like {
            if create, !t.favoritedBy.contains(uid) { t.favoritedBy.append(uid) }
            if !create { t.favoritedBy.removeAll { $0 == uid } }
            tweets[tweetID] = t
        } else if create, !t.retweetedBy.contains(uid), let author = users[t.userID] {
            t.retweetedBy.append(uid)
            tweets[tweetID] = t
            var rt = SimTweet(id: nextID(), userID: uid, text: "RT @\(author.screenName): " + t.text, createdAtMs: 0, retweetedID: tweetID)
            rt.createdAtMs = Snowflake.ms(rt.id)
            insert(rt)
            publish(.tweet(rt))
        } else if !create, let mine = liveTweetsNewestFirst().first(where: { $0.userID == uid && $0.retweetedID == tweetID }) {
            remove(mine)
        }
        return .json(200, .object([("data", .object([(key, .bool(create))]))]))
    }
}
