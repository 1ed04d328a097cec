import Bedrock
import FoundationEssentials
import Locking
import PrivateFiles
import Screen
import Spawn
import Timeline
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The run loop: keys and store changes in, frames out. It owns the terminal on the main thread
/// and never waits on the network; network work runs as tasks whose results come back as
/// actions and wake the loop.
@MainActor
public final class App {
    let terminal: any Terminal
    var store: TimelineStore
    public internal(set) var engine: SyncEngine
    public internal(set) var settings: Settings
    private var watcher: Task<Void, Never>?
    var pendingSwitch: String?
    public internal(set) var state: AppState
    let inbox = Inbox()
    let effects = EffectQueue()
    let wake: @Sendable () -> Void
    private var lastVersion: UInt64 = .max
    /// The context of the last turn, for an action that cannot wait for the next.
    private var lastContext: Context?
    /// Cards' heights as measured, kept across turns (`CardHeights`).
    private let heights = CardHeights()
    /// What the filters hide, worked out once per change of the posts, mutes or panes (a
    /// scroll brings only the place up to date).
    var filterCache: (version: UInt64, contentVersion: UInt64, panes: [TimelineID], views: [TimelineID: FilteredView])?
    var filterMemo: [TweetID: (ObjectIdentifier, Bool)] = [:]
    var filterMutes: Set<UserID> = []
    var lastFrame: Screen?
    /// The reader's presence, told to the engine when it changes (App+Presence).
    var lastKeyAt: Double?
    var focused = true
    var toldPresence: (away: Bool, showing: TimelineID?)?
    var savedDrafts: [DraftRecord] = []
    var lastDraftSave = 0.0
    /// A save failed while quitting and the user was told; the next quit goes ahead.
    var quitDespiteUnsaved = false
    var lastLedgerSave = 0.0
    /// Pictures made (App+Pictures), and those being made.
    var pictureShelf = PictureShelf()
    var picturesAsked: Set<PictureAsk> = []
    var pictureFailedAt: [PictureAsk: Double] = [:]
    /// Counts cell sizes: a picture made for an earlier one is dropped when it comes.
    var pictureGeneration = 0
    /// The theme as this terminal's colours show it (Theme.adapted), made again when it changes.
    private var shownTheme: (source: Theme, depth: ColorDepth, shown: Theme)?
    var ledgerSaveFailed = false

    public init(terminal: any Terminal, store: TimelineStore, engine: SyncEngine, settings: Settings, wake: @escaping @Sendable () -> Void)
    {
        self.terminal = terminal
        self.store = store
        self.engine = engine
        self.settings = settings
        self.wake = wake
        let size = terminal.size
        state = AppState(
            account: engine.account.screenName, width: size.width, height: size.height,
            now: settings.clock.now(), themeName: settings.theme.name, panes: settings.panes)
        _ = Reducer.reduce(&state, .accountOpened(accountFacts), Context(snapshot: TimelineSnapshot()))
    }

    private var accountFacts: AccountFacts {
        AccountFacts(
            confirmBeforePost: settings.confirmBeforePost, readOnly: engine.isAppOnly, cannot: engine.refusedInAdvance,
            statusNote: settings.statusNote)
    }

    /// Reduces an action at once (not at the next turn), and runs what it asks for.
    func dispatch(_ action: Action) {
        for e in Reducer.reduce(&state, action, lastContext ?? Context(snapshot: TimelineSnapshot())) { perform(e) }
    }

    /// Runs until the user quits; saves the cache on the way out.
    /// `tick`: the longest the loop sleeps with nothing to do; it wakes sooner when what the
    /// screen shows changes by itself (`untilNextChange`), and keys, store changes and signals
    /// wake it at once.
    public func run(startupNotice: String? = nil, tick: Double = 60) async {
        if let n = startupNotice { inbox.post(.notice(n, isError: true)) }
        await start()
        while !state.quitting && !terminal.isClosed {
            await step(timeout: untilNextChange(longest: tick))
            if let name = pendingSwitch {
                pendingSwitch = nil
                await switchAccount(to: name)
            }
        }
        await finish()
    }

    /// Drafts and the last session's tweets (the head for the first frame, then the rest, all
    /// before any network call), then the panes' sync.
    private func start() async {
        if let found = settings.drafts?.read() {
            if let problem = found.problem { inbox.post(.notice(problem, isError: true)) }
            if !found.drafts.isEmpty {
                inbox.post(.restoreDrafts(found.drafts))
                savedDrafts = found.drafts
            }
        }
        // Detached: tasks made here would otherwise belong to the main actor, which sits in
        // poll() between frames.
        watcher = Task.detached { [store, wake] in
            for await _ in await store.changes() { wake() }
        }
        engine.board.watch(wake)
        var drawn = false
        if let cache = settings.cache {
            switch cache.load(headOnly: true) {
            case .loaded(let head):
                await store.restore(head)
                await step(timeout: 0)
                drawn = true
                switch cache.load() {
                case .loaded(let all): await store.restore(all)
                case .setAside(let why), .refused(let why): inbox.post(.notice(Words.cacheProblem(why), isError: true))
                case .empty: break
                }
            case .setAside(let why), .refused(let why): inbox.post(.notice(Words.cacheProblem(why), isError: true))
            case .empty: break
            }
            let (messages, problem) = cache.loadMessages()
            if !messages.conversations.isEmpty { await store.restore(TimelineSnapshot().with(mailbox: messages)) }
            if let problem { inbox.post(.notice(Words.cacheProblem(problem), isError: true)) }
        }
        // The first frame comes before the first request (which opens libcurl, about 6 ms).
        if !drawn { await step(timeout: 0) }
        for id in state.panes.map(\.id) { await engine.open(id) }
        // Back on the pane the last session ended on (opened again if it was a search or a
        // user's tweets opened then).
        if let name = readSession(), let id = Config.pane(name) { dispatch(.sessionRestored(id)) }
    }

    /// Stops syncing and saves drafts and the cache.
    private func finish() async {
        watcher?.cancel()
        await effects.drain()
        saveDrafts(Reducer.draftRecords(state))
        saveSession()
        await engine.stop()
        if let cache = settings.cache {
            do { try cache.save(await store.snapshot()) } catch { Stream.error("linnet: \(error)\n") }
        }
        do { try engine.options.ledger?.save() } catch { Stream.error("linnet: \(error)\n") }
    }

    /// Leaves this account (its drafts and cache saved) and opens another.
    private func switchAccount(to name: String) async {
        guard let switcher = settings.switcher else { return }
        let asks = settings.switchAsks?(name) ?? false
        if asks { terminal.suspend() }
        let opened: Result<Switched, any Error>
        do { opened = .success(try await switcher(name)) } catch { opened = .failure(error) }
        if asks { terminal.resume() }
        let next: Switched
        switch opened {
        case .success(let s): next = s
        case .failure(let error):
            inbox.post(.notice(Words.switchFailed(name, "\(error)"), isError: true))
            return
        }
        await finish()
        store = next.store
        engine = next.engine
        toldPresence = nil  // the new engine is told who reads, and what
        settings.drafts = next.drafts
        settings.cache = next.cache
        settings.account = name
        savedDrafts = []
        lastVersion = .max
        filterCache = nil
        lastFrame = nil
        let old = state
        state = AppState(
            account: engine.account.screenName, width: old.width, height: old.height, now: old.now,
            themeName: old.themeName, panes: settings.panes)
        lastContext = nil
        dispatch(.accountOpened(accountFacts))
        inbox.post(.notice(Words.readingAs(name, screenName: engine.account.screenName), isError: false))
        await start()
    }

    /// One turn of the loop: wait for keys or a wake-up, reduce, run effects, draw if changed.
    public func step(timeout: Double) async {
        var keys = terminal.readKeys(timeout: timeout)
        // Jobs added from here on start after the frame is written (see `EffectQueue.hold`).
        self.effects.hold()
        defer { self.effects.release() }
        keys = notePresence(keys)
        if let reply = terminal.takeStartReply() { answered(reply) }
        // A resize (or a terminal that must be drawn whole again) redraws even an unchanged frame.
        if keys.contains(.resize) {
            lastFrame = nil
            refreshCellSize()
        }
        let now = settings.clock.now()
        state.utcOffset = Self.utcOffset(at: now)
        var actions: [Action] = [.tick(now: now)]
        let size = terminal.size
        if size.width != state.width || size.height != state.height { actions.append(.resize(width: size.width, height: size.height)) }
        actions += inbox.take()
        shelve(&actions)
        // Without a change the step does not suspend: nothing may wait on the main actor for
        // it (the loop's tasks are detached or made in its effects' Sendable jobs; it sits in
        // poll() between frames anyway).
        let snapshot: TimelineSnapshot
        if let s = store.currentSnapshot() { snapshot = s } else { snapshot = await store.snapshot() }
        if snapshot.version != lastVersion {
            lastVersion = snapshot.version
            actions.append(.storeChanged)
        }
        if !keys.isEmpty { actions.append(.keys(keys)) }
        var context = Context(
            snapshot: snapshot, statuses: engine.board.statuses, keyMap: settings.keyMap, themes: settings.themes)
        context.accounts = settings.accounts
        context.currentAccount = settings.account
        context.upload = engine.board.upload
        context.bracketedPaste = terminal.bracketedPaste
        context.widthMode = terminal.widthMode
        if engine.face.billsReads, let ledger = engine.options.ledger {
            context.costToday = Words.costToday(UsageFormat.dollars(ledger.todayCost))
        }
        context.alertRules = AlertRules(
            bellOnMention: settings.bellOnMention, bellOnMessage: settings.bellOnMessage, desktop: settings.desktopNotifications)
        // A muted mention rings nothing: the pane's filtered view, before any reveal, is what counts.
        context.unrevealedMentions = Array((filtered(snapshot)[.mentions]?.view ?? snapshot.timelines[.mentions])?.ids ?? [])
        context.filtered = filteredContext(snapshot)
        context.pictures = pictureShelf
        context.pictureMode = settings.pictures?.mode
        context.thumbnails = settings.thumbnails && settings.pictures != nil
        context.selectionBand = settings.selectionBand
        context.cardTheme = themeShown()
        // Heights kept from the turns before while the posts and settings are the same.
        heights.begin(context)
        context.heights = heights
        lastContext = context
        var effects: [Effect] = []
        for a in actions { effects += Reducer.reduce(&state, a, context) }
        // The reveal key (or its end) changes what the panes show in this very frame.
        context.filtered = filteredContext(snapshot)
        for e in effects { perform(e) }
        autosaveDraft()
        autosaveLedger()
        if state.quitting { return }
        // After the effects: a theme effect above may have changed settings.theme.
        let frame = Views.render(state, context, theme: themeShown(), previous: lastFrame)
        let changed = frame != lastFrame
        if changed {
            terminal.present(frame)
            lastFrame = frame
        }
        // Released here, not only by the `defer`: the store's work for this turn's jobs then
        // overlaps the neighbours' layout below, while the frame is read.
        self.effects.release()
        // Its pictures' tasks too start after the frame.
        askForPictures(Views.pictureAsks(state, context))
        // The next card each way, laid out now rather than when its key comes.
        if changed, !keys.isEmpty { Reducer.layOutNeighbours(state, context) }
    }

    /// The terminal's answers at start, taken as they came (over a slow link, after the first
    /// frame): the theme `auto` chose, and pictures where they were left to the terminal.
    func answered(_ reply: [UInt8]) {
        if settings.themeAuto, let light = settings.backgroundIsLight?(reply) {
            let name = light ? "light" : "dark"
            if name != settings.theme.name, let theme = try? Theme.load(name) {
                settings.theme = theme
                state.themeName = name
            }
        }
        if let answered = settings.picturesAnswered, let setup = answered(reply), setup.differs(from: settings.pictures) {
            settings.pictures = setup
            forgetPictures()
        }
        lastFrame = nil
    }

    /// The theme for this terminal's colour depth.
    private func themeShown() -> Theme {
        let depth = terminal.colorDepth
        if let t = shownTheme, t.source == settings.theme, t.depth == depth { return t.shown }
        let shown = settings.theme.adapted(to: depth)
        shownTheme = (settings.theme, depth, shown)
        return shown
    }
}
