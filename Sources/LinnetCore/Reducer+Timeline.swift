import Screen
import Timeline
import TweetText
import TwitterAPI

/// What the reading keys do: moving, panes, writing, and leaving.
extension Reducer {
    static func timeline(_ command: Command, _ s: inout AppState, _ c: Context) -> [Effect] {
        let ids = c.ids(s.pane)
        let index = s.pane.selected.flatMap { ids.firstIndex(of: $0) }
        let selected = s.pane.selected.flatMap { c.snapshot.tweets[$0] }
        if let fx = messageKeys(command, &s, c) { return fx }
        if s.readOnly, [.compose, .reply, .quote, .retweet, .like, .delete, .newThread, .continueThread].contains(command) {
            s.notice = Notice(SyncEngine.appOnlyWrites, isError: false, at: s.now)
            return []
        }
        switch command {
        case .down: return select(index.map { $0 + 1 } ?? 0, &s, c)
        case .up: return select(index.map { $0 - 1 } ?? 0, &s, c)
        case .pageDown: return select((index ?? 0) + max(1, visibleCount(s, c) - 1), &s, c)
        case .pageUp: return select((index ?? 0) - max(1, visibleCount(s, c) - 1), &s, c)
        case .top: return select(0, &s, c)
        case .bottom: return select(ids.count - 1, &s, c)
        case .nextPane: s.active = (s.active + 1) % s.panes.count
        case .previousPane: s.active = (s.active + s.panes.count - 1) % s.panes.count
        case .pane1, .pane2, .pane3, .pane4, .pane5, .pane6, .pane7, .pane8, .pane9: goToPane(command, &s)
        case _ where Command.farPanes.contains(command): goToPane(command, &s)
        case .closePane: return closePane(&s)
        case .compose:
            // A new post: the one being written if it was put aside, never a reply, quote,
            // message or thread draft (those reopen from their own post or person).
            if let i = s.drafts.lastIndex(where: \.isPlainPost) {
                s.compose = s.drafts.remove(at: i)
            } else {
                s.compose = Compose()
            }
            if !s.drafts.isEmpty { s.notice = Notice(Words.otherDraftsKept(s.drafts.count), isError: false, at: s.now) }
        case .reply: return reply(to: selected, &s)
        case .quote: return quote(selected, &s)
        case .retweet: return askRetweet(selected, &s)
        case .like: return like(selected, &s)
        case .delete: return delete(selected, &s)
        case .thread:
            // A post too long for its card is read whole first; its thread from there.
            if let sel = selected, s.reading == nil, TweetCard.isCut(sel, width: s.width) {
                s.reading = AppState.Reading(id: sel.id)
                return []
            }
            guard let t = selected?.content else { return nothing(&s) }
            return openConversation(at: t.id, &s)
        case .author: return selected.map { openPane(.user($0.content.user.screenName), &s) } ?? nothing(&s)
        case .authorLikes: return selected.map { openPane(.likes($0.content.user.screenName), &s) } ?? nothing(&s)
        case .profile: return selected.map { openProfile($0.content.user.screenName, &s) } ?? nothing(&s)
        case .directMessages: return openPane(.messages, &s)
        case .newThread: return openThread(continuing: nil, &s)
        case .continueThread:
            guard let t = selected?.content else { return nothing(&s) }
            guard t.user.screenName.lowercased() == s.account.lowercased() else {
                s.notice = Notice(Words.continueOnlyYours, isError: false, at: s.now)
                return []
            }
            return openThread(continuing: t.id, &s)
        case .lists:
            s.notice = Notice(Words.loadingLists, isError: false, at: s.now)
            return [.loadLists()]
        case .search: s.searchPrompt = Editor()
        case .refresh: return [.refresh(s.pane.id)]
        case .help:
            s.showHelp = true
            s.helpTop = 0
        case .messages: s.showLog = true
        case .revealMuted:
            let hidden = c.hidden(s.pane.id)
            if s.revealMutedUntil != nil {
                s.revealMutedUntil = nil
            } else if hidden.count == 0 {
                s.notice = Notice(Words.nothingMuted, isError: false, at: s.now)
            } else {
                s.revealMutedUntil = s.now + Self.revealSeconds
                let key = c.keyMap.hint(.revealMuted, in: .timeline) ?? "M"
                s.notice = Notice(Words.revealing(hidden.count, key: key), isError: false, at: s.now)
            }
        case .links:
            guard let t = selected else { return nothing(&s) }
            s.links = LinkPicker(t)
        case .view: return openViewer(selected, &s)
        case .copyLink:
            guard let t = selected else { return nothing(&s) }
            return [.copy(LinkPicker.address(t), what: Words.tweetAddress)]
        case .copyText:
            guard let t = selected else { return nothing(&s) }
            return [.copy(Self.plainText(t.content.expandedText), what: Words.tweetText)]
        case .cycleTheme: return cycleTheme(&s, c)
        case .switchAccount: return switchAccount(&s, c)
        case .quit: return quit(&s)
        default: break
        }
        return []
    }

    static func goToPane(_ command: Command, _ s: inout AppState) {
        guard let n = Int(command.rawValue.dropFirst(5)), n >= 1, n <= s.panes.count else { return }
        s.active = n - 1
    }

    static func closePane(_ s: inout AppState) -> [Effect] {
        let id = s.pane.id
        if id == .home || id == .mentions || s.panes.count == 1 {
            s.notice = Notice(Words.lastPaneStays(onlyOne: s.panes.count == 1), isError: false, at: s.now)
            return []
        }
        s.panes.remove(at: s.active)
        s.active = min(s.active, s.panes.count - 1)
        return [.close(id)]
    }

    /// Opens the reply box: a kept draft for that tweet, or one addressed to everyone in it.
    static func reply(to selected: Tweet?, _ s: inout AppState) -> [Effect] {
        guard let t = selected?.content else { return nothing(&s) }
        if let i = s.drafts.lastIndex(where: { $0.replyTo == t.id }) {
            s.compose = s.drafts.remove(at: i)
            return []
        }
        var names = [t.user.screenName] + t.entities.mentions.map(\.screenName)
        if let rt = selected, rt.retweetedStatus != nil { names.append(rt.user.screenName) }
        var seen = Set<String>()
        names = names.filter { $0.lowercased() != s.account.lowercased() && seen.insert($0.lowercased()).inserted }
        let prefill = names.map { "@" + $0 }.joined(separator: " ")
        var box = Compose(editor: Editor(prefill.isEmpty ? "" : prefill + " "), replyTo: t.id)
        box.prefill = box.editor.text
        s.compose = box
        return []
    }

    static func quote(_ selected: Tweet?, _ s: inout AppState) -> [Effect] {
        guard let t = selected?.content else { return nothing(&s) }
        if let why = s.cannot[.quote] { return said(why, &s) }
        // Quoted by id (v2's quote_tweet_id, v1.1's attachment_url): no link in the text, so
        // nothing of the 280 is spent on it, and on pay-per-use it is not billed as a link.
        if let i = s.drafts.lastIndex(where: { $0.quote == t.id && $0.to == nil }) {
            s.compose = s.drafts.remove(at: i)
            return []
        }
        var box = Compose()
        box.quote = t.id
        s.compose = box
        return []
    }

    static func askRetweet(_ selected: Tweet?, _ s: inout AppState) -> [Effect] {
        guard let t = selected?.content else { return nothing(&s) }
        s.question = t.isRetweeted ? .unretweet(t.id) : .retweet(t.id)
        return []
    }

    static func like(_ selected: Tweet?, _ s: inout AppState) -> [Effect] {
        guard let t = selected else { return nothing(&s) }
        if let why = s.cannot[.like] { return said(why, &s) }
        return [.perform(t.content.isFavorited ? .unlike(t.id) : .like(t.id))]
    }

    /// Asks before deleting one's own tweet (or undoing one's own retweet); others' refused.
    static func delete(_ selected: Tweet?, _ s: inout AppState) -> [Effect] {
        guard let t = selected else { return nothing(&s) }
        let mine = t.user.screenName.lowercased() == s.account.lowercased()
        if t.retweetedStatus != nil && mine {
            s.question = .unretweet(t.content.id)
        } else if mine {
            s.question = .delete(t.id)
        } else {
            s.notice = Notice(Words.notYours, isError: true, at: s.now)
        }
        return []
    }

    static func cycleTheme(_ s: inout AppState, _ c: Context) -> [Effect] {
        guard !c.themes.isEmpty else { return [] }
        let i = c.themes.firstIndex(of: s.themeName) ?? -1
        s.themeName = c.themes[(i + 1) % c.themes.count]
        return [.setTheme(s.themeName)]
    }

    static func switchAccount(_ s: inout AppState, _ c: Context) -> [Effect] {
        if s.readOnly {
            s.notice = Notice(Words.switchNeedsAccounts, isError: false, at: s.now)
            return []
        }
        guard c.accounts.count > 1 else {
            s.notice = Notice(Words.oneAccount, isError: false, at: s.now)
            return []
        }
        let i = c.currentAccount.flatMap { c.accounts.firstIndex(of: $0) } ?? -1
        return [.switchAccount(c.accounts[(i + 1) % c.accounts.count])]
    }

    /// Quits at once, or asks first when a draft would be left behind.
    static func quit(_ s: inout AppState) -> [Effect] {
        if !draftRecords(s).isEmpty {
            s.question = .quitWithDraft
            return []
        }
        s.quitting = true
        return [.quit]
    }

    /// Text for the clipboard: the tweet whole, less what a terminal would act on.
    static func plainText(_ text: String) -> String {
        var t = text
        t.unicodeScalars.removeAll { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }
        return t
    }

    /// A write the account cannot make: said at once, nothing asked or sent.
    static func said(_ why: String, _ s: inout AppState) -> [Effect] {
        s.notice = Notice(why, isError: false, at: s.now)
        return []
    }

    static func nothing(_ s: inout AppState) -> [Effect] {
        s.notice = Notice(Words.noSelection, isError: false, at: s.now)
        return []
    }

    /// A conversation opens on the post it was opened from, not on its first post.
    static func openConversation(at id: TweetID, _ s: inout AppState) -> [Effect] {
        let fresh = !s.panes.contains { $0.id == .thread(id) }
        let fx = openPane(.thread(id), &s)
        if fresh {
            s.panes[s.active].selected = id
            s.panes[s.active].top = id
        }
        return fx
    }

    static func openPane(_ id: TimelineID, _ s: inout AppState) -> [Effect] {
        if let i = s.panes.firstIndex(where: { $0.id == id }) {
            s.active = i
            return []
        }
        s.panes.append(PaneState(id))
        s.active = s.panes.count - 1
        return [.open(id)]
    }
}

extension Reducer {
    /// Cards that fit in the body from the top tweet.
    static func visibleCount(_ s: AppState, _ c: Context) -> Int {
        let ids = c.ids(s.pane)
        guard let top = s.pane.top.flatMap({ ids.firstIndex(of: $0) }) else { return 1 }
        let body = Layout(s).body
        var used = top > 0 ? 1 : 0
        var n = 0
        for id in ids[top...] {
            used += height(id, s, c) + 1
            if used > body.height + 1 { break }
            n += 1
        }
        return max(1, n)
    }

    /// Lays out the cards just past either end of the view (kept in the card cache), so a key
    /// that moves one card down or up finds the cards it brings in ready. After a frame is
    /// shown, while it is read.
    public static func layOutNeighbours(_ s: AppState, _ c: Context) {
        guard c.cardTheme != nil, s.panes.indices.contains(s.active) else { return }
        // In the terminal's width mode, as the frame: the card cache keys on it.
        DisplayWidth.$mode.withValue(c.widthMode) {
            let ids = c.ids(s.pane)
            guard let top = s.pane.top.flatMap({ ids.firstIndex(of: $0) }) else { return }
            // The first card that does not fit whole, or the one under a top card taller than
            // the pane (which counting never measures). A key down that brings it in whole scrolls
            // by at most the tallest card above it: the rows that frees, at most the pane's,
            // show the cards after it, laid out now (one, unless a tall card leaves the top).
            let below = top + visibleCount(s, c)
            if ids.indices.contains(below) { _ = height(ids[below], s, c) }
            let tallest = (top..<min(below, ids.count)).map { height(ids[$0], s, c) + 1 }.max() ?? 0
            let freed = min(tallest, Layout(s).body.height)
            var filled = 0
            var i = below + 1
            while ids.indices.contains(i) {
                filled += height(ids[i], s, c) + 1
                i += 1
                if filled >= freed { break }
            }
            if ids.indices.contains(top - 1) { _ = height(ids[top - 1], s, c) }
        }
    }

    static func height(_ id: TweetID, _ s: AppState, _ c: Context) -> Int {
        if let known = c.heights?.lines(id, width: s.width, now: s.shownNow) { return known }
        guard let t = c.snapshot.tweets[id] else { return 1 }
        let lines = TweetCard.height(t, width: s.width, now: s.shownNow, theme: c.cardTheme) + Views.thumbnailRows(t, c)
        c.heights?.keep(id, width: s.width, now: s.shownNow, lines: lines)
        return lines
    }
}
