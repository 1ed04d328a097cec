import Screen
import TwitterAPI

/// An overlay owns the rows it covers: the pane beneath is cleared beside the box (no text,
/// and no wide character cut by its edges, shows there), then the box is filled.
extension Views {
    static func overlay(_ screen: inout Screen, _ box: Rect, _ s: AppState, _ t: Theme, style: Style) {
        screen.fill(Rect(x: 0, y: box.y, width: s.width, height: box.height), style: t[.text])
        screen.fill(box, style: style)
    }
}

/// The reader: a post too long for its card, whole, in a box over the pane.
extension Views {
    static func readerBox(_ s: AppState) -> Rect {
        let w = min(s.width - 2, 100)
        return Rect(x: (s.width - w) / 2, y: 1, width: w, height: max(3, s.height - 2))
    }

    static func readerRows(_ s: AppState, _ c: Context, theme: Theme = .fallback) -> [StyledLine] {
        guard let id = s.reading?.id, let tweet = c.snapshot.tweets[id] else { return [] }
        return TweetCard.wholeLines(tweet, width: readerBox(s).width - 2, theme: theme, now: s.shownNow)
    }

    static func reader(_ screen: inout Screen, _ s: AppState, _ c: Context, _ t: Theme) {
        let box = readerBox(s)
        overlay(&screen, box, s, t, style: t[.text])
        let close = c.keyMap.keys(for: .cancel, in: .help).prefix(2)
        screen.put(
            TextLayout.truncate(Words.readerTitle(closeKeys: Array(close)), width: box.width - 2), x: box.x + 1, y: box.y,
            style: t[.helpKey])
        let rows = readerRows(s, c, theme: t)
        let top = min(s.reading?.top ?? 0, max(0, rows.count - 1))
        var y = box.y + 1
        for line in rows[top...] where y < box.maxY {
            screen.put(line, x: box.x + 1, y: y, clip: box)
            y += 1
        }
    }
}
