import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Streams: the v1.1 user and filter streams, the v2 filtered stream and its rules, and what
/// their messages change in the store.
extension SyncEngine {
    // MARK: - Streams

    func startUserStream() {
        guard streams["user"] == nil else { return }
        startStream(key: "user", kind: .user, timelines: [.home, .mentions])
    }

    func startStream(key: String, kind: StreamKind, timelines: [TimelineID], through: TwitterClient? = nil) {
        let events = (through ?? client).stream(kind, stallTimeout: options.stallTimeout, clock: options.clock)
        streams[key] = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event, key: key, timelines: timelines)
            }
        }
    }

    func handle(_ event: StreamEvent, key: String, timelines: [TimelineID]) async {
        // The filtered stream feeds whichever search panes are open now.
        let targets =
            key == Self.filteredKey
            ? opened.filter { if case .search = $0 { true } else { false } }.sorted { $0.description < $1.description }
            : timelines.filter(opened.contains)
        switch event {
        case .state(.streaming):
            board.count { $0.connects += 1 }
            streamsUp.insert(key)
            if key == "user" { userStreamFailures = 0 }
            // Everything before this point is in the store; whatever the stream missed is newer
            // than what each timeline holds now.
            for tl in targets {
                // Connected again: a network error from before is over.
                board.update(tl) {
                    $0.state = .streaming
                    $0.lastError = nil
                    $0.lastErrorAt = nil
                }
                requestCatchUp(tl, ceiling: await store.newest(tl))
            }
        case .state(.connecting):
            streamsUp.remove(key)
            for tl in targets { board.update(tl) { if $0.state != .streaming { $0.state = .connecting } } }
        case .state(.waiting(let seconds, let reason)):
            streamsUp.remove(key)
            let retry = now() + seconds
            for tl in targets { fail(tl, reason: reason, state: .offline(retry: retry, reason: reason)) }
            if key == "user" {
                userStreamFailures += 1
                if userStreamFailures >= options.streamFailuresBeforePolling { fallBackToPolling() }
            }
        case .state(.stopped), .statistics:
            break
        case .skipped:
            // A message was lost in transit: fetch what it may have carried.
            board.count { $0.skippedMessages += 1 }
            for tl in targets { requestCatchUp(tl, ceiling: await store.newest(tl)) }
        case .message(let m):
            await apply(m, targets: targets)
            // Each post the filtered stream delivers is billed: once not one more fits the
            // budget, the stream is closed (reads resume at 00:00 UTC).
            if key == Self.filteredKey, let until = budgetSpentUntil() {
                streams.removeValue(forKey: key)?.cancel()
                streamsUp.remove(key)
                for tl in targets { fail(tl, reason: budgetWords, state: .budgetSpent(until: until), refused: true) }
            }
        }
    }

    func apply(_ message: StreamMessage, targets: [TimelineID]) async {
        switch message {
        case .matched(let t, let tags):
            let into = targets.filter { if case .search(let q) = $0 { tags.contains(Self.ruleTag(q)) } else { false } }
            if !into.isEmpty { await store.add(withSessionFlags(t), to: into) }
        case .tweet(let t):
            var into: [TimelineID] = []
            for tl in targets {
                switch tl {
                case .home: if isHome(t) { into.append(tl) }
                case .mentions: if isMention(t) { into.append(tl) }
                default: into.append(tl)
                }
            }
            if !into.isEmpty { await store.add(withSessionFlags(t), to: into) }
        case .delete(let id, _):
            await store.delete(id)
        case .friends(let ids):
            friends = Set(ids)
        case .disconnect(let code, _, let reason):
            for tl in targets {
                fail(
                    tl, reason: "The stream was closed: \(StreamMessage.disconnectMeaning(code))" + (reason.isEmpty ? "" : " (\(reason))"),
                    state: nil)
            }
        case .warning(_, let text, _):
            for tl in targets { fail(tl, reason: "Stream warning: \(text)", state: nil) }
        default:
            break
        }
    }

    func isHome(_ t: Tweet) -> Bool {
        t.user.id == account.id || (friends?.contains(t.user.id) ?? !isMention(t))
    }

    func isMention(_ t: Tweet) -> Bool {
        let me = account.screenName.lowercased()
        return t.retweetedStatus == nil && t.user.id != account.id
            && t.entities.mentions.contains { $0.screenName.lowercased() == me }
    }

    /// The user stream keeps failing (v1.1 user streams were retired on twitter.com): poll.
    func fallBackToPolling() {
        guard !homePolling else { return }
        homePolling = true
        board.count { $0.fellBackToPolling = true }
        streams.removeValue(forKey: "user")?.cancel()
        for tl in [TimelineID.home, .mentions] where opened.contains(tl) { startPolling(tl) }
    }

    // MARK: - The v2 filtered stream

    static let filteredKey = "v2-filtered"
    public nonisolated static let rulePrefix = "linnet:search:"
    /// The tag of a search pane's rule: Linnet's own prefix and the query.
    public nonisolated static func ruleTag(_ query: String) -> String { rulePrefix + query }

    /// Makes the app's Linnet rules match the open search panes (one at a time, in order),
    /// then keeps one stream open while there is a search, none when there is not. If the
    /// rules cannot be set, the searches are polled instead, and the pane says why.
    func syncFilteredStream() {
        let previous = rulesTask
        rulesTask = Task { [weak self] in
            await previous?.value
            await self?.applyRules()
        }
    }

    func applyRules() async {
        guard let app = options.v2StreamClient, !filteredStreamRefused else { return }
        let searches = opened.compactMap { id -> String? in if case .search(let q) = id { q } else { nil } }.sorted()
        do {
            _ = try await app.v2SyncRules(searches.map { (value: $0, tag: Self.ruleTag($0)) }, prefix: Self.rulePrefix)
        } catch {
            if Task.isCancelled { return }
            filteredStreamRefused = true
            streams.removeValue(forKey: Self.filteredKey)?.cancel()
            let why = "The filtered stream's rules could not be set (\(Self.words(error))); polling instead."
            for q in searches where opened.contains(.search(q)) {
                fail(.search(q), reason: why, state: nil)
                startPolling(.search(q))
            }
            return
        }
        if searches.isEmpty {
            streams.removeValue(forKey: Self.filteredKey)?.cancel()
            streamsUp.remove(Self.filteredKey)
        } else if let until = budgetSpentUntil() {
            for q in searches { fail(.search(q), reason: budgetWords, state: .budgetSpent(until: until), refused: true) }
        } else if streams[Self.filteredKey] == nil {
            startStream(key: Self.filteredKey, kind: .v2Filtered, timelines: [], through: app)
        }
    }
}
