import Screen
import Timeline
import TwitterAPI

/// Keys in the messages pane and in a conversation, writing a message, and its answer.
extension Reducer {
    /// What a key does in a messages pane; nil where it does what it does in any pane.
    static func messageKeys(_ command: Command, _ s: inout AppState, _ c: Context) -> [Effect]? {
        switch s.pane.id {
        case .messages: return inboxKeys(command, &s, c)
        case .conversation(let id): return conversationKeys(command, id, &s, c)
        default: return nil
        }
    }

    /// The selected conversation's place in the inbox (the first when none was chosen).
    static func selectedConversation(_ p: PaneState, _ mailbox: Mailbox) -> Int {
        p.conversation.flatMap { id in mailbox.conversations.firstIndex { $0.id == id } } ?? 0
    }

    static func inboxKeys(_ command: Command, _ s: inout AppState, _ c: Context) -> [Effect]? {
        let mailbox = c.snapshot.mailbox
        let list = mailbox.conversations
        let i = selectedConversation(s.pane, mailbox)
        let page = max(1, Layout(s).body.height / 3 - 1)
        func go(_ n: Int) -> [Effect] {
            guard !list.isEmpty else { return [] }
            // Past the last held: the next older page, once at a time.
            if n >= list.count, mailbox.older != nil, !s.loadingOlderMessages {
                s.loadingOlderMessages = true
                return [.loadOlderMessages]
            }
            s.pane.conversation = list[max(0, min(list.count - 1, n))].id
            return []
        }
        switch command {
        case .down: return go(i + 1)
        case .up: return go(i - 1)
        case .pageDown: return go(i + page)
        case .pageUp: return go(i - page)
        case .top: return go(0)
        case .bottom: return go(list.count - 1)
        case .thread:
            guard i < list.count else { return nothing(&s) }
            return openPane(.conversation(list[i].id), &s)
        case .reply:
            guard i < list.count else { return nothing(&s) }
            return writeMessage(in: list[i].id, &s, c)
        case .refresh: return [.refresh(.messages)]
        case .retweet, .like, .quote, .delete, .author, .authorLikes, .profile, .links, .copyLink, .copyText:
            s.notice = Notice(Words.notOnMessages, isError: false, at: s.now)
            return []
        default: return nil
        }
    }

    static func conversationKeys(_ command: Command, _ id: String, _ s: inout AppState, _ c: Context) -> [Effect]? {
        let mailbox = c.snapshot.mailbox
        let height = Layout(s).body.height
        let lines =
            mailbox.conversation(id).map { Views.conversationLines($0, mailbox, width: s.width, now: s.shownNow, theme: .fallback).count }
            ?? 0
        let room = lines > height ? height - 1 : height
        let most = max(0, lines - room)
        func scroll(_ n: Int) -> [Effect] {
            let wanted = s.pane.scrollBack + n
            s.pane.scrollBack = max(0, min(most, wanted))
            // Past the oldest held: the next older page.
            if wanted > most, mailbox.older != nil, !s.loadingOlderMessages {
                s.loadingOlderMessages = true
                return [.loadOlderMessages]
            }
            return []
        }
        switch command {
        case .up: return scroll(1)
        case .down: return scroll(-1)
        case .pageUp: return scroll(max(1, room - 1))
        case .pageDown: return scroll(-max(1, room - 1))
        case .top: return scroll(most - s.pane.scrollBack)
        case .bottom:
            s.pane.scrollBack = 0
            return []
        case .thread, .reply: return writeMessage(in: id, &s, c)
        case .refresh: return [.refresh(.messages)]
        case .retweet, .like, .quote, .delete, .author, .authorLikes, .profile, .links, .copyLink, .copyText:
            s.notice = Notice(Words.notOnMessages, isError: false, at: s.now)
            return []
        default: return nil
        }
    }

    /// Opens the box for a message in a conversation (a group cannot be written to yet).
    static func writeMessage(in conversation: String, _ s: inout AppState, _ c: Context) -> [Effect] {
        guard let u = c.snapshot.mailbox.person(conversation) else {
            s.notice = Notice(Words.cannotWriteToGroup, isError: false, at: s.now)
            return []
        }
        return writeMessage(to: MessageTarget(id: u.id, screenName: u.screenName), &s)
    }

    /// Opens the box for a message to one person: their kept draft, or an empty one.
    static func writeMessage(to target: MessageTarget, _ s: inout AppState) -> [Effect] {
        if s.readOnly {
            s.notice = Notice(SyncEngine.appOnlyMessages, isError: false, at: s.now)
            return []
        }
        if let i = s.drafts.lastIndex(where: { $0.to?.id == target.id }) {
            s.compose = s.drafts.remove(at: i)
            return []
        }
        var box = Compose()
        box.to = target
        s.compose = box
        return []
    }

    /// Why a message cannot be sent, or nil when it can.
    public static func messageRefusal(_ text: String) -> String? {
        if text.allSatisfy(\.isWhitespace) { return Words.nothingToSend }
        if text.count > TwitterClient.messageLimit { return Words.messageTooLong(by: text.count - TwitterClient.messageLimit) }
        return nil
    }

    static func messageSent(_ to: MessageTarget, _ result: Result<DirectMessage, SyncError>, _ s: inout AppState) -> [Effect] {
        switch result {
        case .success(let m):
            if s.compose?.to == to, s.compose?.sending == true { s.compose = nil }
            s.notice = Notice(Words.messageSent(TweetCard.clean(to.screenName)), isError: false, at: s.now)
            var fx: [Effect] = [.saveDrafts(draftRecords(s))]
            if s.pane.id != .conversation(m.conversation) { fx += openPane(.conversation(m.conversation), &s) }
            s.pane.scrollBack = 0
            return fx
        case .failure(let e):
            if s.compose?.to == to {
                s.compose?.sending = false
                s.compose?.error = e.message
            }
            s.notice = Notice(e.message, isError: true, at: s.now)
            return [.saveDrafts(draftRecords(s))]
        }
    }

    /// A conversation on screen is read: asked once per newest message.
    static func markShownConversationRead(_ s: inout AppState, _ c: Context) -> [Effect] {
        guard s.panes.indices.contains(s.active), case .conversation(let id) = s.pane.id, let me = c.snapshot.mailbox.me,
            let conv = c.snapshot.mailbox.conversation(id), conv.unread(me: me) > 0, let newest = conv.newest?.id
        else { return [] }
        let key = "\(id):\(newest)"
        guard s.markedRead != key else { return [] }
        s.markedRead = key
        return [.markConversationRead(id)]
    }
}
