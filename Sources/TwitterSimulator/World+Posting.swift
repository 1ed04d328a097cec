import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// A post as the world takes it, whichever API asked: the v1.1 and v2 routers parse their
/// request into one and encode the answer (or the refusal) in their own form. The posting rules
/// live here once.
struct NewPost {
    var text: String
    var replyTo: UInt64?
    var quote: UInt64?
    var mediaIDs: [String] = []
    var replySettings: String?
    /// v1.1's `auto_populate_reply_metadata`: the conversation's mentions are put before the
    /// text and hidden by `display_text_range`.
    var fillInMentions = false
    /// v1.1 keeps a reply's link only where the text mentions the author (or the mentions were
    /// filled in); v2 always keeps it.
    var replyNeedsMention = false
    /// v2 applies the parent's `reply_settings` and the key's access level.
    var checksAccess = false
}

/// Why the world did not take a post (or a like, a repost, a delete).
enum WorldRefusal: Error, Equatable {
    case tooLong
    case duplicate
    case badMedia
    case replyTargetGone
    case replyNotAllowed
    case quoteTargetGone
    case notOnTier
    case postGone
    case notYours
    /// A follow, mute or block of someone the world does not hold, or of oneself.
    case userGone
    case isSelf
    /// A follow of someone who blocks the follower.
    case blockedByThem
    /// A mute taken back that was not there.
    case notMuting
}

extension World {
    /// Creates a post by `uid` by the posting rules: at most 280 weighted characters, not the
    /// author's last text again, media the author uploaded, a reply to a post still there (and
    /// open to the author's reply), a quote of a post still there.
    func createPost(_ p: NewPost, by uid: UInt64) throws(WorldRefusal) -> SimTweet {
        guard let attached = attachments(p.mediaIDs, owner: uid) else { throw .badMedia }
        guard TweetLength(p.text).weightedLength <= 280 else { throw .tooLong }
        guard lastStatusText[uid] != p.text else { throw .duplicate }
        if p.quote != nil, p.checksAccess, selfServe { throw .notOnTier }
        var t = SimTweet(id: nextID(), userID: uid, text: p.text, createdAtMs: 0)
        t.createdAtMs = Snowflake.ms(t.id)
        (t.text, t.links) = wrapLinks(p.text)
        if !attached.isEmpty { t.media = attached }
        t.replySettings = p.replySettings
        if let parentID = p.replyTo {
            guard let parent = tweets[parentID], !deleted.contains(parentID), let parentAuthor = users[parent.userID] else {
                throw .replyTargetGone
            }
            if p.checksAccess, !replyAllowed(by: uid, to: parent) { throw .replyNotAllowed }
            if p.fillInMentions { fillInMentions(&t, parent: parent, parentAuthor: parentAuthor, by: uid) }
            let mentionsParent = Extractor.mentions(in: p.text).contains {
                if case .mention(let name, _) = $0.kind { return name.lowercased() == parentAuthor.screenName.lowercased() }
                return false
            }
            if !p.replyNeedsMention || p.fillInMentions || mentionsParent {
                t.inReplyToStatusID = parentID
                t.inReplyToUserID = parent.userID
                t.inReplyToScreenName = parentAuthor.screenName
            }
        }
        if let q = p.quote {
            guard tweets[q] != nil, !deleted.contains(q) else { throw .quoteTargetGone }
            t.quotedID = q
        }
        lastStatusText[uid] = p.text
        insert(t)
        publish(.tweet(t))
        return t
    }

    /// The conversation's mentions before the text, hidden by `display_text_range`.
    private func fillInMentions(_ t: inout SimTweet, parent: SimTweet, parentAuthor: SimUser, by uid: UInt64) {
        let me = users[uid]?.screenName.lowercased() ?? ""
        var names = [parentAuthor.screenName]
        for m in mentionsByTweet[parent.id] ?? [] where m != me {
            if let u = user(named: m), !names.contains(u.screenName) { names.append(u.screenName) }
        }
        names.removeAll { $0.lowercased() == me }
        let prefix = names.map { "@" + $0 + " " }.joined()
        t.text = prefix + t.text
        t.hiddenPrefixCount = prefix.unicodeScalars.count
    }

    /// A repost by `uid` of a post (of the original, when it is a repost itself); nil when it is
    /// already reposted by them.
    func repost(_ id: UInt64, by uid: UInt64) throws(WorldRefusal) -> SimTweet? {
        guard var original = tweets[id], !deleted.contains(id) else { throw .postGone }
        if let inner = original.retweetedID, let o = tweets[inner] { original = o }
        guard let author = users[original.userID] else { throw .postGone }
        guard !original.retweetedBy.contains(uid) else { return nil }
        original.retweetedBy.append(uid)
        tweets[original.id] = original
        var t = SimTweet(
            id: nextID(), userID: uid, text: "RT @\(author.screenName): " + original.text, createdAtMs: 0, retweetedID: original.id)
        t.createdAtMs = Snowflake.ms(t.id)
        insert(t)
        publish(.tweet(t))
        return t
    }

    /// Takes back `uid`'s repost of a post; the original, as it now stands.
    func unrepost(_ id: UInt64, by uid: UInt64) throws(WorldRefusal) -> SimTweet {
        guard var original = tweets[id] else { throw .postGone }
        if let inner = original.retweetedID, let o = tweets[inner] { original = o }
        if let mine = liveTweetsNewestFirst().first(where: { $0.userID == uid && $0.retweetedID == original.id }) {
            remove(mine)
            original = tweets[original.id] ?? original
        }
        return original
    }

    /// A like made or taken back; the post as it now stands, and whether anything changed.
    func setLiked(_ on: Bool, _ id: UInt64, by uid: UInt64) throws(WorldRefusal) -> (post: SimTweet, changed: Bool) {
        guard var t = tweets[id], !deleted.contains(id) else { throw .postGone }
        let had = t.favoritedBy.contains(uid)
        if on, !had { t.favoritedBy.append(uid) }
        if !on { t.favoritedBy.removeAll { $0 == uid } }
        tweets[id] = t
        return (t, had != on)
    }

    /// Deletes `uid`'s own post; the answer is made from the post as it was, before it goes.
    func deletePost(_ id: UInt64, by uid: UInt64, answer: (SimTweet) -> SimResponse) throws(WorldRefusal) -> SimResponse {
        guard let t = tweets[id], !deleted.contains(id) else { throw .postGone }
        guard t.userID == uid else { throw .notYours }
        let response = answer(t)
        remove(t)
        return response
    }

    /// A follow made or taken back; refused where the other blocks `uid` (v1.1 says so; v2's
    /// contract names no refusal for it).
    func setFollowing(_ on: Bool, _ other: UInt64, by uid: UInt64, refusingBlocked: Bool) throws(WorldRefusal) {
        guard users[other] != nil, var me = users[uid] else { throw .userGone }
        guard other != uid else { throw .isSelf }
        if on {
            if refusingBlocked, blocking[other]?.contains(uid) ?? false { throw .blockedByThem }
            if !me.following.contains(other) {
                me.following.append(other)
                followerCounts[other, default: 0] += 1
            }
        } else if me.following.contains(other) {
            me.following.removeAll { $0 == other }
            followerCounts[other, default: 1] -= 1
        }
        users[uid] = me
    }

    /// A mute made or taken back; with `strict`, taking back one that is not there is refused.
    func setMuted(_ on: Bool, _ other: UInt64, by uid: UInt64, strict: Bool) throws(WorldRefusal) {
        guard users[other] != nil else { throw .userGone }
        guard other != uid else { throw .isSelf }
        if on {
            muting[uid, default: []].insert(other)
        } else if muting[uid]?.remove(other) == nil, strict {
            throw .notMuting
        }
    }
}
