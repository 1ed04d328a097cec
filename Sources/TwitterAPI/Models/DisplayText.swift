import TweetText

/// Text ready for the screen: HTML entities decoded, t.co links replaced by their display URL,
/// everything sanitised, and the entities' highlight ranges moved to match.
public struct DisplayText: Equatable, Sendable {
    /// What a highlighted range is.
    public enum Kind: Equatable, Sendable {
        /// A link; `target` is the expanded URL (or the t.co URL when Twitter gave none).
        case url(target: String)
        case media(target: String)
        case mention(screenName: String)
        case hashtag(String)
    }

    /// A highlighted range, in code points of `text`.
    public struct Highlight: Equatable, Sendable {
        public var kind: Kind
        public var range: Range<Int>
        public init(kind: Kind, range: Range<Int>) {
            self.kind = kind
            self.range = range
        }
    }

    public var text: String
    public var highlights: [Highlight]

    public init(text: String, highlights: [Highlight]) {
        self.text = text
        self.highlights = highlights
    }
}

extension Tweet {
    /// The text to show for this tweet (for a retweet, call it on `content`).
    public var displayText: DisplayText {
        let text = self.text
        let visible = clampedDisplayRange(count: text.unicodeScalars.count)
        let entities = self.entities

        struct Mark {
            var range: Range<Int>
            var replacement: String?
            var kind: DisplayText.Kind
        }
        var marks: [Mark] = []
        for u in entities.urls {
            marks.append(Mark(range: u.range, replacement: u.display, kind: .url(target: u.target)))
        }
        // A media link is not shown in the text (the card lists the media), as X does.
        for m in entities.media {
            marks.append(Mark(range: m.range, replacement: "", kind: .media(target: m.target)))
        }
        // A post without URL entities (a server that sent none): the links twitter-text finds
        // in its text lead where they say.
        if entities.urls.isEmpty {
            for e in Extractor.urls(in: text) where !marks.contains(where: { $0.range.overlaps(e.range) }) {
                let lower = e.text.lowercased()
                let target = lower.hasPrefix("http://") || lower.hasPrefix("https://") ? e.text : "http://" + e.text
                marks.append(Mark(range: e.range, replacement: nil, kind: .url(target: target)))
            }
        }
        for m in entities.mentions { marks.append(Mark(range: m.range, replacement: nil, kind: .mention(screenName: m.screenName))) }
        for h in entities.hashtags { marks.append(Mark(range: h.range, replacement: nil, kind: .hashtag(h.text))) }
        marks.sort { $0.range.lowerBound < $1.range.lowerBound }

        var cut = ScalarSlicer(text)
        var out = ""
        var outCount = 0
        var highlights: [DisplayText.Highlight] = []
        var cursor = visible.lowerBound
        func append(_ raw: Substring) {
            let clean = Sanitizer.sanitize(HTMLEntities.decode(String(raw)))
            out += clean
            outCount += clean.unicodeScalars.count
        }
        for mark in marks {
            // Entities outside the visible part, overlapping an earlier one, or past the end of a
            // (truncated) text are left as plain text.
            guard mark.range.lowerBound >= cursor, mark.range.upperBound <= visible.upperBound,
                !mark.range.isEmpty
            else { continue }
            append(cut.slice(cursor..<mark.range.lowerBound))
            let start = outCount
            append(mark.replacement.map { Substring($0) } ?? cut.slice(mark.range))
            if outCount > start { highlights.append(DisplayText.Highlight(kind: mark.kind, range: start..<outCount)) }
            cursor = mark.range.upperBound
        }
        append(cut.slice(cursor..<visible.upperBound))
        // The space left before a hidden media link at the end goes with it.
        while !entities.media.isEmpty, out.unicodeScalars.last == " ",
            highlights.last.map({ $0.range.upperBound < outCount }) ?? true
        {
            out.unicodeScalars.removeLast()
            outCount -= 1
        }
        return DisplayText(text: out, highlights: highlights)
    }

    private func clampedDisplayRange(count: Int) -> Range<Int> {
        guard let r = displayRange else { return 0..<count }
        let lower = min(max(0, r.lowerBound), count)
        return lower..<min(max(lower, r.upperBound), count)
    }
}
