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

    func update(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let uid = identity.userID, let author = users[uid] else { return Self.forbiddenForApps }
        guard let status = r.param("status"), !status.isEmpty else {
            return .error(400, code: 170, "Missing required parameter: status.")
        }
        let length = TweetLength(status)
        guard length.weightedLength <= 280 else { return .error(403, code: 186, "Tweet needs to be a bit shorter.") }
        guard lastStatusText[uid] != status else { return .error(403, code: 187, "Status is a duplicate.") }
        var t = SimTweet(id: nextID(), userID: uid, text: status, createdAtMs: 0)
        t.createdAtMs = Snowflake.ms(t.id)
        (t.text, t.links) = wrapLinks(status)
        if let url = r.param("attachment_url") {
            // A quote: the address of a post, which the text does not count.
            guard url.contains("/status/"), let last = url.split(separator: "/").last, let q = UInt64(last), tweets[q] != nil,
                !deleted.contains(q)
            else { return .error(400, code: 44, "attachment_url parameter is invalid.") }
            t.quotedID = q
        }
        if let ids = r.param("media_ids"), !ids.isEmpty {
            guard let attached = attachments(ids.split(separator: ",").map(String.init), owner: uid) else {
                return .error(400, code: 324, "Some of the submitted media IDs are invalid.")
            }
            t.media = attached
        }
        if let parentText = r.param("in_reply_to_status_id"), let parentID = UInt64(parentText) {
            guard let parent = tweets[parentID], !deleted.contains(parentID), let parentAuthor = users[parent.userID] else {
                return .error(403, code: 385, "You attempted to reply to a Tweet that is deleted or not visible to you.")
            }
            let auto = Self.truthy(r.param("auto_populate_reply_metadata"))
            let mentionsParent = Extractor.mentions(in: status).contains {
                if case .mention(let name, _) = $0.kind { return name.lowercased() == parentAuthor.screenName.lowercased() }
                return false
            }
            if auto {
                // Leading mentions of the conversation are added and hidden by display_text_range.
                var names = [parentAuthor.screenName]
                for m in mentionsByTweet[parentID] ?? [] where m != author.screenName.lowercased() {
                    if let u = user(named: m), !names.contains(u.screenName) { names.append(u.screenName) }
                }
                names.removeAll { $0.lowercased() == author.screenName.lowercased() }
                let prefix = names.map { "@" + $0 + " " }.joined()
                t.text = prefix + status
                t.hiddenPrefixCount = prefix.unicodeScalars.count
            }
            if auto || mentionsParent {
                t.inReplyToStatusID = parentID
                t.inReplyToUserID = parent.userID
                t.inReplyToScreenName = parentAuthor.screenName
            }
        }
        lastStatusText[uid] = status
        insert(t)
        publish(.tweet(t))
        return .json(200, answerEncoder(r, viewer: uid).tweet(t))
    }

    func retweet(_ r: SimRequest, _ identity: Identity, id: String?) -> SimResponse {
        guard let uid = identity.userID, let me = users[uid] else { return Self.forbiddenForApps }
        guard let target = id.flatMap(UInt64.init), var original = tweets[target], !deleted.contains(target) else {
            return .error(404, code: 144, "No status found with that ID.")
        }
        if let inner = original.retweetedID, let o = tweets[inner] { original = o }
        guard !original.retweetedBy.contains(uid) else { return .error(403, code: 327, "You have already retweeted this Tweet.") }
        guard let originalAuthor = users[original.userID] else { return .error(404, code: 144, "No status found with that ID.") }
        original.retweetedBy.append(uid)
        tweets[original.id] = original
        var t = SimTweet(
            id: nextID(), userID: me.id, text: "RT @\(originalAuthor.screenName): " + original.text, createdAtMs: 0,
            retweetedID: original.id)
        t.createdAtMs = Snowflake.ms(t.id)
        insert(t)
        publish(.tweet(t))
        return .json(200, answerEncoder(r, viewer: uid).tweet(t))
    }

    func unretweet(_ r: SimRequest, _ identity: Identity, id: String?) -> SimResponse {
        guard let uid = identity.userID else { return Self.forbiddenForApps }
        guard let target = id.flatMap(UInt64.init), var original = tweets[target] else {
            return .error(404, code: 144, "No status found with that ID.")
        }
        if let inner = original.retweetedID, let o = tweets[inner] { original = o }
        if let mine = liveTweetsNewestFirst().first(where: { $0.userID == uid && $0.retweetedID == original.id }) {
            deleted.insert(mine.id)
            statusCounts[uid, default: 1] -= 1
            original.retweetedBy.removeAll { $0 == uid }
            tweets[original.id] = original
            publish(.delete(id: mine.id, userID: uid))
        }
        return .json(200, answerEncoder(r, viewer: uid).tweet(original))
    }

    func destroy(_ r: SimRequest, _ identity: Identity, id: String?) -> SimResponse {
        guard let uid = identity.userID else { return Self.forbiddenForApps }
        guard let target = id.flatMap(UInt64.init), let t = tweets[target], !deleted.contains(target) else {
            return .error(404, code: 144, "No status found with that ID.")
        }
        guard t.userID == uid else { return .error(403, code: 183, "You may not delete another user's status.") }
        let body = answerEncoder(r, viewer: uid).tweet(t)
        remove(t)
        return .json(200, body)
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
        guard let target = r.param("id").flatMap(UInt64.init), var t = tweets[target], !deleted.contains(target) else {
            return .error(404, code: 144, "No status found with that ID.")
        }
        if create {
            guard !t.favoritedBy.contains(uid) else { return .error(403, code: 139, "You have already favorited this status.") }
            t.favoritedBy.append(uid)
        } else {
            guard t.favoritedBy.contains(uid) else { return .error(404, code: 144, "No status found with that ID.") }
            t.favoritedBy.removeAll { $0 == uid }
        }
        tweets[target] = t
        return .json(200, answerEncoder(r, viewer: uid).tweet(t))
    }
}

/// Snowflake arithmetic for the simulator.
enum Snowflake {
    static func ms(_ id: UInt64) -> UInt64 { (id >> 22) + 1_288_834_974_657 }
}
