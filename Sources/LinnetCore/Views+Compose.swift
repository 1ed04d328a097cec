import FoundationEssentials
import Screen
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The compose box: what it answers, its count, its text with the part past the limit marked.
extension Views {
    // MARK: - Compose

    static func replyContext(_ s: AppState, _ c: Context, _ t: Theme) -> [StyledLine] {
        var out: [StyledLine] = []
        for (id, mark) in [(s.compose?.replyTo, "↩ "), (s.compose?.quote, "┃ ")] {
            guard let id, let tweet = c.snapshot.tweets[id]?.content else { continue }
            let first = tweet.displayText.text.split(separator: "\n").first.map(String.init) ?? ""
            out.append(
                StyledLine([
                    Span(mark, mark == "↩ " ? t[.replyMarker] : t[.border]),
                    Span("@" + TweetCard.clean(tweet.user.screenName) + ": ", t[.handle]),
                    Span(TextLayout.truncate(first, width: max(1, s.width - 6 - Screen.width(of: tweet.user.screenName))), t[.quote]),
                ]))
        }
        return out
    }

    static func compose(_ screen: inout Screen, _ r: Rect, _ reply: [StyledLine], _ s: AppState, _ c: Context, _ t: Theme) {
        guard let box = s.compose else { return }
        screen.fill(r, style: t[.text])
        let text = box.editor.text
        let length = TweetLength(text)
        // A message counts characters against X's 10,000; a tweet is weighed as twitter-text
        // does; in a thread, the tweet the caret is in.
        let (part, parts, partText) = threadPosition(box)
        let remaining =
            box.to != nil
            ? TwitterClient.messageLimit - box.editor.characters.count : TweetLength(box.thread ? partText : text).remaining()
        let title =
            box.sending
            ? c.upload.map(Words.uploading) ?? (box.thread ? Words.sendingThread(box.threadSent, of: parts) : " Sending… ")
            : box.to.map { Words.messageTitle(TweetCard.clean($0.screenName)) }
                ?? (box.thread
                    ? Words.threadTitle(part: part, of: parts)
                    : box.quote != nil ? " Quote " : box.replyTo == nil ? " New tweet " : " Reply ")
        let count = " \(remaining) "
        // Top border: ── New tweet ───── 245 ──
        var x = screen.put("──", x: r.x, y: r.y, style: t[.border])
        x = screen.put(title, x: x, y: r.y, style: t[.title])
        let countX = r.maxX - 2 - Screen.width(of: count)
        while x < countX { x = screen.put("─", x: x, y: r.y, style: t[.border]) }
        x = screen.put(count, x: countX, y: r.y, style: remaining < 0 ? t[.counterOver] : t[.counter])
        screen.put("──", x: x, y: r.y, style: t[.border])
        var y = r.y + 1
        for l in reply where y < r.maxY - 1 {
            screen.put(l, x: r.x + 1, y: y)
            y += 1
        }
        // The files to post, each on a line, while there is room for a line of text below.
        for (i, f) in box.media.enumerated() where y < r.maxY - 2 {
            let line = TextLayout.truncate(
                TweetCard.clean(Words.attachment(f, index: i + 1, of: box.media.count)), width: max(1, r.width - 2))
            screen.put(line, x: r.x + 1, y: y, style: t[.url].over(t[.text]))
            y += 1
        }
        // The text, wrapped; what lies past the valid range is marked.
        let width = max(1, r.width - 2)
        let (rows, caret) = box.editor.layout(width: width)
        // A thread's tweets are each checked on sending; the count above is the caret's tweet.
        let over = box.thread ? Int.max : box.to == nil ? overLimitStart(box.editor.characters, length) : TwitterClient.messageLimit
        // A refusal is shown whole, wrapped, above the footer (up to half the box).
        let errorLines =
            box.error.map { TextLayout.wrap([Span(TweetCard.clean($0), t[.statusError].over(t[.text]))], width: max(1, r.width - 2)) } ?? []
        let errorRows = errorLines.isEmpty ? 0 : min(errorLines.count, max(1, r.maxY - 2 - y))
        let visible = max(1, r.maxY - 1 - errorRows - y)
        let first = max(0, min(rows.count - visible, caret.row - visible + 1))
        for (n, row) in rows.enumerated().dropFirst(first).prefix(visible) {
            var col = r.x + 1
            for i in row {
                let ch = box.editor.characters[i]
                col = screen.put(String(ch), x: col, y: y + n - first, style: i >= over ? t[.overLimit] : t[.text])
            }
        }
        if !box.sending { screen.cursor = (r.x + 1 + caret.col, y + caret.row - first) }
        for (i, l) in errorLines.prefix(errorRows).enumerated() {
            screen.put(l, x: r.x + 1, y: r.maxY - 1 - errorRows + i, clip: r)
        }
        var keys =
            "\(c.keyMap.keys(for: .send, in: .compose).first ?? "enter") send · \(c.keyMap.keys(for: .newline, in: .compose).first ?? "alt-enter") new line · \(c.keyMap.keys(for: .cancel, in: .compose).first ?? "esc") close (draft kept)"
        if box.to == nil, let attach = c.keyMap.keys(for: .attach, in: .compose).first { keys += " · \(attach) attach" }
        var bx = screen.put("── ", x: r.x, y: r.maxY - 1, style: t[.border])
        bx = screen.put(TextLayout.truncate(keys, width: max(1, r.width - 6)), x: bx, y: r.maxY - 1, style: t[.dim])
        bx = screen.put(" ", x: bx, y: r.maxY - 1, style: t[.border])
        while bx < r.maxX { bx = screen.put("─", x: bx, y: r.maxY - 1, style: t[.border]) }
    }

    /// In a thread box: the tweet the caret is in (from 1), how many there are, and its text.
    static func threadPosition(_ box: Compose) -> (Int, Int, String) {
        guard box.thread else { return (1, 1, box.editor.text) }
        let parts = Reducer.threadParts(box.editor.text)
        let before = String(box.editor.characters.prefix(box.editor.caret))
        let part = min(parts.count, Reducer.threadParts(before).count)
        return (part, parts.count, parts[part - 1])
    }

    /// The index of the first character past the valid range (UTF-16 offsets to characters).
    static func overLimitStart(_ chars: [Character], _ length: TweetLength) -> Int {
        guard length.remaining() < 0 else { return chars.count }
        var utf16 = 0
        for (i, ch) in chars.enumerated() {
            if utf16 > length.validRange.upperBound { return i }
            utf16 += ch.utf16.count
        }
        return chars.count
    }
}
