import TweetText

/// Posted text as X treats it, on both faces: every link twitter-text finds becomes a t.co link
/// of 23 characters in the text, listed in the post's URL entities with what it stands for.
extension World {
    func wrapLinks(_ text: String) -> (text: String, links: [SimLink]) {
        let found = Extractor.urls(in: text)
        guard !found.isEmpty else { return (text, []) }
        var scalars = Array(text.unicodeScalars)
        var links: [SimLink] = []
        // From the end, so earlier ranges stay where they were.
        for e in found.reversed() {
            let written = e.text
            let lower = written.lowercased()
            let expanded = lower.hasPrefix("http://") || lower.hasPrefix("https://") ? written : "http://" + written
            var display = written
            for prefix in ["https://", "http://"] where display.lowercased().hasPrefix(prefix) { display.removeFirst(prefix.count) }
            if display.lowercased().hasPrefix("www.") { display.removeFirst(4) }
            if display.count > 26 { display = String(display.prefix(26)) + "…" }
            let tco = "https://t.co/" + rng.token(10)
            links.insert(SimLink(tco: tco, expanded: expanded, display: display), at: 0)
            scalars.replaceSubrange(e.range, with: tco.unicodeScalars)
        }
        return (String(String.UnicodeScalarView(scalars)), links)
    }
}
