/// Extraction of URLs, @mentions and #hashtags with code-point ranges.
public enum Extractor {
    /// Whether the text holds the ASCII byte, or the fullwidth form EF BC `wide`.
    static func holds(_ text: String, _ ascii: UInt8, wide: UInt8) -> Bool {
        var text = text
        return text.withUTF8 { holds($0, ascii, wide: wide) }
    }

    static func holds(_ bytes: UnsafeBufferPointer<UInt8>, _ ascii: UInt8, wide: UInt8) -> Bool {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == ascii { return true }
            if b == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBC, bytes[i + 2] == wide { return true }
            i += 1
        }
        return false
    }

    /// Whether a full stop is followed by what a top-level domain begins with (an ASCII letter,
    /// or a non-ASCII one): every domain has one. Prose ends its sentences with ". ", and
    /// reading it for links cost a sixth of laying out a card.
    static func mayHoldDomain(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { b in
            var i = 0
            while i + 1 < b.count {
                if b[i] == 0x2E {
                    let c = b[i + 1] | 0x20
                    if (c >= 0x61 && c <= 0x7A) || b[i + 1] >= 0x80 { return true }
                }
                i += 1
            }
            return false
        }
    }

    /// URLs with and without protocol.
    public static func urls(in text: String) -> [TextEntity] {
        guard mayHoldDomain(text) else { return [] }
        let scalars = Array(text.unicodeScalars)
        return URLExtractor(scalars.map(\.value)).extract().map {
            TextEntity(kind: .url, text: scalars.string($0), range: $0)
        }
    }

    /// `@name` mentions, without list references.
    public static func mentions(in text: String) -> [TextEntity] {
        mentionsOrLists(in: text).filter {
            if case .mention(_, let slug) = $0.kind { return slug.isEmpty }
            return false
        }
    }

    /// `@name` mentions and `@name/list` references.
    public static func mentionsOrLists(in text: String) -> [TextEntity] {
        // Every mention begins with @ or ＠ (U+FF20: EF BC A0).
        guard holds(text, 0x40, wide: 0xA0) else { return [] }
        let scalars = Array(text.unicodeScalars)
        return MentionExtractor(scalars.map(\.value)).extract().map { f in
            TextEntity(
                kind: .mention(
                    screenName: scalars.string(f.nameRange),
                    listSlug: f.slugRange.map { scalars.string($0) } ?? ""),
                text: scalars.string(f.range), range: f.range)
        }
    }

    /// `#hashtags`, leaving out those inside URLs.
    public static func hashtags(in text: String) -> [TextEntity] {
        // Every hashtag begins with # or ＃ (U+FF03: EF BC 83).
        guard holds(text, 0x23, wide: 0x83) else { return [] }
        let scalars = Array(text.unicodeScalars)
        // A tag inside a link is none; a text without a full stop before a letter holds no link.
        let urls = mayHoldDomain(text) ? URLExtractor(scalars.map(\.value)).extract() : []
        return HashtagExtractor(scalars).extract().filter { tag in
            !urls.contains { $0.overlaps(tag) }
        }.map { r in
            TextEntity(kind: .hashtag(scalars.string((r.lowerBound + 1)..<r.upperBound)), text: scalars.string(r), range: r)
        }
    }

    /// All entities, ordered by position, overlapping ones dropped (the earlier one wins).
    public static func entities(in text: String) -> [TextEntity] {
        let all = (urls(in: text) + mentionsOrLists(in: text) + hashtags(in: text))
            .sorted { $0.range.lowerBound < $1.range.lowerBound }
        var kept: [TextEntity] = []
        for e in all where kept.last.map({ $0.range.upperBound <= e.range.lowerBound }) ?? true {
            kept.append(e)
        }
        return kept
    }
}
