import TweetText

/// Writes tweets and users in the v1.1 shapes of the recorded payloads: compatibility mode
/// (text cut to 140 with a permalink), extended mode (`full_text`, `display_text_range`), and
/// stream payloads (compatibility plus `extended_tweet`). Indices count code points of the
/// HTML-escaped text.
struct TweetEncoder {
    enum Mode { case compat, extended, stream }

    let world: WorldSnapshot
    var viewer: UInt64?
    var mode: Mode
    var trimUser = false
    var includeEntities = true

    /// What the encoder reads from the world.
    struct WorldSnapshot {
        var users: [UInt64: SimUser]
        var userByName: [String: UInt64]
        var tweets: [UInt64: SimTweet]
        var followerCounts: [UInt64: Int]
        var statusCounts: [UInt64: Int]
        var muting: [UInt64: Set<UInt64>] = [:]
        var blocking: [UInt64: Set<UInt64>] = [:]
    }

    static let compatLimit = 140

    func tweet(_ t: SimTweet, depth: Int = 0) -> J {
        let author = world.users[t.userID]
        let escaped = Array(Self.textWithFiles(t).unicodeScalars)
        let fullEntities = entities(t, escaped: escaped, upTo: escaped.count)
        var fields: [(String, J)] = [
            ("created_at", .string(Self.date(t.createdAtMs))), ("id", .uint(t.id)), ("id_str", .string(String(t.id))),
        ]
        let long = t.text.unicodeScalars.count > Self.compatLimit
        let original = t.retweetedID.flatMap { world.tweets[$0] }
        switch mode {
        case .extended:
            fields.append(("full_text", .string(String(String.UnicodeScalarView(escaped)))))
            fields.append(("truncated", .bool(false)))
            fields.append(("display_text_range", .array([.int(min(t.hiddenPrefixCount, escaped.count)), .int(escaped.count)])))
            if includeEntities { fields.append(("entities", fullEntities)) }
        case .compat, .stream:
            if long && original == nil {
                let (text, ents) = truncated(t, escaped: escaped)
                fields.append(("text", .string(text)))
                fields.append(("truncated", .bool(true)))
                if includeEntities || mode == .stream { fields.append(("entities", ents)) }
                if mode == .stream {
                    fields.append(
                        (
                            "extended_tweet",
                            .object([
                                ("full_text", .string(String(String.UnicodeScalarView(escaped)))),
                                ("display_text_range", .array([.int(t.hiddenPrefixCount), .int(escaped.count)])),
                                ("entities", fullEntities),
                            ])
                        ))
                }
            } else {
                fields.append(("text", .string(String(String.UnicodeScalarView(escaped)))))
                fields.append(("truncated", .bool(false)))
                if includeEntities || mode == .stream { fields.append(("entities", fullEntities)) }
            }
        }
        if let media = mediaEntities(t, escaped: escaped), includeEntities || mode == .stream {
            fields.append(("extended_entities", .object([("media", media)])))
        }
        fields.append(("source", .string(t.source)))
        fields.append(("in_reply_to_status_id", t.inReplyToStatusID.map { .uint($0) } ?? .null))
        fields.append(("in_reply_to_status_id_str", t.inReplyToStatusID.map { .string(String($0)) } ?? .null))
        fields.append(("in_reply_to_user_id", t.inReplyToUserID.map { .uint($0) } ?? .null))
        fields.append(("in_reply_to_user_id_str", t.inReplyToUserID.map { .string(String($0)) } ?? .null))
        fields.append(("in_reply_to_screen_name", t.inReplyToScreenName.map { .string($0) } ?? .null))
        if let author {
            fields.append(("user", trimUser ? .object([("id", .uint(author.id)), ("id_str", .string(String(author.id)))]) : user(author)))
        }
        fields += [("geo", .null), ("coordinates", .null), ("place", .null), ("contributors", .null)]
        if let original, depth < 2 { fields.append(("retweeted_status", tweet(original, depth: depth + 1))) }
        let quoted = t.quotedID.flatMap { world.tweets[$0] }
        fields.append(("is_quote_status", .bool(t.quotedID != nil)))
        if let q = t.quotedID {
            fields.append(("quoted_status_id", .uint(q)))
            fields.append(("quoted_status_id_str", .string(String(q))))
            if let quoted, depth < 1 { fields.append(("quoted_status", tweet(quoted, depth: depth + 1))) }
        }
        let counted = original ?? t
        fields.append(("retweet_count", .int(counted.retweetedBy.count)))
        fields.append(("favorite_count", .int(counted.favoritedBy.count)))
        fields.append(("favorited", .bool(viewer.map { counted.favoritedBy.contains($0) } ?? false)))
        fields.append(("retweeted", .bool(viewer.map { counted.retweetedBy.contains($0) } ?? false)))
        if !t.links.isEmpty { fields.append(("possibly_sensitive", .bool(false))) }
        fields.append(("lang", .string(t.lang)))
        if mode == .stream {
            fields.append(("timestamp_ms", .string(String(t.createdAtMs))))
            fields.append(("filter_level", .string("low")))
        }
        return .object(fields)
    }

    func user(_ u: SimUser) -> J {
        .object([
            ("id", .uint(u.id)), ("id_str", .string(String(u.id))), ("name", .string(u.name)),
            ("screen_name", .string(u.screenName)), ("location", .string(u.location)),
            ("description", .string(u.description)), ("url", .null),
            ("entities", .object([("description", .object([("urls", .array([]))]))])),
            ("protected", .bool(u.isProtected)), ("followers_count", .int(world.followerCounts[u.id] ?? 0)),
            ("friends_count", .int(u.following.count)), ("listed_count", .int(0)),
            ("created_at", .string(Self.date(u.createdAtMs))), ("favourites_count", .int(0)),
            ("verified", .bool(u.isVerified)), ("statuses_count", .int(world.statusCounts[u.id] ?? 0)),
            ("lang", .null),
            ("profile_image_url_https", .string("https://pbs.twimg.invalid/profile_images/\(u.id)/\(u.screenName)_normal.png")),
            ("default_profile", .bool(true)),
            ("following", viewer.map { v in .bool(world.users[v]?.following.contains(u.id) ?? false) } ?? .null),
        ])
    }

    /// Entities of the escaped text that end by `upTo`.
    func entities(_ t: SimTweet, escaped: [Unicode.Scalar], upTo limit: Int) -> J {
        let text = String(String.UnicodeScalarView(escaped))
        var urls: [J] = []
        var searchFrom = 0
        for link in t.links {
            let pattern = Array(link.tco.unicodeScalars)
            guard let start = Self.find(pattern, in: escaped, from: searchFrom), start + pattern.count <= limit else { continue }
            searchFrom = start + pattern.count
            urls.append(
                .object([
                    ("url", .string(link.tco)), ("expanded_url", .string(link.expanded)),
                    ("display_url", .string(link.display)),
                    ("indices", .array([.int(start), .int(start + pattern.count)])),
                ]))
        }
        let mentions: [J] =
            t.retweetedID != nil && mode != .extended
            ? []
            : Extractor.mentions(in: text).compactMap { e in
                guard e.range.upperBound <= limit, case .mention(let name, _) = e.kind,
                    let u = world.userByName[name.lowercased()].flatMap({ world.users[$0] })
                else { return nil }
                return .object([
                    ("screen_name", .string(u.screenName)), ("name", .string(u.name)), ("id", .uint(u.id)),
                    ("id_str", .string(String(u.id))), ("indices", .array([.int(e.range.lowerBound), .int(e.range.upperBound)])),
                ])
            }
        let hashtags: [J] = Extractor.hashtags(in: text).compactMap { e in
            guard e.range.upperBound <= limit, case .hashtag(let tag) = e.kind else { return nil }
            return .object([("text", .string(tag)), ("indices", .array([.int(e.range.lowerBound), .int(e.range.upperBound)]))])
        }
        var out: [(String, J)] = [
            ("hashtags", .array(hashtags)), ("symbols", .array([])), ("user_mentions", .array(mentions)),
            ("urls", .array(urls)),
        ]
        // `entities.media` holds the first file only; `extended_entities` has them all.
        if let link = Self.mediaLink(t), let start = Self.find(Array(link.unicodeScalars), in: escaped, from: 0),
            start + link.unicodeScalars.count <= limit, case .array(let all)? = mediaEntities(t, escaped: escaped), let first = all.first
        {
            out.append(("media", .array([first])))
        }
        return .object(out)
    }

    /// `s` made `n` long: zeros added on the right, or cut.
    static func zeroFilled(_ s: String, _ n: Int) -> String {
        s.count >= n ? String(s.prefix(n)) : s + String(repeating: "0", count: n - s.count)
    }

    /// The escaped text as X sends it: a post with files ends with one t.co link to them.
    static func textWithFiles(_ t: SimTweet) -> String { escape(t.text) + (mediaLink(t).map { " " + $0 } ?? "") }

    /// What X shows of that link.
    static func mediaDisplay(_ link: String) -> String { "pic.x.com/" + String(link.suffix(10)) }

    /// The t.co link X puts at the end of a post with files.
    static func mediaLink(_ t: SimTweet) -> String? {
        guard let m = t.media, !m.isEmpty else { return nil }
        return "https://t.co/m" + Self.zeroFilled(String(t.id % 1_000_000_000, radix: 36), 9)
    }

    /// The page that shows a post's files: `…/photo/1` for each of them, as X writes it (a
    /// recorded post with four photos: Tests/Fixtures/api/streaming/lines.json).
    static func mediaPage(_ t: SimTweet, author: SimUser, _ m: SimAttachment) -> String {
        "https://x.com/\(author.screenName)/status/\(t.id)/\(m.kind == "video" ? "video" : "photo")/1"
    }

    /// The files of a post as v1.1 lists them, each with the same indices (the one link).
    func mediaEntities(_ t: SimTweet, escaped: [Unicode.Scalar]) -> J? {
        guard let link = Self.mediaLink(t), let media = t.media, let author = world.users[t.userID] else { return nil }
        let pattern = Array(link.unicodeScalars)
        guard let start = Self.find(pattern, in: escaped, from: 0) else { return nil }
        return .array(
            media.enumerated().map { i, m in
                let id = t.id &+ UInt64(i) &+ 1
                var fields: [(String, J)] = [
                    ("id", .uint(id)), ("id_str", .string(String(id))), ("indices", .array([.int(start), .int(start + pattern.count)])),
                    ("media_url_https", .string("https://pbs.twimg.invalid/media/\(m.key).\(m.ext ?? "jpg")")), ("url", .string(link)),
                    ("display_url", .string(Self.mediaDisplay(link))),
                    ("expanded_url", .string(Self.mediaPage(t, author: author, m))),
                    ("type", .string(m.kind)),
                    ("original_info", .object([("width", .int(m.width ?? 1200)), ("height", .int(m.height ?? 800))])),
                ]
                if let alt = m.altText { fields.append(("ext_alt_text", .string(alt))) }
                if m.kind != "photo" { fields.append(("video_info", videoInfo(m))) }
                return .object(fields)
            })
    }

    /// A video's or GIF's `video_info` as v1.1 gives it: its shape, its length (videos only),
    /// and one MP4 file.
    func videoInfo(_ m: SimAttachment) -> J {
        let (w, h) = (m.width ?? 1200, m.height ?? 800)
        var g = max(1, w)
        var b = max(1, h)
        while b != 0 { (g, b) = (b, g % b) }
        var fields: [(String, J)] = [("aspect_ratio", .array([.int(Int64(max(1, w) / g)), .int(Int64(max(1, h) / g))]))]
        if m.kind == "video", let d = m.durationMs { fields.append(("duration_millis", .int(Int64(d)))) }
        let file = "https://video.twimg.invalid/\(m.kind == "video" ? "ext_tw_video" : "tweet_video")/\(m.key).mp4"
        var variant: [(String, J)] = [("content_type", .string("video/mp4")), ("url", .string(file))]
        if m.kind == "video" { variant.insert(("bitrate", .int(832_000)), at: 0) }
        fields.append(("variants", .array([.object(variant)])))
        return .object(fields)
    }

    /// Compatibility text: the first part, `…`, a space and a permalink, 140 code points in all.
    func truncated(_ t: SimTweet, escaped: [Unicode.Scalar]) -> (String, J) {
        let permalink = SimLink(
            tco: "https://t.co/" + Self.zeroFilled(String(t.id % 10_000_000_000, radix: 36), 10),
            expanded: "https://twitter.com/i/web/status/\(t.id)",
            display: "twitter.com/i/web/status/" + String(String(t.id).prefix(1)) + "…")
        var cut = Self.compatLimit - 2 - permalink.tco.count
        // Never cut through an entity: back off to its start.
        let text = String(String.UnicodeScalarView(escaped))
        let spans =
            Extractor.entities(in: text).map(\.range)
            + t.links.compactMap { l in Self.find(Array(l.tco.unicodeScalars), in: escaped, from: 0).map { $0..<($0 + l.tco.count) } }
        for s in spans where s.contains(cut) && s.lowerBound < cut { cut = s.lowerBound }
        let head = String(String.UnicodeScalarView(escaped[0..<cut]))
        let body = head + "… " + permalink.tco
        var withLink = t
        withLink.links = t.links + [permalink]
        let bodyScalars = Array(body.unicodeScalars)
        return (body, entities(withLink, escaped: bodyScalars, upTo: bodyScalars.count))
    }

    static func find(_ pattern: [Unicode.Scalar], in text: [Unicode.Scalar], from: Int) -> Int? {
        guard !pattern.isEmpty, text.count >= pattern.count, from <= text.count - pattern.count else { return nil }
        for i in from...(text.count - pattern.count) where text[i] == pattern[0] {
            if Array(text[i..<(i + pattern.count)]) == pattern { return i }
        }
        return nil
    }

    /// Twitter escapes `&`, `<` and `>` in tweet text.
    static func escape(_ s: String) -> String {
        guard s.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return s }
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }

    static func date(_ ms: UInt64) -> String { SimDate.format(Int64(ms / 1000)) }
}
