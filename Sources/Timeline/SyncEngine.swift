import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the store's open timelines current: the user stream for home and mentions and a filter
/// stream for a plain-word search when it can, REST polling otherwise, and a REST catch-up after
/// every (re)connect so nothing that happened while disconnected is missed. Every REST request
/// first checks what the last answers said about its rate-limit window.
public actor SyncEngine {
    public nonisolated let client: TwitterClient
    /// The API as the engine reads and writes through it; the engine never asks which it is.
    public nonisolated let face: any APIFace
    public nonisolated let store: TimelineStore
    /// The account the engine reads for.
    public nonisolated let account: User
    public nonisolated let options: SyncOptions
    /// Status and counters, readable without waiting on the engine.
    public nonisolated let board = SyncBoard()

    var opened: Set<TimelineID> = []
    var pollers: [TimelineID: Task<Void, Never>] = [:]
    /// What the reader is doing (`setPresence`): away, and which pane is on screen.
    var away = false
    var showing: TimelineID?
    /// When each timeline was last polled (engine clock), so a pane brought to the front is
    /// read at once only when its last read is not fresh.
    var lastPollAt: [TimelineID: Double] = [:]
    var streams: [String: Task<Void, Never>] = [:]
    var mutesTask: Task<Void, Never>?
    var messagesTask: Task<Void, Never>?
    /// Catch-ups waiting per timeline, with the lowest ceiling asked for.
    var pendingCatchUp: [TimelineID: TweetID?] = [:]
    /// The ceiling of a polled timeline's catch-up that failed: the next poll starts from it
    /// (not from the newest tweet held since), so the range it did not finish is fetched and
    /// reconciled instead of left behind as a gap.
    var unfinishedCeiling: [TimelineID: TweetID?] = [:]
    var lanes: [TimelineID: Task<Void, Never>] = [:]
    /// The like and repost state this session last gave each post, with the write's number,
    /// laid on the copies that arrive after: v2 timelines and v1.1 streams carry no flags of the
    /// reader's own, and a page asked for before the write would undo what the user sees.
    var sessionLiked: [TweetID: SessionFlag] = [:]
    var sessionReposted: [TweetID: SessionFlag] = [:]
    /// Writes of likes and reposts so far: a page asked for at `writes == n` knows of the first n.
    var writes: UInt64 = 0
    /// Kinds of write the key's access level refused this session (likes, retweets on a
    /// self-serve key), with X's words: asked again, they are refused here, nothing sent.
    var refusedByAccessLevel: [WriteAction.Kind: String] = [:]
    /// X refused a reply to a post open to everyone: the key's access level lets it reply only
    /// where the author mentioned or quoted the user, so such replies are refused here first.
    var repliesOnlyWhereEngaged = false
    /// The filtered stream's rule changes, one after another.
    var rulesTask: Task<Void, Never>?
    /// The app's rules could not be set: searches are polled for the rest of the session.
    var filteredStreamRefused = false
    /// Set when the server refused the sign-in itself (401, a revoked token): nothing is
    /// asked again, and the panes say to log in again.
    var signedOut: String?
    /// Failed catch-ups in a row per timeline, for the retry backoff.
    var retries: [TimelineID: Int] = [:]
    var friends: Set<UserID>?
    var userStreamFailures = 0
    var homePolling = false
    /// Streams connected now, by key.
    var streamsUp: Set<String> = []

    /// A bearer token reads searches, user timelines and single tweets, polled: no user stream,
    /// no filter stream, no Home or Mentions, no writes.
    public nonisolated var isAppOnly: Bool { client.auth.isAppOnly }

    /// Writes this account cannot make at all, with why, known before anything is asked: the
    /// reader neither offers nor asks about them.
    public nonisolated var refusedInAdvance: [WriteAction.Kind: String] {
        var out: [WriteAction.Kind: String] = [:]
        if let why = client.cannotBlock { out[.block] = why }
        // A key known to be self-serve lacks these from the first press (see `init`).
        for kind in face.refusedOnLevel(selfServe: options.selfServe).kinds { out[kind] = Self.notOnSelfServe }
        if isAppOnly {
            for kind in [WriteAction.Kind.post, .quote, .retweet, .like, .delete, .follow, .mute, .block] { out[kind] = Self.appOnlyWrites }
        }
        return out
    }

    public nonisolated static let appOnlyTimelines = "An app-only account reads searches and user timelines, not Home or Mentions."
    public nonisolated static let appOnlyWrites =
        "An app-only account is read-only: sign in as a user with `linnet login` to post, like or retweet."

    public init(client: TwitterClient, store: TimelineStore, account: User, options: SyncOptions = SyncOptions()) {
        self.init(face: client.face(), store: store, account: account, options: options)
    }

    /// An engine on a face of one's choosing (a scripted one in memory, in tests).
    public init(face: any APIFace, store: TimelineStore, account: User, options: SyncOptions = SyncOptions()) {
        self.client = face.client
        self.face = face
        self.store = store
        self.account = account
        face.know(reader: account)
        var o = options
        // Where every pane is polled (no user stream; v2's filtered stream needs the app's
        // token, not the user's), pages are at most what the API serves.
        if let largest = face.largestPage { o.pageSize = min(o.pageSize, largest) }
        if !face.hasUserStream { o.useStreams = false }
        if face.billsReads, let n = o.v2PageSize {
            // Deletes are looked for among held posts read today (not billed again), and only
            // half a page deep, so the new posts still fit in one page.
            o.reconcileDepth = min(o.reconcileDepth, n / 2)
            o.pageSize = max(1, min(o.pageSize, n))
            o.maxCatchUpPages = 1
        }
        self.options = o
        // A key known to be self-serve: what that level lacks is refused on the key from the
        // first press, not after X's first refusal.
        let level = face.refusedOnLevel(selfServe: o.selfServe)
        for kind in level.kinds { refusedByAccessLevel[kind] = Self.notOnSelfServe }
        repliesOnlyWhereEngaged = level.repliesOnlyWhereEngaged
    }

    public nonisolated static let notOnSelfServe = V2Face.notOnSelfServe

    // MARK: - Opening and closing

    /// Starts keeping a timeline current (loads it first).
    public func open(_ id: TimelineID) {
        guard !opened.contains(id) else { return }
        opened.insert(id)
        startReadingMutes()
        switch id {
        case .home, .mentions:
            if isAppOnly {
                fail(id, reason: Self.appOnlyTimelines, state: nil, refused: true)
            } else if options.useStreams && !homePolling {
                startUserStream()
                requestCatchUp(id, ceiling: nil)
            } else {
                startPolling(id)
            }
        case .search(let q):
            if options.v2StreamClient != nil, !filteredStreamRefused {
                board.update(id) { $0.state = .connecting }
                syncFilteredStream()
                requestCatchUp(id, ceiling: nil)
            } else if options.useStreams, !isAppOnly, let track = Self.trackPhrase(q) {
                startStream(key: "search:" + q, kind: .filter(track: [track], follow: []), timelines: [id])
                requestCatchUp(id, ceiling: nil)
            } else {
                startPolling(id)
            }
        case .user, .likes, .list:
            startPolling(id)
        case .thread:
            requestCatchUp(id, ceiling: nil)
        case .messages, .conversation:
            startMessages(id)
        }
    }

    /// The account's lists and the lists it follows (for the list picker).
    public func lists(of user: User? = nil) async throws -> [ListInfo] {
        if let user { return try await client.lists(me: user) }
        guard !isAppOnly else { throw SyncError(.appOnly, doing: .lists) }
        return try await client.lists(me: account)
    }

    /// Reads the account's mutes now and then for as long as anything is open. A failure (a
    /// v2 token without `mute.read`, a spent window) leaves the last list in force and is
    /// tried again at the next turn; config.toml's filters apply whatever happens.
    func startReadingMutes() {
        guard mutesTask == nil, options.readMutes, !isAppOnly else { return }
        mutesTask = Task { [weak self, clock = options.clock, interval = options.mutesInterval] in
            while !Task.isCancelled {
                guard let self else { return }
                await self.readMutes()
                do { try await clock.sleep(seconds: interval) } catch { return }
            }
        }
    }

    public func readMutes() async {
        guard let ids = try? await client.mutedUserIDs(me: account.id) else { return }
        await store.setMutedUsers(ids)
    }

    /// Stops following a timeline; what the store holds stays.
    public func close(_ id: TimelineID) {
        guard opened.remove(id) != nil else { return }
        pollers.removeValue(forKey: id)?.cancel()
        if case .search(let q) = id {
            streams.removeValue(forKey: "search:" + q)?.cancel()
            if options.v2StreamClient != nil { syncFilteredStream() }
        }
        if !opened.contains(.home) && !opened.contains(.mentions) { streams.removeValue(forKey: "user")?.cancel() }
        if !opened.contains(where: Self.isMessages) {
            messagesTask?.cancel()
            messagesTask = nil
        }
        board.forget(id)
    }

    /// Stops everything.
    public func stop() {
        rulesTask?.cancel()
        mutesTask?.cancel()
        mutesTask = nil
        messagesTask?.cancel()
        messagesTask = nil
        for t in pollers.values { t.cancel() }
        for t in streams.values { t.cancel() }
        for t in lanes.values { t.cancel() }
        pollers = [:]
        streams = [:]
        lanes = [:]
        opened = []
    }

    public var openTimelines: Set<TimelineID> { opened }

    /// A filter-stream phrase for a search of plain words; nil when the query uses operators a
    /// filter stream cannot express.
    static func trackPhrase(_ query: String) -> String? {
        let words = query.lowercased().split(separator: " ")
        guard !words.isEmpty, words.count <= 5 else { return nil }
        for w in words {
            if w == "or" || w.hasPrefix("-") || w.contains(":") || w.contains("\"") || w.contains(",") { return nil }
        }
        return words.joined(separator: " ")
    }

    /// Answers a refresh key: at once when the budget allows, otherwise when and why not.
    public func refresh(_ id: TimelineID) -> RateSchedule.Refresh {
        if Self.isMessages(id) {
            if isAppOnly { return .wait(seconds: 0, message: Self.appOnlyMessages) }
            Task { await pollMessages() }
            return .now
        }
        if let until = budgetSpentUntil() {
            return .wait(seconds: Int((until - now()).rounded(.up)), message: budgetWords)
        }
        let answer = client.rateLimits.schedule.refresh(endpoint(id), now: now())
        if answer == .now { requestCatchUp(id, ceiling: nil) }
        return answer
    }

    /// What a timeline is doing when nothing is wrong.
    func settledState(_ id: TimelineID) -> SyncState {
        if pollers[id] != nil { return .polling(next: now()) }
        switch id {
        case .home, .mentions: return streamsUp.contains("user") ? .streaming : .connecting
        case .search(let q):
            if options.v2StreamClient != nil { return streamsUp.contains(Self.filteredKey) ? .streaming : .connecting }
            return streamsUp.contains("search:" + q) ? .streaming : .connecting
        case .user, .thread, .likes, .list, .messages, .conversation: return .idle
        }
    }

    static func reconcilable(_ id: TimelineID) -> Bool {
        switch id {
        case .home, .mentions, .user: return true
        // A like taken back is not a deleted tweet.
        case .search, .thread, .likes, .list, .messages, .conversation: return false
        }
    }
}
