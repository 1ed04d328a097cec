import Bedrock
import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Direct messages: read every `messagesInterval` while a messages pane is open, older pages
/// on demand, and sent like any write (refused before sending where it cannot succeed, the
/// text kept by the caller when it fails).
extension SyncEngine {
    public static let appOnlyMessages = "Direct messages need a user's sign-in; an app-only (bearer) reader has none."

    nonisolated static func isMessages(_ id: TimelineID) -> Bool {
        switch id {
        case .messages, .conversation: return true
        default: return false
        }
    }

    func startMessages(_ id: TimelineID) {
        if isAppOnly {
            fail(id, reason: Self.appOnlyMessages, state: nil, refused: true)
            return
        }
        guard messagesTask == nil else {
            // Read already: the new pane starts from where the others stand.
            if let other = messagePanes.first(where: { $0 != id }) {
                let st = board.status(other)
                board.update(id) { $0 = st }
            }
            return
        }
        messagesTask = Task { [weak self, clock = options.clock, interval = options.messagesInterval] in
            while !Task.isCancelled {
                guard let self else { return }
                let wait = await self.pollMessages()
                do { try await clock.sleep(seconds: wait ?? interval) } catch { return }
            }
        }
    }

    private var messagePanes: [TimelineID] { opened.filter(Self.isMessages) }

    /// Reads the newest page; returns how long to wait when it failed (nil: the usual interval).
    @discardableResult
    public func pollMessages() async -> Double? {
        let endpoint = endpoint(.messages)
        for id in messagePanes { board.update(id) { $0.state = .loading } }
        do {
            try await gate(endpoint, for: .messages)
            let page = try await client.messages(me: account)
            let held = await store.mailbox
            // The first page of a session names where older ones begin; later polls leave the
            // place reached by paging back as it is (nil at the end stays the end).
            let older: String?? = held.loaded ? nil : .some(page.next)
            await store.mergeMessages(page.messages, users: page.users, me: account.id, older: older)
            let next = now() + options.messagesInterval
            for id in messagePanes {
                board.update(id) {
                    $0.state = .polling(next: next)
                    $0.lastError = nil
                    $0.refused = false
                }
            }
            return nil
        } catch {
            let retry = now() + options.messagesInterval
            for id in messagePanes { fail(id, error, retry: retry) }
            let schedule = client.rateLimits.schedule
            if let until = schedule.refusedUntil(endpoint) ?? schedule.windows[endpoint].map({ Double($0.reset) }), until > now(),
                case let e as APIError = error, e.httpStatus == 429
            {
                return until - now() + 1
            }
            return nil
        }
    }

    /// The next older page of messages, if there is one; false when everything is held.
    @discardableResult
    public func loadOlderMessages() async -> Bool {
        guard !isAppOnly, let cursor = await store.mailbox.older else { return false }
        do {
            let page = try await client.messages(me: account, next: cursor)
            await store.mergeMessages(page.messages, users: page.users, me: account.id, older: .some(page.next))
            return true
        } catch {
            for id in messagePanes { fail(id, error, retry: now() + options.messagesInterval) }
            return false
        }
    }

    /// Sends a message to one person; the message as X keeps it, held at once in the mailbox.
    public func sendMessage(_ text: String, to recipient: UserID) async -> Result<DirectMessage, SyncError> {
        if isAppOnly { return .failure(SyncError(.appOnly, doing: .message)) }
        if recipient == account.id { return .failure(SyncError(.messageToSelf, doing: .message)) }
        if text.trimmedLines().isEmpty { return .failure(SyncError(.emptyMessage, doing: .message)) }
        if text.count > TwitterClient.messageLimit {
            return .failure(SyncError(.messageTooLong(text.count, limit: TwitterClient.messageLimit), doing: .message))
        }
        do {
            let m = try await client.sendMessage(text, to: recipient, me: account)
            await store.mergeMessages([m], users: [], me: account.id, loaded: false)
            await store.markConversationRead(m.conversation)
            return .success(m)
        } catch {
            return .failure(SyncError.failed(error, doing: .message))
        }
    }
}
