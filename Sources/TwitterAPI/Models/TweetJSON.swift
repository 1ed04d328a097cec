import TweetText

/// Linnet's own JSON of a tweet (`--json`): the same fields whichever API it came from, so a
/// script does not change when an account moves from v1.1 to v2.
extension Tweet {
    public var linnetJSON: JSONValue {
        var f: [(String, JSONValue)] = [
            ("id", .string(id.description)),
            ("url", .string("https://x.com/\(user.screenName)/status/\(id)")),
            ("created_at", .string(TwitterDate.formatISO(createdAt))),
            ("author", user.linnetJSON),
        ]
        // A retweet says who retweeted and when; what it says is the original's.
        if let original = retweetedStatus {
            f.append(("retweet_of", original.linnetJSON))
            return .object(f)
        }
        f.append(("text", .string(expandedText)))
        if let l = lang { f.append(("lang", .string(l))) }
        if let r = inReplyToStatusID {
            var reply: [(String, JSONValue)] = [("id", .string(r.description))]
            if let name = inReplyToScreenName { reply.append(("screen_name", .string(name))) }
            f.append(("reply_to", .object(reply)))
        }
        if let c = extras?.conversationID { f.append(("conversation_id", .string(c.description))) }
        if let q = quotedStatus {
            f.append(("quoted", q.linnetJSON))
        } else if let q = quotedStatusID {
            f.append(("quoted", .object([("id", .string(q.description))])))
        }
        f.append(("links", .array(entities.urls.map { .string($0.target) })))
        f.append(("mentions", .array(entities.mentions.map { .string($0.screenName) })))
        f.append(("hashtags", .array(entities.hashtags.map { .string(($0.isSymbol ? "$" : "#") + $0.text) })))
        f.append(
            (
                "media",
                .array(
                    entities.media.map { m in
                        var o: [(String, JSONValue)] = [("type", .string(m.type)), ("link", .string(m.target))]
                        if let u = m.mediaURL { o.append(("url", .string(u))) }
                        return .object(o)
                    })
            ))
        f.append(("likes", .number(String(favoriteCount))))
        f.append(("retweets", .number(String(retweetCount))))
        f.append(("liked", .bool(isFavorited)))
        f.append(("retweeted", .bool(isRetweeted)))
        if let e = extras {
            if !e.olderVersions.isEmpty { f.append(("edited", .bool(true))) }
            if !e.withheldIn.isEmpty { f.append(("withheld_in", .array(e.withheldIn.map(JSONValue.string)))) }
        }
        return .object(f)
    }

    /// The whole text with HTML entities decoded and each t.co link replaced by where it
    /// leads; nothing else changed (the JSON escapes what a terminal must not see).
    public var expandedText: String {
        let scalars = Array(text.unicodeScalars)
        var replacements: [(Range<Int>, String)] =
            entities.urls.map { ($0.range, $0.target) } + entities.media.map { ($0.range, $0.target) }
        replacements.sort { $0.0.lowerBound < $1.0.lowerBound }
        var out = ""
        var cursor = 0
        func raw(_ r: Range<Int>) -> String {
            var v = String.UnicodeScalarView()
            v.append(contentsOf: scalars[r])
            return HTMLEntities.decode(String(v))
        }
        for (range, target) in replacements where range.lowerBound >= cursor && range.upperBound <= scalars.count && !range.isEmpty {
            out += raw(cursor..<range.lowerBound) + target
            cursor = range.upperBound
        }
        return out + raw(cursor..<scalars.count)
    }
}

extension User {
    public var linnetJSON: JSONValue {
        .object([
            ("id", .string(id.description)), ("screen_name", .string(screenName)), ("name", .string(name)),
            ("verified", .bool(isVerified)), ("protected", .bool(isProtected)),
        ])
    }
}
