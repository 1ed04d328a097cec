import Timeline

/// What the app loop asks of the state about the session: an opened account, the pane it was
/// left on, a quit called off, and the bells and notices a snapshot calls for.
extension Reducer {
    static func session(_ action: Action, _ s: inout AppState) -> [Effect] {
        switch action {
        case .accountOpened(let facts):
            s.confirmBeforePost = facts.confirmBeforePost
            s.readOnly = facts.readOnly
            s.cannot = facts.cannot
            s.statusNote = facts.statusNote
        case .sessionRestored(let id):
            if let i = s.panes.firstIndex(where: { $0.id == id }) {
                s.active = i
            } else {
                s.panes.append(PaneState(id))
                s.active = s.panes.count - 1
                return [.open(id)]
            }
        case .quitCalledOff(let why):
            s.quitting = false
            s.notice = Notice(Words.draftNotSavedQuitCalledOff(why), isError: true, at: s.now)
        default: break
        }
        return []
    }

    /// Whether a timeline has been read from the server at least once (it polls or streams).
    static func readFromServer(_ state: SyncState) -> Bool {
        switch state {
        case .polling, .streaming, .budgetSpent, .rateLimited: return true
        case .idle, .loading, .connecting, .offline: return false
        }
    }

    /// The bell and desktop notices a new snapshot calls for.
    static func alerts(_ s: inout AppState, _ c: Context) -> [Effect] {
        let rules = c.alertRules
        let found = s.alerts.update(
            mentions: c.unrevealedMentions ?? Array(c.view(.mentions)?.ids ?? []), tweet: { c.snapshot.tweets[$0] },
            mailbox: c.snapshot.mailbox, now: s.now, bellOnMention: rules.bellOnMention, bellOnMessage: rules.bellOnMessage,
            desktop: rules.desktop, mentionsLoaded: c.statuses[.mentions].map { readFromServer($0.state) } ?? false)
        return found.map { alert in
            switch alert {
            case .bell: .bell
            case .notify(let title, let body): .notify(title: title, body: body)
            }
        }
    }

}
