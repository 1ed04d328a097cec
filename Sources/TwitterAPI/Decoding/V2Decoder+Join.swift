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
            e.arena = Array(self.arena.bytes)
            return V2UnjoinedPosts(envelope: e)
        }
    }

    /// Joins posts with their authors: those `includes` carried, then `users`.
    public func join(_ unjoined: V2UnjoinedPosts, users: [UserID: User]) -> V2PostsPage {
        unjoined.envelope.arena.withUnsafeBufferPointer { Self.join(unjoined.envelope, users: users, arena: $0) }
    }

    /// The join, with the arena the envelope's places are in.
    static func join(_ e: Envelope, users: [UserID: User], arena: UnsafeBufferPointer<UInt8>) -> V2PostsPage {
        var page = V2PostsPage()
        page.meta = e.meta
        page.errors = e.errors
        // Authors in `includes` come from the bytes cache: already one object per user.
        let carried = Self.byID(e.users)
        let joiner = Joiner(e, users: users.isEmpty ? carried : carried.merging(users) { carried, _ in carried }, arena: arena)
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
        page.billed = e.billed
        return page
    }

    /// Makes `Tweet`s from raw posts and what the answer included. A class: closures that read
    /// its tables took a copy of a struct of four dictionaries (a generic copy of each).
    final class Joiner {
        let users: [UserID: User]
        let posts: [UInt64: RawPost]
        let media: [String: RawMedia]
        let polls: [String: Poll]
        /// Where the posts' texts and entities lie.
        let arena: UnsafeBufferPointer<UInt8>

        init(_ e: Envelope, users: [UserID: User], arena: UnsafeBufferPointer<UInt8>) {
            self.users = users
            self.arena = arena
            posts = e.includedPosts
            media = e.media
            polls = e.polls
        }

        func tweet(_ p: RawPost, depth: Int) -> Tweet? {
            guard let id = p.id, V2Decoder.oversize(p) == nil else { return nil }
            let author = p.authorID.map(UserID.init)
            let user = author.flatMap { users[$0] } ?? User(id: author ?? UserID(0), screenName: "", name: "")
            let long = p.noteText != nil
            let text = (p.noteText ?? p.text).map { UnsafeBufferPointer(rebasing: arena[$0]) } ?? UnsafeBufferPointer(start: nil, count: 0)
            // A long post's entities are its note's. A note without any borrows the cut's, but
            // only those within the text the two share: the cut's own link and its files' link
            // come after it, and would hide the note's text where they fall.
            let borrowed = long && p.noteEntities == nil
            let raw = (long ? p.noteEntities : nil) ?? p.entities
            // The text's length in code points, counted only when something needs checking.
            let hasRanges = raw.count > 0 || !raw.mediaLinks.isEmpty || !p.mediaKeys.isEmpty || p.displayRange != nil
            let length = hasRanges ? V2Decoder.codePoints(text) : 0
            var reach = length
            if borrowed && hasRanges {
                let cut = p.text.map { UnsafeBufferPointer(rebasing: arena[$0]) } ?? UnsafeBufferPointer(start: nil, count: 0)
                reach = V2Decoder.sharedCodePoints(cut, text)
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
            let conversation = p.conversationID.flatMap { $0 == id ? nil : TweetID($0) }
            var extras: TweetExtras?
            if long || conversation != nil || p.extras != nil || p.editsOther(than: id) {
                extras = self.extras(p, id: id, long: long, conversation: conversation)
            }
            // Read before the packing's closure, which would otherwise copy the post.
            let shownRange = long ? nil : p.displayRange.flatMap { fits($0) ? $0 : nil }
            let replyTo = p.repliedTo.map(TweetID.init)
            let replyName = replyUser.flatMap { users[$0]?.screenName }
            let quotedID = p.quoted.map(TweetID.init)
            let (retweets, likes, lang) = (p.retweetCount, p.likeCount, p.lang)
            let truncated = p.retweeted != nil && retweeted == nil
            return raw.withPacking(media: attached, within: reach, arena: arena) { packed in
                Tweet(
                    id: TweetID(id), createdAt: created, user: user, textBytes: text, entities: .packed(packed), displayRange: shownRange,
                    inReplyToStatusID: replyTo, inReplyToUserID: replyUser, inReplyToScreenName: replyName, retweetedStatus: retweeted,
                    quotedStatus: quoted, quotedStatusID: quotedID, retweetCount: retweets, favoriteCount: likes, isFavorited: false,
                    isRetweeted: false, isTruncated: truncated, lang: lang, extras: extras)
            }
        }

        /// A post's history, conversation, withholding, reply settings and poll; nil when it
        /// has nothing to say beyond the usual.
        private func extras(_ p: RawPost, id: UInt64, long: Bool, conversation: TweetID?) -> TweetExtras? {
            let rare = p.extras?.value
            // Kept only when it limits who may answer (`post(_:)`).
            let limited = rare?.replySettings
            let poll = rare?.pollIDs.lazy.compactMap { self.polls[$0] }.first
            let withheldIn = rare?.withheldIn ?? []
            let copyright = rare?.withheldCopyright ?? false
            guard long || conversation != nil || !withheldIn.isEmpty || copyright || limited != nil || poll != nil || p.editsOther(than: id)
            else { return nil }
            // The history runs oldest first and ends with the newest version: those before this
            // one it replaces; a later one, if any, replaces it.
            let history = p.editHistory
            let position = history.firstIndex(of: id) ?? history.count
            let newest = history.last.flatMap { $0 == id || !history.contains(id) ? nil : TweetID($0) }
            return TweetExtras(
                olderVersions: history[..<position].map(TweetID.init), newestVersion: newest, conversationID: conversation,
                withheldIn: withheldIn, withheldForCopyright: copyright, isLongPost: long, replySettings: limited, poll: poll)
        }
    }
}
