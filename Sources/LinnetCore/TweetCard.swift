import Screen
import TweetText
import TwitterAPI

/// A tweet laid out as lines for a pane of a given width: who (and who retweeted), when, the
/// text wrapped by display width with mentions, hashtags and links highlighted, a quoted tweet
/// indented, and the counts.
public enum TweetCard {
    /// Columns left of the text: the selection bar and a space.
    public static let gutter = 2

    /// Lines of text a card shows; a longer post ends in a line saying how many more there are,
    /// and the reader (`whole`) shows them all.
    public static let maxTextLines = 40

    /// The whole post, every line of its text, for the reader overlay (cached like a card).
    public static func wholeLines(_ tweet: Tweet, width: Int, theme: Theme, now: Double) -> [StyledLine] {
        let key = CardCache.Key(
            tweet: ObjectIdentifier(tweet), width: width, theme: theme.fingerprint, age: cacheAge(tweet, now: now), kind: .whole)
        if let hit = CardCache.shared.lookup(key, tweet) { return hit }
        let made = layout(tweet, width: width, theme: theme, now: now, whole: true)
        CardCache.shared.store(key, tweet, made)
        return made
    }

    /// What of the time a card shows: its age, and a poll's time left (part of its cache key).
    static func cacheAge(_ tweet: Tweet, now: Double) -> CardCache.Age {
        CardCache.Age(
            stamp: Format.ageStamp(created: tweet.content.createdAt, now: now),
            poll: tweet.content.extras?.poll.map { Words.pollFooter($0, now: now) })
    }

    /// Whether the card leaves lines of the text out (the reader shows them).
    public static func isCut(_ tweet: Tweet, width: Int) -> Bool {
        textLineCount(tweet, width: max(10, width - gutter)) > maxTextLines
    }

    /// Lines the text wraps to at `w` columns: counted once per post and width (styles never
    /// change where text wraps), shared by the card and `isCut`; 0 for a text too short to fill a card.
    static func textLineCount(_ tweet: Tweet, width w: Int, body spans: [Span]? = nil) -> Int {
        // Few enough scalars and line ends cannot fill the lines: a grapheme is 2 columns at most,
        // and a word wrapped early leaves at most half a line empty.
        let t = tweet.content.text
        let scalars = t.unicodeScalars.count
        if scalars < 4096, 2 * (t.utf8.reduce(0, { $0 + ($1 == 10 ? 1 : 0) }) + 1) + (4 * scalars) / w + 1 <= maxTextLines {
            return 0
        }
        let key = CardCache.Key(tweet: ObjectIdentifier(tweet), width: w, theme: 0, age: CardCache.Age(), kind: .textLines)
        if let known = CardCache.shared.height(key, tweet) { return known }
        let count = TextLayout.lineCount(spans ?? body(CardCache.shared.displayText(tweet.content), theme: .fallback), width: w)
        CardCache.shared.storeHeight(key, tweet, count)
        return count
    }

    public static func lines(_ tweet: Tweet, width: Int, theme: Theme, now: Double) -> [StyledLine] {
        let age = cacheAge(tweet, now: now)
        let key = CardCache.Key(tweet: ObjectIdentifier(tweet), width: width, theme: theme.fingerprint, age: age)
        if let hit = CardCache.shared.lookup(key, tweet) { return hit }
        let made = layout(tweet, width: width, theme: theme, now: now)
        CardCache.shared.store(key, tweet, made)
        CardCache.shared.storeHeight(CardCache.Key(tweet: key.tweet, width: width, theme: 0, age: age), tweet, made.count)
        return made
    }

    /// Lines the card takes at `width`: what scrolling needs (styles never change where text
    /// wraps). In the frame's theme, when it is known, the card itself is asked for (and laid
    /// out if the cache has dropped it), so the frame finds it ready; without one, the height
    /// alone is kept.
    public static func height(_ tweet: Tweet, width: Int, now: Double, theme: Theme? = nil) -> Int {
        if let theme { return lines(tweet, width: width, theme: theme, now: now).count }
        let age = cacheAge(tweet, now: now)
        let key = CardCache.Key(tweet: ObjectIdentifier(tweet), width: width, theme: 0, age: age)
        if let known = CardCache.shared.height(key, tweet) { return known }
        let lines = layout(tweet, width: width, theme: .fallback, now: now).count
        CardCache.shared.storeHeight(key, tweet, lines)
        return lines
    }

    static func layout(_ tweet: Tweet, width: Int, theme: Theme, now: Double, whole: Bool = false) -> [StyledLine] {
        let w = max(10, width - gutter)
        let content = tweet.content
        var out: [StyledLine] = []
        if tweet.retweetedStatus != nil {
            out.append(StyledLine([Span("↻ " + clean(tweet.user.name) + " retweeted", theme[.retweetMarker])]))
        }
        out.append(header(content, width: w, theme: theme, now: now))
        if let x = content.extras, !x.withheldIn.isEmpty || x.withheldForCopyright {
            out += TextLayout.wrap(
                [Span(Words.withheld(in: x.withheldIn.map(clean), copyright: x.withheldForCopyright), theme[.dim])], width: w)
        }
        // The text is made ready once, for its line count and for its lines.
        let text = body(CardCache.shared.displayText(content), theme: theme)
        let total = whole ? 0 : textLineCount(tweet, width: w, body: text)
        if total <= maxTextLines {
            out += TextLayout.wrap(text, width: w)
        } else {
            out += TextLayout.wrap(text, width: w, limit: maxTextLines)
            out.append(StyledLine([Span(Words.moreLines(total - maxTextLines), theme[.dim])]))
        }
        // Its photos, GIF or video, each on a line: kind, place, size, alt text (`o` lists them).
        let media = content.entities.media
        for (i, m) in media.enumerated() {
            let label = Words.media(
                m.type, index: i + 1, of: media.count, width: Int(m.width), height: Int(m.height),
                alt: m.altText.map(clean), durationMs: Int(m.durationMs))
            out += TextLayout.wrap([Span(label, theme[.url].linked(Hyperlinks.id(for: m.mediaURL ?? m.target)))], width: w)
        }
        // Its poll, every choice, so the post says all it asks.
        if let poll = content.extras?.poll {
            for c in poll.choices {
                out += TextLayout.wrap(
                    [Span(Words.pollChoice(clean(c.label), votes: c.votes, total: poll.totalVotes), theme[.text])], width: w)
            }
            out.append(StyledLine([Span(TextLayout.truncate(Words.pollFooter(poll, now: now), width: w), theme[.dim])]))
        }
        if content.quotedStatus == nil, content.quotedStatusID != nil {
            // X sent the quote's id but not the post (deleted, or not visible to this account).
            out.append(StyledLine([Span("┃ ", theme[.border]), Span(Words.quotedUnavailable, theme[.dim].over(theme[.quote]))]))
        }
        if let q = content.quotedStatus {
            let quoted =
                [Span("@" + clean(q.user.screenName) + ": ", theme[.handle].over(theme[.quote]))]
                + body(q.content.displayText, theme: theme).map { Span($0.text, $0.style.over(theme[.quote])) }
            var qLines = TextLayout.wrap(quoted, width: w - 2)
            if qLines.count > 3 {
                qLines = Array(qLines.prefix(3))
                qLines[2].spans.append(Span("…", theme[.quote]))
            }
            out += qLines.map { StyledLine([Span("┃ ", theme[.border])] + $0.spans) }
        }
        return out
    }

    /// `Name @handle · 5m ↩ @other` on the left, counts on the right when they fit.
    static func header(_ t: Tweet, width: Int, theme: Theme, now: Double) -> StyledLine {
        var right: [Span] = []
        if t.retweetCount > 0 || t.isRetweeted {
            right.append(Span("↻ " + Format.count(t.retweetCount), t.isRetweeted ? theme[.retweetMarker] : theme[.counts]))
        }
        if t.favoriteCount > 0 || t.isFavorited {
            if !right.isEmpty { right.append(Span("  ", theme[.counts])) }
            right.append(Span("♥ " + Format.count(t.favoriteCount), t.isFavorited ? theme[.counterOver] : theme[.counts]))
        }
        let rightWidth = columns(of: right)
        var tail: [Span] = [Span(" · " + Format.age(created: t.createdAt, now: now), theme[.time])]
        if t.extras.map({ !$0.olderVersions.isEmpty }) ?? false { tail.append(Span(" · " + Words.edited, theme[.time])) }
        if let to = t.inReplyToScreenName { tail.append(Span(" ↩ @" + clean(to), theme[.replyMarker])) }
        let handle = Span(" @" + clean(t.user.screenName), theme[.handle])
        let fixed = columns(of: [handle] + tail)
        let room = width - fixed - (rightWidth > 0 ? rightWidth + 1 : 0)
        var left: [Span]
        if room >= 4 {
            left = [Span(TextLayout.truncate(clean(t.user.name), width: room), theme[.name])] + [handle] + tail
        } else {
            left = [
                Span(
                    TextLayout.truncate(clean(t.user.name) + " @" + clean(t.user.screenName), width: max(1, width - rightWidth - 1)),
                    theme[.name])
            ]
        }
        let leftWidth = columns(of: left)
        guard rightWidth > 0 && leftWidth + 1 + rightWidth <= width else { return StyledLine(left) }
        return StyledLine(left + [Span(String(repeating: " ", count: width - leftWidth - rightWidth), theme[.text])] + right)
    }

    /// Columns spans take, measured without laying out a line.
    static func columns(of spans: [Span]) -> Int { spans.reduce(0) { $0 + Screen.width(of: $1.text) } }

    /// The display text as spans, highlights styled by kind.
    static func body(_ d: DisplayText, theme: Theme) -> [Span] {
        var cut = ScalarSlicer(d.text)
        var spans: [Span] = []
        var at = 0
        for h in d.highlights.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where h.range.lowerBound >= at {
            if h.range.lowerBound > at { spans.append(Span(String(cut.slice(at..<h.range.lowerBound)), theme[.text])) }
            let style: Style
            switch h.kind {
            // A link leads where it expands to (OSC 8, where the terminal takes it).
            case .url(let target), .media(let target): style = theme[.url].linked(Hyperlinks.id(for: target))
            case .mention: style = theme[.mention]
            case .hashtag: style = theme[.hashtag]
            }
            spans.append(Span(String(cut.slice(h.range)), style))
            at = h.range.upperBound
        }
        let rest = cut.slice(at..<Int.max)
        if !rest.isEmpty { spans.append(Span(String(rest), theme[.text])) }
        return spans
    }

    /// Network text on its way to the screen: no control or bidi-override characters.
    public static func clean(_ s: String) -> String { Sanitizer.sanitize(s) }
}
