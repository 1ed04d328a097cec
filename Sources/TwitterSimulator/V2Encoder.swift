import Bedrock
import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// What a v2 request asked for: fields per object and expansions. v2 sends only these (plus
/// each object's defaults), so the simulator does too.
struct V2Fields {
    var tweet: Set<String>
    var user: Set<String>
    var poll: Set<String> = []
    var media: Set<String> = []
    var expansions: Set<String>

    init(_ r: SimRequest) {
        func set(_ names: String...) -> Set<String> {
            var out = Set<String>()
            for n in names { for v in (r.param(n) ?? "").split(separator: ",") { out.insert(v.trimmed()) } }
            return out
        }
        expansions = set("expansions")
        // An expansion puts the field it follows in `data` too, asked for or not (docs.x.com,
        // "Expansions": `expansions=author_id` alone gives each post its `author_id`).
        tweet = set("tweet.fields", "post.fields").union(expansions.compactMap { Self.fieldOfExpansion[$0] })
        user = set("user.fields").union(expansions.contains("pinned_tweet_id") ? ["pinned_tweet_id"] : [])
        poll = set("poll.fields")
        media = set("media.fields")
    }

    static let fieldOfExpansion = [
        "author_id": "author_id", "in_reply_to_user_id": "in_reply_to_user_id", "referenced_tweets.id": "referenced_tweets",
        "referenced_tweets.id.author_id": "referenced_tweets", "referenced_tweets.id.attachments.media_keys": "referenced_tweets",
        "attachments.media_keys": "attachments",
        "attachments.poll_ids": "attachments", "entities.mentions.username": "entities",
    ]
}

/// Writes posts and users in the shapes of X's v2 contract (version 2.159, Tweet spellings),
/// gathering `includes` as it goes: the authors of the posts written, the posts they reference
/// and those posts' authors, mentioned users and the users replied to, as the expansions ask.
struct V2Encoder {
    let world: TweetEncoder.WorldSnapshot
    let fields: V2Fields
    var viewer: UInt64?
    private(set) var includedUsers: [UInt64] = []
    private(set) var includedTweets: [UInt64] = []

    init(world: TweetEncoder.WorldSnapshot, fields: V2Fields, viewer: UInt64?) {
        self.world = world
        self.fields = fields
        self.viewer = viewer
    }

    static func iso(_ ms: UInt64) -> String { SimDate.iso(Int64(ms / 1000)) }

    /// The first post of the reply chain `t` belongs to.
    func conversation(_ t: SimTweet) -> UInt64 {
        var current = t
        var hops = 0
        while let parent = current.inReplyToStatusID, let p = world.tweets[parent], hops < 1000 {
            current = p
            hops += 1
        }
        return current.id
    }

    mutating func include(user id: UInt64) {
        if world.users[id] != nil, !includedUsers.contains(id) { includedUsers.append(id) }
    }

    private(set) var includedMedia: [SimAttachment] = []
    private(set) var includedPolls: [SimPoll] = []

    mutating func include(tweet id: UInt64) {
        if world.tweets[id] != nil, !includedTweets.contains(id) { includedTweets.append(id) }
    }

    /// A post in `data`; what it references goes to `includes` as the expansions ask.
    mutating func post(_ t: SimTweet) -> J {
        let ex = fields.expansions
        if ex.contains("author_id") { include(user: t.userID) }
        if ex.contains("in_reply_to_user_id"), let u = t.inReplyToUserID { include(user: u) }
        if ex.contains("referenced_tweets.id") {
            for id in [t.retweetedID, t.quotedID, t.inReplyToStatusID].compactMap({ $0 }) {
                include(tweet: id)
                if ex.contains("referenced_tweets.id.author_id"), let ref = world.tweets[id] { include(user: ref.userID) }
                // The files of a quoted or reposted post come only with this expansion.
                if ex.contains("referenced_tweets.id.attachments.media_keys"), let ref = world.tweets[id] {
                    for m in ref.media ?? [] where !includedMedia.contains(m) { includedMedia.append(m) }
                }
            }
        }
        if ex.contains("attachments.media_keys") {
            for m in t.media ?? [] where !includedMedia.contains(m) { includedMedia.append(m) }
        }
        if ex.contains("attachments.poll_ids"), let p = t.poll, !includedPolls.contains(p) { includedPolls.append(p) }
        if ex.contains("entities.mentions.username") {
            for name in mentions(t).map(\.name) { if let id = world.userByName[name.lowercased()] { include(user: id) } }
        }
        return body(t)
    }

    private func mentions(_ t: SimTweet) -> [(name: String, range: Range<Int>)] {
        let text = TweetEncoder.escape(t.text)
        return Extractor.mentions(in: text).compactMap { e in
            if case .mention(let name, _) = e.kind { return (name, e.range) }
            return nil
        }
    }

    /// A post's own fields: the defaults (`id`, `text`, `edit_history_tweet_ids`) and those asked for.
    func body(_ t: SimTweet) -> J {
        let f = fields.tweet
        let escaped = Array(TweetEncoder.textWithFiles(t).unicodeScalars)
        let text = String(String.UnicodeScalarView(escaped))
        var out: [(String, J)] = [("id", .string(String(t.id))), ("text", .string(text))]
        out.append(("edit_history_tweet_ids", .array((t.editHistory ?? [t.id]).map { .string(String($0)) })))
        if f.contains("author_id") { out.append(("author_id", .string(String(t.userID)))) }
        if f.contains("created_at") { out.append(("created_at", .string(Self.iso(t.createdAtMs)))) }
        if f.contains("conversation_id") { out.append(("conversation_id", .string(String(conversation(t))))) }
        if f.contains("in_reply_to_user_id"), let u = t.inReplyToUserID { out.append(("in_reply_to_user_id", .string(String(u)))) }
        if f.contains("lang") { out.append(("lang", .string(t.lang))) }
        if f.contains("possibly_sensitive") { out.append(("possibly_sensitive", .bool(false))) }
        if f.contains("reply_settings") { out.append(("reply_settings", .string(t.replySettings ?? "everyone"))) }
        if f.contains("referenced_tweets") {
            var refs: [J] = []
            if let id = t.retweetedID { refs.append(.object([("type", .string("retweeted")), ("id", .string(String(id)))])) }
            if let id = t.quotedID { refs.append(.object([("type", .string("quoted")), ("id", .string(String(id)))])) }
            if let id = t.inReplyToStatusID { refs.append(.object([("type", .string("replied_to")), ("id", .string(String(id)))])) }
            if !refs.isEmpty { out.append(("referenced_tweets", .array(refs))) }
        }
        if f.contains("public_metrics") {
            let counted = t.retweetedID.flatMap { world.tweets[$0] } ?? t
            let replies = world.tweets.values.filter { $0.inReplyToStatusID == counted.id }.count
            let quotes = world.tweets.values.filter { $0.quotedID == counted.id }.count
            out.append(
                (
                    "public_metrics",
                    .object([
                        ("retweet_count", .int(Int64(counted.retweetedBy.count))), ("reply_count", .int(Int64(replies))),
                        ("like_count", .int(Int64(counted.favoritedBy.count))), ("quote_count", .int(Int64(quotes))),
                        ("bookmark_count", .int(0)), ("impression_count", .int(Int64(counted.favoritedBy.count * 40 + 12))),
                    ])
                ))
        }
        if f.contains("edit_controls") {
            out.append(
                (
                    "edit_controls",
                    .object([
                        ("edits_remaining", .int(5)), ("is_edit_eligible", .bool(t.retweetedID == nil)),
                        ("editable_until", .string(Self.iso(t.createdAtMs + 3_600_000))),
                    ])
                ))
        }
        if f.contains("entities"), let e = entities(t, escaped: escaped, text: text) { out.append(("entities", e)) }
        if f.contains("attachments"), t.media?.isEmpty == false || t.poll != nil {
            var a: [(String, J)] = []
            if let m = t.media, !m.isEmpty { a.append(("media_keys", .array(m.map { .string($0.key) }))) }
            if let p = t.poll { a.append(("poll_ids", .array([.string(String(p.id))]))) }
            out.append(("attachments", .object(a)))
        }
        if f.contains("note_tweet"), let note = t.noteText {
            let noteEscaped = Array(TweetEncoder.escape(note).unicodeScalars)
            let noteText = String(String.UnicodeScalarView(noteEscaped))
            var fields: [(String, J)] = [("text", .string(noteText))]
            if let e = entities(t, escaped: noteEscaped, text: noteText) { fields.append(("entities", e)) }
            out.append(("note_tweet", .object(fields)))
        }
        if f.contains("display_text_range") || (t.hiddenPrefixCount > 0 && f.contains("entities")) {
            // It ends before the files' link, as X's does.
            let shown = Int64(escaped.count - (TweetEncoder.mediaLink(t).map { $0.unicodeScalars.count + 1 } ?? 0))
            out.append(("display_text_range", .array([.int(min(Int64(t.hiddenPrefixCount), shown)), .int(shown)])))
        }
        return .object(out)
    }

    /// Entities by code point on the escaped text, `end` exclusive; nil when there are none.
    private func entities(_ t: SimTweet, escaped: [Unicode.Scalar], text: String) -> J? {
        var urls: [J] = []
        var from = 0
        for link in t.links {
            let pattern = Array(link.tco.unicodeScalars)
            guard let start = TweetEncoder.find(pattern, in: escaped, from: from) else { continue }
            from = start + pattern.count
            urls.append(
                .object([
                    ("start", .int(Int64(start))), ("end", .int(Int64(start + pattern.count))), ("url", .string(link.tco)),
                    ("expanded_url", .string(link.expanded)), ("display_url", .string(link.display)),
                ]))
        }
        // The files' link at the end, once per file with its `media_key`, as v1.1 lists them.
        if let link = TweetEncoder.mediaLink(t), let media = t.media, let author = world.users[t.userID],
            let start = TweetEncoder.find(Array(link.unicodeScalars), in: escaped, from: from)
        {
            for m in media {
                urls.append(
                    .object([
                        ("start", .int(Int64(start))), ("end", .int(Int64(start + link.unicodeScalars.count))), ("url", .string(link)),
                        ("expanded_url", .string(TweetEncoder.mediaPage(t, author: author, m))),
                        ("display_url", .string(TweetEncoder.mediaDisplay(link))), ("media_key", .string(m.key)),
                    ]))
            }
        }
        let mentions: [J] = Extractor.mentions(in: text).compactMap { e in
            guard case .mention(let name, _) = e.kind, let id = world.userByName[name.lowercased()], let u = world.users[id] else {
                return nil
            }
            return .object([
                ("start", .int(Int64(e.range.lowerBound))), ("end", .int(Int64(e.range.upperBound))), ("username", .string(u.screenName)),
                ("id", .string(String(u.id))),
            ])
        }
        let hashtags: [J] = Extractor.hashtags(in: text).compactMap { e in
            guard case .hashtag(let tag) = e.kind else { return nil }
            return .object([("start", .int(Int64(e.range.lowerBound))), ("end", .int(Int64(e.range.upperBound))), ("tag", .string(tag))])
        }
        var out: [(String, J)] = []
        if !urls.isEmpty { out.append(("urls", .array(urls))) }
        if !mentions.isEmpty { out.append(("mentions", .array(mentions))) }
        if !hashtags.isEmpty { out.append(("hashtags", .array(hashtags))) }
        return out.isEmpty ? nil : .object(out)
    }

    /// `data`, then `includes` (when anything was included), `meta` and `errors`.
    func envelope(data: J?, meta: [(String, J)]? = nil, errors: [J] = []) -> J {
        var out: [(String, J)] = []
        if let data { out.append(("data", data)) }
        var includes: [(String, J)] = []
        var tweets: [J] = []
        var extraUsers: [UInt64] = []
        let ex = fields.expansions
        for id in includedTweets {
            guard let t = world.tweets[id] else { continue }
            tweets.append(body(t))
            if ex.contains("referenced_tweets.id.author_id"), !includedUsers.contains(t.userID), !extraUsers.contains(t.userID) {
                extraUsers.append(t.userID)
            }
        }
        let users = (includedUsers + extraUsers).compactMap { world.users[$0] }.map(user)
        if !users.isEmpty { includes.append(("users", .array(users))) }
        if !tweets.isEmpty { includes.append(("tweets", .array(tweets))) }
        if !includedMedia.isEmpty {
            includes.append(("media", .array(includedMedia.map(mediaJSON))))
        }
        if !includedPolls.isEmpty { includes.append(("polls", .array(includedPolls.map(pollJSON)))) }
        if !includes.isEmpty { out.append(("includes", .object(includes))) }
        if !errors.isEmpty { out.append(("errors", .array(errors))) }
        if let meta { out.append(("meta", .object(meta))) }
        return .object(out)
    }
}
