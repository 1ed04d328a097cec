import Bedrock
import FoundationEssentials
import Screen
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The status bar: the account, what syncing is doing, notices and hints.
extension Views {
    static func describe(_ st: SyncStatus, _ s: AppState) -> (String, Theme.Role) {
        let words = Words.state(st.state) { Format.at($0, utcOffset: s.utcOffset, now: s.shownNow) }
        switch st.state {
        case .idle, .loading, .connecting, .polling: return (words, .status)
        case .streaming: return (words, .statusOK)
        case .offline, .rateLimited, .budgetSpent: return (words, .statusError)
        }
    }

    static func status(_ screen: inout Screen, _ r: Rect, _ s: AppState, _ c: Context, _ t: Theme) {
        screen.fill(r, style: t[.status])
        if let q = s.question {
            let x = screen.put(" " + q.text + " ", x: r.x, y: r.y, style: t[.prompt].over(t[.status]))
            let yes = c.keyMap.hint(.yes, in: .confirm) ?? "y"
            let no = c.keyMap.hint(.no, in: .confirm) ?? "n"
            screen.put("(\(yes)/\(no))", x: x, y: r.y, style: t[.helpKey].over(t[.status]))
            return
        }
        if let a = s.compose?.attach {
            let label: String
            switch a.stage {
            case .path: label = Words.attachPrompt
            case .altText(let f): label = Words.altTextPrompt(TweetCard.clean(Path.lastComponent(f.path)))
            }
            let x = screen.put(" " + label, x: r.x, y: r.y, style: t[.prompt].over(t[.status]))
            let (_, caret) = a.editor.layout(width: 10_000)
            let names =
                a.candidates.isEmpty
                ? "" : "  " + a.candidates.map { TweetCard.clean(Path.lastComponent($0)) }.joined(separator: "  ")
            // A long path gives way from its start, so the names Tab found stay in view.
            let path = TweetCard.clean(a.editor.text)
            let room = max(10, r.maxX - x - min(Screen.width(of: names), (r.maxX - x) / 2) - 1)
            var shown = path
            if Screen.width(of: path) > room {
                let scalars = Array(path)
                var tail = ""
                for ch in scalars.reversed() {
                    if Screen.width(of: tail) + Screen.width(of: String(ch)) > room - 1 { break }
                    tail = String(ch) + tail
                }
                shown = "…" + tail
            }
            let end = screen.put(shown, x: x, y: r.y, style: t[.status], clip: r)
            if !names.isEmpty { screen.put(names, x: end, y: r.y, style: t[.dim].over(t[.status]), clip: r) }
            let col = shown == path ? caret.col : Screen.width(of: shown)
            screen.cursor = (min(r.maxX - 1, x + col), r.y)
            return
        }
        if let p = s.searchPrompt {
            let x = screen.put(" " + Words.search, x: r.x, y: r.y, style: t[.prompt].over(t[.status]))
            let (_, caret) = p.layout(width: 10_000)
            screen.put(p.text, x: x, y: r.y, style: t[.status], clip: r)
            screen.cursor = (min(r.maxX - 1, x + caret.col), r.y)
            return
        }
        var x = screen.put(
            s.readOnly ? " " + TweetCard.clean(s.account) + " " + Words.appOnly : " @" + TweetCard.clean(s.account),
            x: r.x, y: r.y, style: t[.status].union(.bold))
        if let cost = c.costToday { x = screen.put(" · " + cost, x: x, y: r.y, style: t[.status]) }
        if let note = s.statusNote { x = screen.put(" · " + note, x: x, y: r.y, style: t[.status]) }
        let st = c.statuses[s.pane.id] ?? SyncStatus()
        let (words, role) = describe(st, s)
        x = screen.put(" · " + title(s.pane.id, c) + ": ", x: x, y: r.y, style: t[.status])
        x = screen.put(words, x: x, y: r.y, style: t[role].over(t[.status]))
        // The other panes' states, briefly, while there is room (a notice keeps its space).
        let reserve = s.notice.map { s.now - $0.at <= Reducer.noticeLifetime ? 30 : 8 } ?? 8
        for p in s.panes where p.id != s.pane.id && !Reducer.isThread(p.id) && !Reducer.isConversation(p.id) {
            let (w, rl) = describe(c.statuses[p.id] ?? SyncStatus(), s)
            let label = " · " + title(p.id) + ": "
            guard x + Screen.width(of: label + w) < r.maxX - reserve else { break }
            x = screen.put(label, x: x, y: r.y, style: t[.status])
            x = screen.put(w, x: x, y: r.y, style: t[rl].over(t[.status]))
        }
        // The newest of the notice and the pane's last error, while fresh; an error notice (a
        // draft not saved, a write refused) is not pushed aside by a background retry.
        var right: (String, Bool)?
        let notice = s.notice.flatMap { s.now - $0.at <= Reducer.noticeLifetime ? $0 : nil }
        if let n = notice { right = (n.text, n.isError) }
        if let e = st.lastError, let at = st.lastErrorAt, s.now - at <= Reducer.noticeLifetime * 2,
            notice?.isError != true, (notice?.at ?? 0) < at
        {
            right = (e, true)
        }
        if let (text, isError) = right {
            let room = r.maxX - x - 3
            let style = (isError ? t[.statusError] : t[.statusOK]).over(t[.status])
            if Screen.width(of: text) <= room {
                screen.put(text, x: r.maxX - 1 - Screen.width(of: text), y: r.y, style: style)
            } else if r.y > 0 {
                // Too long beside the states: on a line of its own above the status bar; what
                // still does not fit ends at a word, and the messages key shows it whole.
                let line = Rect(x: r.x, y: r.y - 1, width: r.width, height: 1)
                screen.fill(line, style: t[.status])
                let more = c.keyMap.hint(.messages, in: .timeline).map(Words.moreInMessages) ?? ""
                var shown = text
                if Screen.width(of: " " + text) > r.width - 1 {
                    shown = Self.cutAtWord(text, width: max(1, r.width - 2 - Screen.width(of: more))) + more
                }
                screen.put(" " + shown, x: r.x, y: line.y, style: style, clip: line)
            }
        } else {
            let hint = c.keyMap.hint(.help, in: .timeline).map(Words.helpHint) ?? ""
            let w = Screen.width(of: hint)
            if !hint.isEmpty, r.maxX - x > w + 3 { screen.put(hint, x: r.maxX - 1 - w, y: r.y, style: t[.status]) }
        }
    }
}
