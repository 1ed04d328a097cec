import Bedrock
import FoundationEssentials
import Screen
import Timeline
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The messages pane (a conversation to a row, newest first, unread marked) and one
/// conversation (oldest at the top, the newest just above the status bar, every message whole).
extension Views {
    /// A person's name and handle, or the conversation's id when nobody is known.
    static func person(_ id: UserID?, _ mailbox: Mailbox) -> (name: String, handle: String) {
        guard let id else { return (Words.groupConversation, "") }
        guard let u = mailbox.users[id] else { return ("@" + id.description, "") }
        return (TweetCard.clean(u.name), "@" + TweetCard.clean(u.screenName))
    }

    static func inboxPane(_ screen: inout Screen, _ r: Rect, _ s: AppState, _ c: Context, _ t: Theme) {
        let mailbox = c.snapshot.mailbox
        let list = mailbox.conversations
        guard !list.isEmpty else {
            let st = c.statuses[.messages] ?? SyncStatus()
            let text =
                st.lastError.map { Words.messagesFailed($0) }
                ?? (mailbox.loaded ? Words.noDirectMessages : Words.readingMessages)
            for (i, l) in TextLayout.wrap([Span(text, t[st.lastError == nil ? .dim : .statusError])], width: max(1, r.width - 4))
                .enumerated()
            where r.y + 1 + i < r.maxY {
                screen.put(l, x: r.x + 2, y: r.y + 1 + i, clip: r)
            }
            return
        }
        let me = mailbox.me ?? UserID(0)
        let selected = Reducer.selectedConversation(s.pane, mailbox)
        // Three rows a conversation (name, newest message, a blank); the selection kept in view.
        let perRow = 3
        let fit = max(1, (r.height + 1) / perRow)
        let first = max(0, min(selected - fit + 1, list.count - fit))
        var y = r.y
        for (i, conv) in list.enumerated().dropFirst(max(0, first)) {
            guard y < r.maxY else { break }
            let who = person(conv.other, mailbox)
            let unread = conv.unread(me: me)
            var head = [Span(unread > 0 ? "● " : "  ", t[.newMarker]), Span(who.name, t[.name])]
            if !who.handle.isEmpty { head.append(Span(" " + who.handle, t[.handle])) }
            if let m = conv.newest { head.append(Span(" · " + Format.age(created: m.createdAtMs / 1000, now: s.shownNow), t[.time])) }
            if unread > 0 { head.append(Span(" · " + Words.unreadMessages(unread), t[.newMarker])) }
            screen.put(StyledLine(head), x: r.x + 1, y: y, clip: r)
            if let m = conv.newest, y + 1 < r.maxY {
                let text = m.displayText.text.replacingAll("\n", with: " ")
                let from = m.senderID == me ? Words.youSaid : ""
                let line = TextLayout.truncate(from + text, width: max(1, r.width - 4))
                screen.put(line, x: r.x + 3, y: y + 1, style: unread > 0 ? t[.text] : t[.dim], clip: r)
            }
            if i == selected { markSelected(&screen, Rect(x: r.x, y: y, width: r.width, height: min(2, r.maxY - y)), c, t) }
            y += perRow
        }
        if y < r.maxY, s.loadingOlderMessages { screen.put(Words.loadingOlderMessages, x: r.x + 3, y: y, style: t[.dim], clip: r) }
    }

    /// One line of a conversation as laid out: a message's heading or a line of its text.
    struct ConversationLine {
        var heading: Bool
        var mine: Bool
        var spans: StyledLine
    }

    /// Every line of a conversation at this width, oldest first: what the view draws and what
    /// the reducer scrolls by.
    static func conversationLines(_ conv: Conversation, _ mailbox: Mailbox, width: Int, now: Double, theme t: Theme) -> [ConversationLine] {
        let me = mailbox.me ?? UserID(0)
        var out: [ConversationLine] = []
        for m in conv.messages {
            let mine = m.senderID == me
            let who = mine ? (Words.you, "") : person(m.senderID, mailbox)
            var head = [Span(who.0, t[.name])]
            if !who.1.isEmpty { head.append(Span(" " + who.1, t[.handle])) }
            head.append(Span(" · " + Format.age(created: m.createdAtMs / 1000, now: now), t[.time]))
            if !mine && m.id > conv.lastRead { head.append(Span(" ●", t[.newMarker])) }
            if !out.isEmpty { out.append(ConversationLine(heading: false, mine: mine, spans: StyledLine([]))) }
            out.append(ConversationLine(heading: true, mine: mine, spans: StyledLine(head)))
            let d = m.displayText
            var spans: [Span] = []
            var cursor = d.text.unicodeScalars.startIndex
            let scalars = d.text.unicodeScalars
            func index(_ n: Int) -> String.UnicodeScalarView.Index { scalars.index(scalars.startIndex, offsetBy: n) }
            for h in d.highlights {
                let a = index(h.range.lowerBound)
                let b = index(h.range.upperBound)
                if cursor < a { spans.append(Span(String(scalars[cursor..<a]), t[.text])) }
                var style = t[.url]
                if case .url(let target) = h.kind { style = style.linked(Hyperlinks.id(for: target)) }
                spans.append(Span(String(scalars[a..<b]), style))
                cursor = b
            }
            if cursor < scalars.endIndex { spans.append(Span(String(scalars[cursor...]), t[.text])) }
            for l in TextLayout.wrap(spans, width: max(1, width - 4)) { out.append(ConversationLine(heading: false, mine: mine, spans: l)) }
        }
        return out
    }

    static func conversationPane(_ screen: inout Screen, _ r: Rect, _ id: String, _ s: AppState, _ c: Context, _ t: Theme) {
        let mailbox = c.snapshot.mailbox
        guard let conv = mailbox.conversation(id), !conv.messages.isEmpty else {
            screen.put(Words.noDirectMessages, x: r.x + 2, y: r.y + 1, style: t[.dim], clip: r)
            return
        }
        let lines = conversationLines(conv, mailbox, width: r.width, now: s.shownNow, theme: t)
        // When it does not all fit, the top row says there is more above (or that it is coming).
        let room = lines.count > r.height ? r.height - 1 : r.height
        let back = min(s.pane.scrollBack, max(0, lines.count - room))
        let end = lines.count - back
        let start = max(0, end - room)
        if lines.count > r.height {
            let more = start > 0 ? Words.olderAbove : (s.loadingOlderMessages ? Words.loadingOlderMessages : Words.conversationStart)
            screen.put(TextLayout.truncate(more, width: r.width), x: r.x, y: r.y, style: t[.newMarker], clip: r)
        }
        // Bottom-aligned: a short conversation sits just above the status bar, as chats do.
        var y = r.maxY - (end - start)
        for line in lines[start..<end] {
            if line.mine && !line.heading && !line.spans.spans.isEmpty {
                screen.put("│", x: r.x + 2, y: y, style: t[.border], clip: r)
            }
            screen.put(line.spans, x: r.x + (line.mine ? 4 : 2), y: y, clip: r)
            y += 1
        }
    }
}
