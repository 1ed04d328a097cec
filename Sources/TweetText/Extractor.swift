/// Extraction of URLs, @mentions and #hashtags with code-point ranges.
public enum Extractor {
    /// URLs with and without protocol.
    public static func urls(in text: String) -> [TextEntity] {
        // A domain is two labels at least, joined by a full stop.
        guard text.utf8.contains(0x2E) else { return [] }
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
        let scalars = Array(text.unicodeScalars)
        let urls = URLExtractor(scalars.map(\.value)).extract()
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
