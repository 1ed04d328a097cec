import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Joining v2 records into `Tweet`s.
extension V2Decoder {
    // MARK: - Joining

    /// The same answer read but not yet joined: its authors may come from elsewhere (a read
    /// that did not expand them, and a lookup of those not already known).
    public func unjoinedPosts(from data: Data) throws -> V2UnjoinedPosts {
        try document(data) { r in
            var e = Envelope()
            try self.envelope(&r, &e, dataIsPosts: true)
            return V2UnjoinedPosts(envelope: e)
        }
    }

    /// Joins posts with their authors: those `includes` carried, then `users`.
    public func join(_ unjoined: V2UnjoinedPosts, users: [UserID: User]) -> V2PostsPage {
        let e = unjoined.envelope
        var page = V2PostsPage()
        page.meta = e.meta
        page.errors = e.errors
        // Authors in `includes` come from the bytes cache: already one object per user.
        let joiner = Joiner(e, users: Self.byID(e.users).merging(users) { carried, _ in carried })
        for (i, raw) in e.posts.enumerated() {
            if let why = Self.oversize(raw) {
                page.problems.append(DecodeProblem(index: i, reason: why))
            } else if let t = joiner.tweet(raw, depth: 0) {
                page.tweets.append(t)
            } else {
                page.problems.append(DecodeProblem(index: i, reason: "post has no id"))
            }
        }
        page.problems += e.dataProblems
        page.billed = unjoined.billed
        return page
    }

    /// Makes `Tweet`s from raw posts and what the answer included.
    struct Joiner {
        let users: [UserID: User]
        let posts: [UInt64: RawPost]
        let media: [String: RawMedia]
        let polls: [String: Poll]

        init(_ e: Envelope, users: [UserID: User]) {
            self.users = users
            posts = e.includedPosts
            media = e.media
            polls = e.polls
        }

        func tweet(_ p: RawPost, depth: Int) -> Tweet? {
            guard let id = p.id, V2Decoder.oversize(p) == nil else { return nil }
            let author = p.authorID.map(UserID.init)
            let user = author.flatMap { users[$0] } ?? User(id: author ?? UserID(0), screenName: "", name: "")
            let long = p.noteText != nil
            let text = p.noteText ?? p.text ?? []
            // A long post's entities are its note's. A note without any borrows the cut's, but
            // only those within the text the two share: the cut's own link and its files' link
            // come after it, and would hide the note's text where they fall.
            let borrowed = long && p.noteEntities == nil
            let raw = (long ? p.noteEntities : nil) ?? p.entities
            // The text's length in code points, counted only when something needs checking.
            let hasRanges = raw.count > 0 || !raw.mediaLinks.isEmpty || !p.mediaKeys.isEmpty || p.displayRange != nil
            let length = hasRanges ? text.withUnsafeBufferPointer(V2Decoder.codePoints) : 0
            var reach = length
            if borrowed && hasRanges {
                reach = (p.text ?? []).withUnsafeBufferPointer { a in
                    text.withUnsafeBufferPointer { V2Decoder.sharedCodePoints(a, $0) }
                }
            }
            func fits(_ r: Range<Int>) -> Bool { r.upperBound <= reach }
            // Media: in the order attached; each at its link in the text when there is one.
            var keys = p.mediaKeys
            for l in raw.mediaLinks where !keys.contains(l.key) { keys.append(l.key) }
            var attached: [Entities.Media] = []
            for key in keys {
                let link = raw.mediaLinks.first { $0.key == key && fits($0.link.range) }?.link
                let m = media[key]
                let target = link?.target ?? m?.url ?? m?.preview ?? ""
                attached.append(
                    Entities.Media(
                        type: m?.type ?? "photo", target: target, display: link?.display ?? target, mediaURL: m?.url ?? m?.preview,
                        range: link?.range ?? length..<length, width: m?.width ?? 0, height: m?.height ?? 0,
                        altText: m?.alt.flatMap { $0.isEmpty ? nil : $0 }, durationMs: m?.durationMs ?? 0))
            }
            var retweeted: Tweet?
            var quoted: Tweet?
            if depth < V2Decoder.maxDepth {
                retweeted = p.retweeted.flatMap { posts[$0] }.flatMap { tweet($0, depth: depth + 1) }
                quoted = p.quoted.flatMap { posts[$0] }.flatMap { tweet($0, depth: depth + 1) }
            }
            let replyUser = p.inReplyToUserID.map(UserID.init)
            // Without `created_at`, the time is in the id (a Snowflake: milliseconds since
            // 2010-11-04 01:42:54.657 UTC, shifted left 22 bits).
            let created = p.createdAt ?? Int64(((id >> 22) + 1_288_834_974_657) / 1000)
            // The history runs oldest first and ends with the newest version: those before this
            // one it replaces; a later one, if any, replaces it.
            let conversation = p.conversationID.flatMap { $0 == id ? nil : TweetID($0) }
            var extras: TweetExtras?
            let limited = p.replySettings.flatMap { $0 == "everyone" || $0.isEmpty ? nil : $0 }
            let poll = p.pollIDs.lazy.compactMap { polls[$0] }.first
            if long || conversation != nil || !p.withheldIn.isEmpty || p.withheldCopyright || limited != nil || poll != nil
                || p.editsOther(than: id)
            {
                let history = p.editHistory
                let position = history.firstIndex(of: id) ?? history.count
                let newest = history.last.flatMap { $0 == id || !history.contains(id) ? nil : TweetID($0) }
                extras = TweetExtras(
                    olderVersions: history[..<position].map(TweetID.init), newestVersion: newest, conversationID: conversation,
                    withheldIn: p.withheldIn, withheldForCopyright: p.withheldCopyright, isLongPost: long, replySettings: limited,
                    poll: poll)
            }
            return text.withUnsafeBufferPointer { text in
                raw.withPacking(media: attached, within: reach) { packed in
                    Tweet(
                        id: TweetID(id), createdAt: created, user: user, textBytes: text, entities: .packed(packed),
                        displayRange: long ? nil : p.displayRange.flatMap { fits($0) ? $0 : nil },
                        inReplyToStatusID: p.repliedTo.map(TweetID.init),
                        inReplyToUserID: replyUser,
                        inReplyToScreenName: replyUser.flatMap { users[$0]?.screenName }, retweetedStatus: retweeted, quotedStatus: quoted,
                        quotedStatusID: p.quoted.map(TweetID.init), retweetCount: p.retweetCount, favoriteCount: p.likeCount,
                        isFavorited: false, isRetweeted: false, isTruncated: p.retweeted != nil && retweeted == nil, lang: p.lang,
                        extras: extras)
                }
            }
        }
    }
}
