import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

extension Tweet {
    /// A copy with new like and retweet state: an optimistic update moves the counts with the
    /// flags; a flag laid on a server's answer (`counts: false`) keeps its counts, which already
    /// hold the like or repost.
    func with(favorited: Bool? = nil, retweeted: Bool? = nil, counts: Bool = true) -> Tweet {
        let f = favorited ?? isFavorited
        let r = retweeted ?? isRetweeted
        return Tweet(
            id: id, createdAt: createdAt, user: user, text: text, displayRange: displayRange, entities: entities,
            inReplyToStatusID: inReplyToStatusID, inReplyToUserID: inReplyToUserID,
            inReplyToScreenName: inReplyToScreenName, retweetedStatus: retweetedStatus, quotedStatus: quotedStatus,
            quotedStatusID: quotedStatusID,
            retweetCount: counts ? max(0, retweetCount + (r == isRetweeted ? 0 : (r ? 1 : -1))) : retweetCount,
            favoriteCount: counts ? max(0, favoriteCount + (f == isFavorited ? 0 : (f ? 1 : -1))) : favoriteCount,
            isFavorited: f, isRetweeted: r, isTruncated: isTruncated, lang: lang, extras: extras)
    }

    /// This tweet with `content` in place of what it shows (a retweet whose original changed).
    func replacingContent(_ content: Tweet) -> Tweet {
        guard retweetedStatus != nil else { return content }
        return Tweet(
            id: id, createdAt: createdAt, user: user, text: text, displayRange: displayRange, entities: entities,
            inReplyToStatusID: inReplyToStatusID, inReplyToUserID: inReplyToUserID,
            inReplyToScreenName: inReplyToScreenName, retweetedStatus: content, quotedStatus: quotedStatus,
            quotedStatusID: quotedStatusID, retweetCount: content.retweetCount, favoriteCount: content.favoriteCount,
            isFavorited: content.isFavorited, isRetweeted: content.isRetweeted, isTruncated: isTruncated, lang: lang,
            extras: extras)
    }
}
