import FoundationEssentials
import Screen
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Pure drawing: a state and the store's picture become a `Screen`.
public enum Views {
    /// `previous`: the frame shown now, whose rows of cards this one may take whole.
    public static func render(_ s: AppState, _ c: Context, theme t: Theme = .fallback, previous: Screen? = nil) -> Screen {
        DisplayWidth.$mode.withValue(c.widthMode) { draw(s, c, t, previous) }
    }

    private static func draw(_ s: AppState, _ c: Context, _ t: Theme, _ previous: Screen?) -> Screen {
        var screen = Screen(width: s.width, height: s.height, fill: t[.text])
        let reply = replyContext(s, c, t)
        let layout = Layout(s, replyLines: reply.count + (s.compose?.media.count ?? 0))
        if layout.tooSmall {
            tooSmall(&screen, s)
            return screen
        }
        tabs(&screen, layout.tabs, s, c, t)
        if s.panes.indices.contains(s.active) { pane(&screen, layout.body, s, c, t, previous) }
        if let r = layout.compose { compose(&screen, r, reply, s, c, t) }
        status(&screen, layout.status, s, c, t)
        // Over the cards, an overlay's rows are not where the cards' anchors put them.
        if s.showHelp || s.showLog || s.reading != nil || s.viewer != nil || s.profile != nil || s.links != nil { screen.anchors = [] }
        if s.showHelp { help(&screen, s, c, t) }
        if s.showLog { messages(&screen, s, c, t) }
        if s.reading != nil, !s.showHelp, !s.showLog { reader(&screen, s, c, t) }
        if s.viewer != nil, !s.showHelp, !s.showLog { viewer(&screen, s, c, t) }
        if let p = s.profile { profile(&screen, p, s, c, t) }
        if let p = s.links { linkPicker(&screen, p, s, t) }
        return screen
    }

    // MARK: - Too small

    static func tooSmall(_ screen: inout Screen, _ s: AppState) {
        var text =
            Words.tooSmall(minWidth: Layout.minWidth, minHeight: Layout.minHeight, width: s.width, height: s.height)
        if let q = s.question { text = q.text + " (y/n)" }
        let lines = TextLayout.wrap([Span(text, .plain)], width: max(1, s.width))
        let y0 = max(0, (s.height - lines.count) / 2)
        for (i, l) in lines.enumerated() where y0 + i < s.height {
            screen.put(l, x: max(0, (s.width - l.width) / 2), y: y0 + i)
        }
    }

    // MARK: - Tabs

    static func title(_ id: TimelineID) -> String {
        Words.title(id, clean: TweetCard.clean)
    }

    /// A pane's name where the store can say more: a conversation by its person.
    static func title(_ id: TimelineID, _ c: Context) -> String {
        if case .conversation(let cid) = id {
            let who = person(c.snapshot.mailbox.conversation(cid)?.other, c.snapshot.mailbox)
            return Words.conversationTab(who.handle.isEmpty ? who.name : who.handle)
        }
        return title(id)
    }

    /// A pane's tab: its number, its title (a thread by its author), and unread tweets.
    static func tabLabel(_ i: Int, _ p: PaneState, _ c: Context) -> String {
        var name = title(p.id)
        if case .thread(let root) = p.id, let author = c.snapshot.tweets[root]?.content.user.screenName {
            name = Words.threadTab(TweetCard.clean(author))
        }
        if case .conversation = p.id { name = title(p.id, c) }
        var unread = c.view(p.id).map(\.unreadCount) ?? 0
        if p.id == .messages { unread = c.snapshot.mailbox.unread }
        var label = " \(i + 1) \(name)"
        if unread > 0 && !Reducer.isThread(p.id) { label += " (\(unread))" }
        let hidden = c.hidden(p.id)
        if hidden.count > 0 { label += " · " + Words.muted(hidden.count, shown: hidden.revealed) }
        return label + " "
    }

    /// The tabs, scrolled so the active one is always in view: `‹` marks tabs hidden on the
    /// left, `…` on the right.
    static func tabs(_ screen: inout Screen, _ r: Rect, _ s: AppState, _ c: Context, _ t: Theme) {
        screen.fill(r, style: t[.tabBar])
        let placed = tabPlaces(s, c, width: r.width)
        if placed.hiddenLeft { screen.put("‹", x: 0, y: r.y, style: t[.tabBar], clip: r) }
        for p in placed.tabs {
            let x = screen.put(
                p.label, x: p.columns.lowerBound, y: r.y, style: p.index == s.active ? t[.tabActive] : t[.tabInactive], clip: r)
            screen.put("│", x: x, y: r.y, style: t[.tabBar], clip: r)
        }
        if placed.hiddenRight { screen.put("…", x: max(0, r.width - 1), y: r.y, style: t[.tabBar]) }
    }

    /// Where each shown tab stands on the tab bar (drawing and mouse clicks both read it).
    static func tabPlaces(_ s: AppState, _ c: Context, width: Int) -> (
        tabs: [(index: Int, label: String, columns: Range<Int>)], hiddenLeft: Bool, hiddenRight: Bool
    ) {
        let labels = s.panes.enumerated().map { tabLabel($0.offset, $0.element, c) }
        let widths = labels.map { Screen.width(of: $0) + 1 }
        var first = 0
        let active = min(max(0, s.active), max(0, labels.count - 1))
        while first < active, (first > 0 ? 1 : 0) + widths[first...active].reduce(0, +) > width - 1 { first += 1 }
        var x = first > 0 ? 1 : 0
        var out: [(index: Int, label: String, columns: Range<Int>)] = []
        var right = false
        for i in first..<labels.count {
            if x + widths[i] > width - (i + 1 < labels.count ? 1 : 0) {
                right = true
                break
            }
            out.append((i, labels[i], x..<(x + widths[i] - 1)))
            x += widths[i]
        }
        return (out, first > 0, right)
    }

    // MARK: - Timeline pane

    static func pane(_ screen: inout Screen, _ r: Rect, _ s: AppState, _ c: Context, _ t: Theme, _ previous: Screen?) {
        let p = s.pane
        switch p.id {
        case .messages: return inboxPane(&screen, r, s, c, t)
        case .conversation(let id): return conversationPane(&screen, r, id, s, c, t)
        default: break
        }
        let ids = c.ids(p)
        guard !ids.isEmpty else {
            emptyPane(&screen, r, p.id, c.statuses[p.id] ?? SyncStatus(), s, c, t)
            return
        }
        let top = p.top.flatMap { ids.firstIndex(of: $0) } ?? 0
        let gaps = c.shownGaps(p.id)
        var y = r.y
        if top > 0 {
            // "New" counts what the tab counts: tweets newer than the read marker (those above
            // the reader that were scrolled past are read, not new).
            let unread = min(top, c.view(p.id).map(\.unreadCount) ?? 0)
            let topKey = c.keyMap.hint(.top, in: .timeline) ?? "g g"
            // A conversation reads oldest first: what is above came before.
            let newer = Reducer.isThread(p.id) ? Words.earlier(top, topKey: topKey) : Words.newer(top, unread: unread, topKey: topKey)
            screen.put(TextLayout.truncate(newer, width: r.width), x: r.x, y: y, style: t[.newMarker])
            y += 1
        }
        // The cards' region, below the line of newer posts (which stays while they scroll).
        let region = y
        let (fill, band, bar) = (t[.text], t[.selection], t[.newMarker])
        // A card is a few rows: room for those that fit, not grown one by one.
        screen.anchors.reserveCapacity(screen.anchors.count + min(ids.count - top, r.height / 2 + 1))
        for id in ids[top...] {
            guard y < r.maxY else { break }
            guard let tweet = c.snapshot.tweets[id] else { continue }
            let lines = TweetCard.lines(tweet, width: r.width, theme: t, now: s.shownNow)
            let selected = id == p.selected
            let start = y
            screen.anchors.append(Anchor(key: id.rawValue, y: y, top: region, bottom: r.maxY - 1))
            let thumbs = thumbnailRows(tweet, c)
            // Without pictures, a card's rows are named by its lines, and taken from the frame
            // before where it showed them alike.
            let shown = thumbs > 0 ? 0 : min(lines.count, r.maxY - y)
            let place = RowPlace(
                x: r.x + TweetCard.gutter, left: r.x, right: r.maxX, fill: fill, band: selected && c.selectionBand ? band : nil,
                bar: selected ? bar : nil)
            var took = false
            if let previous,
                let from = previous.rows(
                    showing: lines, count: shown, at: place, hint: previous.anchors.first { $0.key == id.rawValue }?.y)
            {
                took = screen.take(rows: from, of: previous, to: y, lines, count: shown, at: place)
            }
            if took {
                y += shown
            } else {
                for line in lines {
                    guard y < r.maxY else { break }
                    screen.put(line, x: r.x + TweetCard.gutter, y: y, clip: r)
                    y += 1
                }
            }
            let thumbsAt = y
            y = min(r.maxY, y + thumbs)
            if !took {
                if selected { markSelected(&screen, Rect(x: r.x, y: start, width: r.width, height: y - start), c, t) }
                if shown > 0 { screen.name(rows: start, lines, count: shown, at: place) }
            }
            if thumbs > 0, thumbsAt + thumbs <= r.maxY { thumbnails(&screen, tweet, at: thumbsAt, in: r, c, t) }
            // Posts not fetched below this one: said on the line between the cards, never
            // closed silently (reaching it loads them).
            if y < r.maxY, gaps.contains(id) {
                let key = c.keyMap.hint(.down, in: .timeline) ?? "j"
                screen.put(
                    TextLayout.truncate(Words.gap(downKey: key), width: max(1, r.width - TweetCard.gutter)), x: r.x + TweetCard.gutter,
                    y: y, style: t[.newMarker])
            } else if let why = c.filtered[p.id]?.reasons[id], y < r.maxY {
                // A post shown only by the reveal key: which filter hides it, on the line below it.
                screen.put(
                    TextLayout.truncate(why, width: max(1, r.width - TweetCard.gutter)), x: r.x + TweetCard.gutter, y: y, style: t[.dim])
            }
            y += 1
        }
        let status = c.statuses[p.id] ?? SyncStatus()
        if y < r.maxY, status.loadingOlder {
            screen.put(Words.loadingOlder, x: r.x + TweetCard.gutter, y: y, style: t[.dim], clip: r)
        } else if y < r.maxY, status.reachedEnd {
            screen.put(Words.reachedEnd, x: r.x + TweetCard.gutter, y: y, style: t[.dim], clip: r)
        }
    }

    /// The selected card or conversation: the gutter bar, on the theme's band where it is on.
    static func markSelected(_ screen: inout Screen, _ band: Rect, _ c: Context, _ t: Theme) {
        if c.selectionBand {
            screen.lay(t[.selection], over: band)
        }
        let bar = StyledLine([Span("▌", t[.newMarker])])
        for row in band.y..<band.maxY { screen.put(bar, x: band.x, y: row, under: screen[band.x, row].style) }
    }

    /// A pane with no tweets says why: loading, nothing found, refused, or failed.
    static func emptyPane(_ screen: inout Screen, _ r: Rect, _ id: TimelineID, _ st: SyncStatus, _ s: AppState, _ c: Context, _ t: Theme) {
        var query: String?
        if case .search(let q) = id { query = TweetCard.clean(q) }
        let what = Words.tweets(matching: query)
        let when = { (at: Double) in Format.at(at, utcOffset: s.utcOffset, now: s.shownNow) }
        let message: (String, Theme.Role)
        switch st.state {
        case .rateLimited(let until):
            message = (Words.refusedRateLimited(retryAt: when(until)), .statusError)
        case .budgetSpent:
            message = (st.lastError ?? Words.state(st.state, at: when), .statusError)
        case .offline(let retry, let reason) where st.refused:
            message = (Words.refused(reason, retryAt: when(retry)), .statusError)
        case .offline(let retry, let reason):
            message = (Words.couldNotLoad(what, reason, retryAt: when(retry)), .statusError)
        case .idle, .loading, .connecting:
            message = st.lastError.map { (Words.couldNotLoad(what, $0), .statusError) } ?? (Words.loading(what), .dim)
        case .streaming, .polling:
            if case .search = id {
                message = (Words.noneYet(what), .dim)
            } else {
                message = (Words.nothingYet, .dim)
            }
        }
        let lines = TextLayout.wrap([Span(message.0, t[message.1])], width: max(1, r.width - 4))
        for (i, l) in lines.enumerated() where r.y + 1 + i < r.maxY { screen.put(l, x: r.x + 2, y: r.y + 1 + i, clip: r) }
    }

    /// The longest start of `text` that fits in `width` and ends at a word, with "…".
    static func cutAtWord(_ text: String, width: Int) -> String {
        var out = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let next = out.isEmpty ? String(word) : out + " " + word
            if Screen.width(of: next) + 1 > width { break }
            out = next
        }
        return (out.isEmpty ? TextLayout.truncate(text, width: max(1, width - 1)) : out) + "…"
    }

}

extension Style {
    func union(_ a: Attributes) -> Style {
        var s = self
        s.attributes.formUnion(a)
        return s
    }
}
