import FoundationEssentials
import Screen
import Timeline
import TweetText

/// The link picker and the log of notices, drawn over the panes.
extension Views {
    /// The `o` picker: each link in full where it fits (cut at the end only when wider than the
    /// screen), the chosen one highlighted.
    static func linkPicker(_ screen: inout Screen, _ p: LinkPicker, _ s: AppState, _ t: Theme) {
        let w = max(10, s.width - 4)
        let h = min(s.height - 2, p.items.count + 2)
        let box = Rect(x: 2, y: max(1, (s.height - h) / 2), width: w, height: h)
        overlay(&screen, box, s, t, style: t[.help])
        let title: String
        switch p.purpose {
        case .links: title = Words.linksTitle
        case .lists: title = Words.listsTitle
        case .people(let of, let followers, _): title = Words.peopleTitle(TweetCard.clean(of.screenName), followers: followers)
        }
        screen.put(title, x: box.x + 1, y: box.y, style: t[.helpKey], clip: box)
        for (i, item) in p.items.enumerated() where box.y + 1 + i < box.maxY {
            let style = i == p.selected ? t[.selection].over(t[.help]) : t[.help]
            let line = Rect(x: box.x, y: box.y + 1 + i, width: box.width, height: 1)
            if i == p.selected { screen.fill(line, style: style) }
            // A person's row is their name, handle and bio; the handle is not drawn again as a link.
            if case .people = p.purpose {
                screen.put(" " + TweetCard.clean(item.label), x: box.x, y: line.y, style: t[.text].over(style), clip: line)
                continue
            }
            let x = screen.put(" " + TweetCard.clean(item.label) + "  ", x: box.x, y: line.y, style: t[.dim].over(style), clip: line)
            screen.put(
                TextLayout.truncate(TweetCard.clean(item.url), width: max(1, box.maxX - x - 1)), x: x, y: line.y,
                style: t[.url].over(style), clip: line)
        }
    }

    /// The messages view: the last notices, newest first, each in full (wrapped), with its age.
    static func messages(_ screen: inout Screen, _ s: AppState, _ c: Context, _ t: Theme) {
        let w = min(s.width - 2, 100)
        let h = max(3, s.height - 2)
        let box = Rect(x: (s.width - w) / 2, y: 1, width: w, height: h)
        overlay(&screen, box, s, t, style: t[.help])
        let close = c.keyMap.keys(for: .cancel, in: .help).prefix(2)
        screen.put(Words.messagesTitle(closeKeys: Array(close)), x: box.x + 2, y: box.y, style: t[.helpKey])
        var y = box.y + 1
        if s.noticeLog.isEmpty { screen.put(Words.noMessages, x: box.x + 2, y: y, style: t[.help]) }
        for n in s.noticeLog.reversed() where y < box.maxY {
            let ago = Format.age(created: Int64(n.at), now: s.shownNow)
            let style = n.isError ? t[.statusError].over(t[.help]) : t[.help]
            let lines = TextLayout.wrap([Span(TweetCard.clean(n.text), style)], width: max(1, w - 12))
            screen.put(ago, x: box.x + 2, y: y, style: t[.dim].over(t[.help]))
            for l in lines where y < box.maxY {
                screen.put(l, x: box.x + 10, y: y)
                y += 1
            }
        }
    }

}
