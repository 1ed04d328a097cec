import Screen
import Timeline
import TwitterAPI

/// The mouse: the wheel moves through the pane, a click selects a tweet or a tab, a click on
/// a link opens the link picker on it. Where things are is worked out as the views draw them.
extension Reducer {
    static func mouse(_ m: Mouse, _ s: inout AppState, _ c: Context) -> [Effect] {
        switch s.keyMode {
        case .timeline: return timelineMouse(m, &s, c)
        case .picker:
            guard var p = s.links else { return [] }
            switch m.action {
            case .wheelUp: p.selected = max(0, p.selected - 1)
            case .wheelDown: p.selected = min(p.items.count - 1, p.selected + 1)
            default: return []
            }
            s.links = p
            return []
        case .help:
            // A click anywhere closes the help, as a key would.
            if case .press = m.action {
                s.showHelp = false
                s.showLog = false
            }
            return []
        case .compose, .prompt, .confirm, .profile, .viewer:
            return []
        }
    }

    static func timelineMouse(_ m: Mouse, _ s: inout AppState, _ c: Context) -> [Effect] {
        let ids = c.ids(s.pane)
        let index = s.pane.selected.flatMap { ids.firstIndex(of: $0) }
        switch m.action {
        case .wheelUp: return select((index ?? 0) - 1, &s, c)
        case .wheelDown: return select(index.map { $0 + 1 } ?? 0, &s, c)
        case .press(0): break
        default: return []
        }
        let layout = Layout(s)
        if m.y == layout.tabs.y {
            if let tab = Views.tabPlaces(s, c, width: s.width).tabs.first(where: { $0.columns.contains(m.x) }) { s.active = tab.index }
            return []
        }
        guard let hit = cardAt(m, s, c) else { return [] }
        guard case .card(let id, let row) = hit else { return select(0, &s, c) }
        let fx = ids.firstIndex(of: id).map { select($0, &s, c) } ?? []
        // On a link: the picker opens with that link chosen.
        if let tweet = c.snapshot.tweets[id], let target = linkTarget(tweet, row: row, column: m.x - layout.body.x - TweetCard.gutter, s) {
            var picker = LinkPicker(tweet)
            if let i = picker.items.firstIndex(where: { Hyperlinks.target($0.url) == target }) {
                picker.selected = i
            } else {
                picker.items.insert(LinkPicker.Item(label: "link", url: target), at: 0)
                picker.selected = 0
            }
            s.links = picker
        }
        return fx
    }

    enum Hit: Equatable {
        /// The "newer" line above the first card.
        case newer
        /// A card, and the row within it.
        case card(TweetID, row: Int)
    }

    /// What the pane shows at the mouse's row, laid out as `Views.pane` draws it.
    static func cardAt(_ m: Mouse, _ s: AppState, _ c: Context) -> Hit? {
        let body = Layout(s).body
        guard body.contains(x: m.x, y: m.y) else { return nil }
        let ids = c.ids(s.pane)
        guard !ids.isEmpty else { return nil }
        let top = s.pane.top.flatMap { ids.firstIndex(of: $0) } ?? 0
        var y = body.y
        if top > 0 {
            if m.y == y { return .newer }
            y += 1
        }
        for id in ids[top...] {
            guard y < body.maxY, y <= m.y else { break }
            guard c.snapshot.tweets[id] != nil else { continue }
            let h = height(id, s, c)
            if m.y < y + h { return .card(id, row: m.y - y) }
            y += h + 1
        }
        return nil
    }

    /// The address of the link drawn at a row and column of a tweet's card, if any.
    static func linkTarget(_ tweet: Tweet, row: Int, column: Int, _ s: AppState) -> String? {
        let lines = TweetCard.lines(tweet, width: s.width, theme: Self.layoutTheme, now: s.shownNow)
        guard lines.indices.contains(row), column >= 0 else { return nil }
        var x = 0
        for span in lines[row].spans {
            let w = Screen.width(of: span.text)
            if column < x + w { return Hyperlinks.target(of: span.style.link) }
            x += w
        }
        return nil
    }

    /// Styles do not move anything: any theme lays cards out the same.
    static let layoutTheme = Theme(name: "layout", styles: [:])
}
