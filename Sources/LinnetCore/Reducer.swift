import Bedrock
import Screen
import Timeline
import TweetText
import TwitterAPI

/// The pure heart of the UI: an action and the current picture of the store change the state
/// and ask for effects. No I/O here.
public enum Reducer {
    /// Seconds a notice stays in the status bar.
    public static let noticeLifetime = 8.0
    /// Seconds the reveal key shows muted tweets.
    public static let revealSeconds = 30.0

    /// The one entry point of the UI's logic: applies `action` to `s`, reading the store's
    /// snapshot and the key map from `c` (never the theme), and returns the effects to run, in order.
    /// Pure: no I/O, no clock (time arrives as `.tick`), so every key can be tested by value.
    public static func reduce(_ s: inout AppState, _ action: Action, _ c: Context) -> [Effect] {
        DisplayWidth.$mode.withValue(c.widthMode) { apply(&s, action, c) }
    }

    private static func apply(_ s: inout AppState, _ action: Action, _ c: Context) -> [Effect] {
        let before = s.panes
        var fx: [Effect] = []
        switch action {
        case .keys(let keys): fx += handle(keys: keys, &s, c)
        case .resize(let w, let h):
            s.width = w
            s.height = h
        case .tick(let now):
            s.now = now
            if let n = s.notice, now - n.at > noticeLifetime { s.notice = nil }
            if let until = s.revealMutedUntil, now >= until { s.revealMutedUntil = nil }
        case .storeChanged: fx += alerts(&s, c)
        case .accountOpened, .sessionRestored, .quitCalledOff: fx += session(action, &s)
        case .filesListed(let prefix, let names): filesListed(prefix, names, &s)
        case .fileInspected(let path, let result): fileInspected(path, result, &s)
        case .writeFinished(let write, let result): fx += finished(write, result, &s)
        case .refreshAnswered(_, let message):
            if let message { s.notice = Notice(message, isError: true, at: s.now) }
        case .notice(let text, let isError): s.notice = Notice(text, isError: isError, at: s.now)
        case .restoreDrafts(let records):
            s.drafts = records.map { r in
                var box = Compose(editor: Editor(r.text), replyTo: r.replyTo, media: r.media)
                box.quote = r.quote
                box.to = r.to
                box.thread = r.thread
                return box
            }
            if !records.isEmpty {
                s.notice = Notice(Words.draftsKept(records.count), isError: false, at: s.now)
            }
        case .edited(let text): fx += edited(text, &s)
        case .profileLoaded, .peopleFinished, .peopleLoaded: fx += people(action, &s)
        case .messageSent(let to, let result): fx += messageSent(to, result, &s)
        case .olderMessagesDone: s.loadingOlderMessages = false
        case .pictureLoaded(let ask, let result, _): pictureLoaded(ask, result, &s, c)
        case .threadProgress(let n): s.compose?.threadSent = n
        case .threadFinished(let sent, let of, let error): fx += threadFinished(sent, of: of, error, &s)
        case .listsLoaded(let lists, let of):
            if lists.isEmpty {
                s.notice = Notice(of.map { Words.noListsOf(TweetCard.clean($0.screenName)) } ?? Words.noLists, isError: false, at: s.now)
            } else {
                s.links = LinkPicker(lists: lists)
            }
        }
        // Every notice shown is kept for the messages view, in full.
        if let n = s.notice, s.noticeLog.last != n {
            s.noticeLog.append(n)
            if s.noticeLog.count > AppState.noticeLogLimit { s.noticeLog.removeFirst(s.noticeLog.count - AppState.noticeLogLimit) }
        }
        fx += settle(&s, c)
        fx += markShownConversationRead(&s, c)
        for (old, new) in zip(before, s.panes) where old.id == new.id && old.top != new.top {
            fx.append(.setAnchor(new.id, new.top))
        }
        return fx
    }

    // MARK: - Keys

    static func handle(keys: [Key], _ s: inout AppState, _ c: Context) -> [Effect] {
        // On the "too small" screen nothing is seen, so nothing may act but quitting: no key
        // reaches a draft, opens anything or sends anything. Quitting keeps every draft.
        if s.width < Layout.minWidth || s.height < Layout.minHeight {
            s.pendingKeys = []
            for key in keys {
                // Quitting asks about a kept draft here as at any size (the question is on
                // this screen too); only its answer acts.
                if s.question == .quitWithDraft {
                    if case .command(let cmd) = c.keyMap.resolve(.confirm, [key]) {
                        let fx = answer(cmd == .yes, &s)
                        if !fx.isEmpty { return fx }
                    }
                    continue
                }
                if c.keyMap.resolve(.timeline, [key]) == .command(.quit) || key == .ctrl("c") {
                    s.question = nil
                    let fx = quit(&s)
                    if !fx.isEmpty { return fx.contains(.quit) ? [.saveDrafts(draftRecords(s))] + fx : fx }
                }
            }
            return []
        }
        var fx: [Effect] = []
        // Without bracketed paste, a burst that mixes text with Enter is taken for a paste:
        // its line ends are new lines, not "send". A terminal that marks pastes is believed.
        let pasted =
            !c.bracketedPaste && keys.count > 1 && keys.contains(.enter) && keys.contains { if case .char = $0 { true } else { false } }
        var pastedLines = 0
        var queue = keys[...]
        while let key = queue.popFirst() {
            if key == .resize { continue }
            let mode = s.keyMode
            if case .paste(let text) = key {
                pastedLines += insertPaste(text, mode, &s)
                continue
            }
            if case .mouse(let m) = key {
                s.pendingKeys = []
                fx += mouse(m, &s, c)
                continue
            }
            // Terminals send Alt-x as Esc then x, and so does a quick Esc followed by x: an Alt
            // key nothing is bound to is taken as the two keys.
            if case .alt(let ch) = key, c.keyMap.resolve(mode, s.pendingKeys + [key]) == .none {
                queue = [.escape, ch == "\r" ? .enter : .char(ch)] + queue
                continue
            }
            if pasted && key == .enter && (mode == .compose || mode == .prompt) {
                if mode == .compose {
                    s.compose?.editor.insert("\n")
                    pastedLines += 1
                }
                continue
            }
            let seq = s.pendingKeys + [key]
            switch c.keyMap.resolve(mode, seq) {
            case .command(let command):
                s.pendingKeys = []
                fx += run(command, &s, c)
            case .prefix:
                s.pendingKeys = seq
            case .none:
                s.pendingKeys = []
                if seq.count > 1, case .command(let command) = c.keyMap.resolve(mode, [key]) {
                    fx += run(command, &s, c)
                } else if case .char(let ch) = key {
                    if mode == .compose, s.compose?.sending != true {
                        s.compose?.editor.insert(String(ch))
                        s.compose?.error = nil
                    } else if mode == .prompt {
                        if s.compose?.attach != nil {
                            s.compose?.attach?.editor.insert(String(ch))
                            s.compose?.attach?.candidates = []
                        } else {
                            s.searchPrompt?.insert(String(ch))
                        }
                    }
                }
            }
        }
        if pastedLines > 0 {
            s.notice = Notice(Words.pasted(lines: pastedLines + 1), isError: false, at: s.now)
        }
        return fx
    }

    /// Pasted text goes into the box or prompt being edited, line ends and all (in a prompt
    /// they become spaces); it is never taken for keys. Returns the line ends inserted.
    static func insertPaste(_ text: String, _ mode: KeyMode, _ s: inout AppState) -> Int {
        // What a terminal would act on (escapes, other controls) is not text to post.
        let normal = plainText(text.replacingAll("\r\n", with: "\n").replacingAll("\r", with: "\n"))
        switch mode {
        case .compose where s.compose?.sending != true:
            s.compose?.editor.insert(normal)
            s.compose?.error = nil
            return normal.filter { $0 == "\n" }.count
        case .prompt:
            let line = normal.replacingAll("\n", with: " ")
            if s.compose?.attach != nil {
                s.compose?.attach?.editor.insert(line)
            } else {
                s.searchPrompt?.insert(line)
            }
            return 0
        default:
            return 0
        }
    }

    static func run(_ command: Command, _ s: inout AppState, _ c: Context) -> [Effect] {
        // In every mode: the screen drawn again, or the process suspended (drafts saved first).
        if command == .redraw { return [.redraw] }
        if command == .stopProcess { return [.saveDrafts(draftRecords(s)), .stopProcess] }
        switch s.keyMode {
        case .confirm: return answer(command == .yes, &s)
        case .help: return overlayKeys(command, &s, c)
        case .picker: return pick(command, &s)
        case .profile: return profileKeys(command, &s)
        case .viewer: return viewerKeys(command, &s, c)
        case .compose: return editCompose(command, &s)
        case .prompt: return s.compose?.attach != nil ? editAttach(command, &s, c) : editPrompt(command, &s)
        case .timeline: return timeline(command, &s, c)
        }
    }

    /// Moves the selection (clamped), keeps it visible, marks it read, and asks for older
    /// tweets near the end.
    static func select(_ target: Int, _ s: inout AppState, _ c: Context) -> [Effect] {
        let ids = c.ids(s.pane)
        guard !ids.isEmpty else { return [] }
        let i = min(max(0, target), ids.count - 1)
        let from = s.pane.selected.flatMap { ids.firstIndex(of: $0) } ?? i
        s.pane.selected = ids[i]
        scrollToSelection(&s, c)
        var fx: [Effect] = []
        if let marker = c.view(s.pane.id)?.readMarker, ids[i] > marker {
            fx.append(.markRead(s.pane.id, ids[i]))
        }
        let status = c.statuses[s.pane.id] ?? SyncStatus()
        // A gap on screen, or passed, loads the page below it: it is never crossed silently,
        // and what is fetched is what the reader is about to see.
        if !status.loadingOlder, let gap = gapInSight(from: from, to: i, ids, s, c) {
            fx.append(.fillGap(s.pane.id, below: gap))
        } else if i >= ids.count - 3 && !status.loadingOlder && !status.reachedEnd, !isThread(s.pane.id) {
            fx.append(.loadOlder(s.pane.id))
        }
        return fx
    }

    /// The first gap among the cards passed from `from` to `to` or whose marker is now on
    /// screen (not one below
    /// the oldest card held: that is the ordinary next page).
    static func gapInSight(from: Int, to: Int, _ ids: PaneIDs, _ s: AppState, _ c: Context) -> TweetID? {
        let gaps = c.shownGaps(s.pane.id)
        guard !gaps.isEmpty else { return nil }
        let top = s.pane.top.flatMap { ids.firstIndex(of: $0) } ?? to
        // Passed going down (a jump up to the newest passes nothing it shows).
        let low = to > from ? min(from, top) : top
        // On screen: a card with the line below it (where the marker is) in the body.
        let high = min(ids.count - 1, max(to, top + visibleCount(s, c) - 2))
        guard low <= high else { return nil }
        return ids[low...high].first { gaps.contains($0) }
    }

    static func isThread(_ id: TimelineID) -> Bool { if case .thread = id { true } else { false } }
    static func isConversation(_ id: TimelineID) -> Bool { if case .conversation = id { true } else { false } }

    /// Moves the top so the selected card is wholly visible (below the "newer" line).
    static func scrollToSelection(_ s: inout AppState, _ c: Context) {
        let ids = c.ids(s.pane)
        guard let sel = s.pane.selected.flatMap({ ids.firstIndex(of: $0) }) else { return }
        var top = s.pane.top.flatMap { ids.firstIndex(of: $0) } ?? sel
        if sel < top { top = sel }
        let bodyHeight = Layout(s).body.height
        // A selected card with a gap below it keeps its marker line in view.
        let marker = c.shownGaps(s.pane.id).contains(ids[sel]) ? 1 : 0
        guard top < sel else {
            s.pane.top = ids[top]
            return
        }
        // The first top from the current one down that shows the selected card whole, found
        // from the selection up: a jump far down (the last of 100k) measures the cards that
        // fit, not every card it passes. `used`: the rows from top `t` to the selected card,
        // the separators between them and the line saying newer posts are above (while t > 0).
        var t = sel
        var used = (sel > 0 ? 1 : 0) + marker + height(ids[sel], s, c)
        while t > top {
            let above = used + height(ids[t - 1], s, c) + 1 - (t == 1 ? 1 : 0)
            guard above <= bodyHeight else { break }
            used = above
            t -= 1
        }
        s.pane.top = ids[t]
    }

    // MARK: - Keeping the panes consistent with the store

    /// Selects the newest tweet of a pane that has none, moves a selection or top whose tweet
    /// went away to the next older one, and marks the first tweets seen as read.
    static func settle(_ s: inout AppState, _ c: Context) -> [Effect] {
        var fx: [Effect] = []
        for p in s.panes.indices {
            let pane = s.panes[p]
            let ids = c.ids(pane)
            guard let first = ids.first else { continue }
            if pane.selected == nil {
                s.panes[p].selected = first
                s.panes[p].top = first
                if c.view(pane.id)?.readMarker == nil, !isThread(pane.id) { fx.append(.markRead(pane.id, ids[0])) }
                continue
            }
            if let sel = pane.selected, !ids.contains(sel) { s.panes[p].selected = replacement(sel, ids, pane.id) }
            if let top = pane.top, !ids.contains(top) { s.panes[p].top = replacement(top, ids, pane.id) }
            if s.panes[p].top == nil { s.panes[p].top = s.panes[p].selected }
        }
        if s.panes.indices.contains(s.active) { scrollToSelection(&s, c) }
        return fx
    }

    /// The tweet to stand on when `gone` disappeared: the next one in reading order.
    static func replacement(_ gone: TweetID, _ ids: PaneIDs, _ tl: TimelineID) -> TweetID? {
        ids.after(gone) ?? ids.last
    }
}
