import Screen
import Timeline
import TweetText
import TwitterAPI

/// Keys over the pane: the help, the notice log and the long-post reader (scrolled, closed, on
/// to the conversation), and the link picker.
extension Reducer {
    static func overlayKeys(_ command: Command, _ s: inout AppState, _ c: Context) -> [Effect] {
        switch command {
        case .cancel:
            s.showHelp = false
            s.showLog = false
            s.helpTop = 0
            s.reading = nil
        case .thread:
            // From a long post read whole, on to its conversation.
            guard let read = s.reading?.id, !s.showHelp, !s.showLog else { return [] }
            // A repost's conversation is its original's, as from a card.
            let id = c.snapshot.tweets[read]?.content.id ?? read
            s.reading = nil
            return openConversation(at: id, &s)
        case .down, .up, .pageDown, .pageUp:
            if var r = s.reading, !s.showHelp {
                let rows = Views.readerRows(s, c).count
                let page = max(1, Views.readerBox(s).height - 2)
                let step = command == .down || command == .up ? 1 : page
                let delta = command == .down || command == .pageDown ? step : -step
                r.top = min(max(0, r.top + delta), max(0, rows - page))
                s.reading = r
                return []
            }
            guard s.showHelp else { return [] }
            let l = Views.helpLayout(s, c)
            let step = command == .down || command == .up ? 1 : max(1, l.perColumn)
            let delta = command == .down || command == .pageDown ? step : -step
            s.helpTop = min(max(0, s.helpTop + delta), l.maxScroll)
        default: break
        }
        return []
    }

    /// The link picker: move, open (or copy) the chosen address, close.
    static func pick(_ command: Command, _ s: inout AppState) -> [Effect] {
        guard var p = s.links, !p.items.isEmpty else {
            s.links = nil
            return []
        }
        switch command {
        case .down:
            // At the end of a list of people with more to come: the next page.
            if p.selected == p.items.count - 1, case .people(let of, let followers, let next?) = p.purpose {
                p.purpose = .people(of: of, followers: followers, next: nil)
                s.links = p
                return [.loadPeople(of, followers: followers, next: next)]
            }
            p.selected = min(p.items.count - 1, p.selected + 1)
        case .up: p.selected = max(0, p.selected - 1)
        case .send:
            s.links = nil
            if p.purpose == .lists {
                s.profile = nil
                return openPane(.list(p.items[p.selected].url), &s)
            }
            if case .people = p.purpose { return openProfile(p.items[p.selected].url, &s) }
            // Only a checked web address reaches the browser; anything else is named, with
            // why, and the picker stays open for `y`.
            switch WebAddress.check(p.items[p.selected].url) {
            case .success(let url):
                s.links = nil
                return [.openLink(url)]
            case .failure(let why):
                s.links = p
                s.notice = Notice(Words.notOpenedUnsafe(p.items[p.selected].url, why.description), isError: true, at: s.now)
                return []
            }
        case .copyLink:
            guard p.purpose == .links else { return [] }
            s.links = nil
            // An address is one line: the checked form, or what came with every control,
            // line end and bidi mark taken out (pasted into a shell, a line end would run it).
            let url = p.items[p.selected].url
            return [.copy(WebAddress.safe(url) ?? Clipboard.oneLine(url), what: Words.theAddress)]
        case .cancel:
            s.links = nil
            return []
        default: return []
        }
        s.links = p
        return []
    }
}
