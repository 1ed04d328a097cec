import Foundation
import Locking
import PrivateFiles
import Screen
import Spawn
import Timeline
import TwitterAPI

/// Runs jobs one after another, in the order they were given, off the main actor: the store
/// and engine calls of a turn's effects land in the order the reducer returned them (two
/// quick `setAnchor`s can no longer overtake each other). A job that waits on the network
/// starts its own task, so it does not hold up the ones behind it.
public final class EffectQueue: Sendable {
    public typealias Job = @Sendable () async -> Void
    private let jobs: AsyncStream<Job>.Continuation
    private let worker: Task<Void, Never>

    public init() {
        let (stream, continuation) = AsyncStream<Job>.makeStream()
        jobs = continuation
        worker = Task.detached {
            for await job in stream { await job() }
        }
    }

    deinit {
        jobs.finish()
    }

    public func add(_ job: @escaping Job) { jobs.yield(job) }

    /// Waits until every job added so far has run.
    public func drain() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            jobs.yield { done.resume() }
        }
    }
}

/// Results from network tasks, waiting for the UI loop.
final class Inbox: Sendable {
    private let items = Locked<[Action]>([])
    func post(_ a: Action) { items.withLock { $0.append(a) } }
    func take() -> [Action] {
        items.withLock {
            let all = $0
            $0 = []
            return all
        }
    }
}

/// The run loop: keys and store changes in, frames out. It owns the terminal on the main thread
/// and never waits on the network; network work runs as tasks whose results come back as
/// actions and wake the loop.
@MainActor
public final class App {
    public struct Settings: Sendable {
        public var keyMap: KeyMap = .standard
        public var theme: Theme = .fallback
        public var themes: [String] = Theme.available()
        public var confirmBeforePost = false
        public var bellOnMention = false
        /// A desktop notification (OSC 9 / OSC 777) for each new mention.
        public var desktopNotifications = false
        /// config.toml's `[filters]`.
        public var filters = Filters()
        public var panes: [TimelineID] = [.home, .mentions]
        public var drafts: DraftStore?
        public var cache: TimelineCache?
        /// Account names the switch key cycles through, and the one in use.
        public var accounts: [String] = []
        public var account: String?
        /// Opens another account: its store, engine, drafts and cache.
        public var switcher: (@Sendable (String) async throws -> Switched)?
        /// Whether opening that account runs a program that may ask on the terminal
        /// (`secret_command`): the screen is handed back while it runs.
        public var switchAsks: (@Sendable (String) -> Bool)?
        /// Where the loop reads the time (notices, autosave, "2m" ages); tests move it by hand.
        public var clock: any WallClock = SystemClock()
        /// An ssh session: links are copied (OSC 52), not opened on a machine with no browser.
        public var remoteSession =
            ProcessInfo.processInfo.environment["SSH_CONNECTION"] != nil
            || ProcessInfo.processInfo.environment["SSH_TTY"] != nil
        /// `$BROWSER`, else `xdg-open`.
        public var browser = ProcessInfo.processInfo.environment["BROWSER"]
        /// `$VISUAL`, else `$EDITOR`, else `vi` (as git does); run by `/bin/sh`, so it may carry
        /// arguments (`code --wait`).
        public var editor = ProcessInfo.processInfo.environment["VISUAL"] ?? ProcessInfo.processInfo.environment["EDITOR"] ?? "vi"
        public init() {}
    }

    /// What reading as another account needs.
    public struct Switched: Sendable {
        public var store: TimelineStore
        public var engine: SyncEngine
        public var drafts: DraftStore?
        public var cache: TimelineCache?
        public init(store: TimelineStore, engine: SyncEngine, drafts: DraftStore?, cache: TimelineCache?) {
            self.store = store
            self.engine = engine
            self.drafts = drafts
            self.cache = cache
        }
    }

    let terminal: any Terminal
    var store: TimelineStore
    var engine: SyncEngine
    var settings: Settings
    private var watcher: Task<Void, Never>?
    private var pendingSwitch: String?
    public private(set) var state: AppState
    let inbox = Inbox()
    let effects = EffectQueue()
    let wake: @Sendable () -> Void
    private var lastVersion: UInt64 = .max
    private var mentionsSeen: Int?
    /// The newest message from someone else seen so far (nil until the first look).
    private var newestMessageSeen: UInt64?
    /// What the filters hide, worked out once per store version and pane list.
    private var filterCache: (version: UInt64, panes: [TimelineID], views: [TimelineID: FilteredView])?
    private var filterMemo: [TweetID: (ObjectIdentifier, Bool)] = [:]
    private var filterMutes: Set<UserID> = []
    private var lastFrame: Screen?
    private var savedDrafts: [DraftRecord] = []
    private var lastDraftSave = 0.0
    /// A save failed while quitting and the user was told; the next quit goes ahead.
    private var quitDespiteUnsaved = false
    private var lastLedgerSave = 0.0
    private var ledgerSaveFailed = false

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
        state.confirmBeforePost = settings.confirmBeforePost
        state.readOnly = engine.isAppOnly
    }

    /// Runs until the user quits; saves the cache on the way out.
    /// `tick`: the longest the loop sleeps with nothing to do (the clock in the status bar moves
    /// at this pace); keys, store changes and signals wake it sooner.
    public func run(startupNotice: String? = nil, tick: Double = 1.0) async {
        if let n = startupNotice { inbox.post(.notice(n, isError: true)) }
        await start()
        while !state.quitting && !terminal.isClosed {
            await step(timeout: tick)
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
        if let cache = settings.cache {
            switch cache.load(headOnly: true) {
            case .loaded(let head):
                await store.restore(head)
                await step(timeout: 0)
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
        for id in state.panes.map(\.id) { await engine.open(id) }
        // Back on the pane the last session ended on (opened again if it was a search or a
        // user's tweets opened then).
        if let name = readSession(), let id = Config.pane(name) {
            if let i = state.panes.firstIndex(where: { $0.id == id }) {
                state.active = i
            } else {
                state.panes.append(PaneState(id))
                state.active = state.panes.count - 1
                await engine.open(id)
            }
        }
    }

    /// `session.json` beside the drafts: the pane the reader was on.
    private var sessionURL: URL? { settings.drafts?.fileURL.deletingLastPathComponent().appendingPathComponent("session.json") }

    private func readSession() -> String? {
        guard let url = sessionURL, let data = try? PrivateFile.read(url, limit: 64 * 1024),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return json["pane"] as? String
    }

    private func saveSession() {
        guard let url = sessionURL, state.panes.indices.contains(state.active), let name = Config.paneName(state.pane.id),
            let data = try? JSONSerialization.data(withJSONObject: ["pane": name])
        else { return }
        try? PrivateFile.write(data, to: url)
    }

    /// Stops syncing and saves drafts and the cache.
    private func finish() async {
        watcher?.cancel()
        await effects.drain()
        saveDrafts(Reducer.draftRecords(state))
        saveSession()
        await engine.stop()
        if let cache = settings.cache {
            do { try cache.save(await store.snapshot()) } catch { FileHandle.standardError.write(Data("linnet: \(error)\n".utf8)) }
        }
        do { try engine.options.ledger?.save() } catch { FileHandle.standardError.write(Data("linnet: \(error)\n".utf8)) }
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
        settings.drafts = next.drafts
        settings.cache = next.cache
        settings.account = name
        savedDrafts = []
        lastVersion = .max
        mentionsSeen = nil
        newestMessageSeen = nil
        filterCache = nil
        lastFrame = nil
        let old = state
        state = AppState(
            account: engine.account.screenName, width: old.width, height: old.height, now: old.now,
            themeName: old.themeName, panes: settings.panes)
        state.confirmBeforePost = settings.confirmBeforePost
        state.readOnly = engine.isAppOnly
        inbox.post(.notice(Words.readingAs(name, screenName: engine.account.screenName), isError: false))
        await start()
    }

    /// One turn of the loop: wait for keys or a wake-up, reduce, run effects, draw if changed.
    public func step(timeout: Double) async {
        let keys = terminal.readKeys(timeout: timeout)
        // A resize (or a terminal that must be drawn whole again) redraws even an unchanged frame.
        if keys.contains(.resize) { lastFrame = nil }
        var actions: [Action] = [.tick(now: settings.clock.now())]
        let size = terminal.size
        if size.width != state.width || size.height != state.height { actions.append(.resize(width: size.width, height: size.height)) }
        actions += inbox.take()
        let snapshot = await store.snapshot()
        if snapshot.version != lastVersion {
            lastVersion = snapshot.version
            actions.append(.storeChanged)
            // A muted mention rings nothing.
            let shown = filtered(snapshot)[.mentions]?.view ?? snapshot.timelines[.mentions]
            let mentions = shown?.ids.count ?? 0
            if let seen = mentionsSeen, mentions > seen {
                if settings.bellOnMention { terminal.bell() }
                // Opt-in desktop notifications for the newest mention (OSC 9 and OSC 777).
                if settings.desktopNotifications, let newest = shown?.ids.first,
                    let t = snapshot.tweets[newest]?.content
                {
                    terminal.notify(
                        title: Words.mentionNotice(TweetCard.clean(t.user.screenName)),
                        body: TweetCard.clean(t.displayText.text.replacingOccurrences(of: "\n", with: " ")))
                }
            }
            mentionsSeen = mentions
            // A new message from someone else rings (and notifies) like a mention.
            let mailbox = snapshot.mailbox
            if mailbox.loaded, let me = mailbox.me {
                let newest = mailbox.conversations.compactMap { c in c.messages.last { $0.senderID != me } }.max { $0.id < $1.id }
                if let seen = newestMessageSeen, let m = newest, m.id > seen, m.id > (mailbox.conversation(m.conversation)?.lastRead ?? 0) {
                    if settings.bellOnMention { terminal.bell() }
                    if settings.desktopNotifications {
                        let who = mailbox.users[m.senderID].map { TweetCard.clean($0.screenName) } ?? m.senderID.description
                        terminal.notify(
                            title: Words.messageNotice(who),
                            body: TweetCard.clean(m.displayText.text.replacingOccurrences(of: "\n", with: " ")))
                    }
                }
                newestMessageSeen = max(newestMessageSeen ?? 0, newest?.id ?? 0)
            }
        }
        if !keys.isEmpty { actions.append(.keys(keys)) }
        var context = Context(
            snapshot: snapshot, statuses: engine.board.statuses, keyMap: settings.keyMap, themes: settings.themes)
        context.accounts = settings.accounts
        context.currentAccount = settings.account
        context.upload = engine.board.upload
        context.bracketedPaste = terminal.bracketedPaste
        if engine.client.api == .v2, let ledger = engine.options.ledger {
            context.costToday = Words.costToday(UsageFormat.dollars(ledger.todayCost))
        }
        context.filtered = filteredContext(snapshot)
        var effects: [Effect] = []
        for a in actions { effects += Reducer.reduce(&state, a, context) }
        // The reveal key (or its end) changes what the panes show in this very frame.
        context.filtered = filteredContext(snapshot)
        for e in effects { perform(e) }
        autosaveDraft()
        autosaveLedger()
        if state.quitting { return }
        // After the effects: a theme effect above may have changed settings.theme.
        let frame = Views.render(state, context, theme: settings.theme)
        if frame != lastFrame {
            terminal.present(frame)
            lastFrame = frame
        }
    }

    /// The panes' filtered views (cached per store version and pane list).
    private func filtered(_ snapshot: TimelineSnapshot) -> [TimelineID: FilteredView] {
        let panes = state.panes.map(\.id)
        if let c = filterCache, c.version == snapshot.version, c.panes == panes { return c.views }
        // Decisions about tweets no longer held are let go now and then.
        if filterMemo.count > 2 * snapshot.tweets.count + 1000 { filterMemo = [:] }
        if snapshot.mutedUsers != filterMutes {
            filterMutes = snapshot.mutedUsers
            filterMemo = [:]
        }
        let views = FilteredView.make(snapshot, panes: panes, filters: settings.filters, mutedUsers: snapshot.mutedUsers, memo: &filterMemo)
        filterCache = (snapshot.version, panes, views)
        return views
    }

    /// What the panes show: filtered, or everything while the reveal key is in force.
    private func filteredContext(_ snapshot: TimelineSnapshot) -> [TimelineID: FilteredView] {
        var views = filtered(snapshot)
        if state.revealMutedUntil != nil {
            for (id, f) in views {
                if let whole = snapshot.timelines[id] { views[id] = FilteredView(view: whole, hidden: f.hidden, revealed: true) }
            }
        }
        return views
    }

    func perform(_ effect: Effect) {
        let engine = self.engine
        let store = self.store
        let inbox = self.inbox
        let wake = self.wake
        switch effect {
        case .open(let id): effects.add { await engine.open(id) }
        case .close(let id): effects.add { await engine.close(id) }
        case .perform, .postThread, .sendMessage, .loadOlderMessages, .loadProfile, .people, .loadPeople, .loadLists:
            performNetwork(effect)
        case .refresh(let id):
            effects.add {
                if case .wait(_, let message) = await engine.refresh(id) {
                    inbox.post(.refreshAnswered(id, message))
                } else {
                    inbox.post(.notice(Words.refreshing(Views.title(id)), isError: false))
                }
                wake()
            }
        case .loadOlder(let id): effects.add { Task { await engine.loadOlder(id) } }
        case .setAnchor(let id, let tweet): effects.add { await store.setAnchor(id, at: tweet) }
        case .markRead(let id, let tweet): effects.add { await store.markRead(id, upTo: tweet) }
        case .markConversationRead(let id): effects.add { await store.markConversationRead(id) }
        case .saveDrafts(let records): saveDrafts(records)
        case .setTheme(let name):
            do {
                settings.theme = try Theme.load(name)
                inbox.post(.notice(Words.theme(settings.theme.name), isError: false))
            } catch {
                inbox.post(.notice(Words.themeNotChanged("\(error)"), isError: true))
            }
            lastFrame = nil
        case .switchAccount(let name): pendingSwitch = name
        case .redraw:
            terminal.invalidate()
            lastFrame = nil
        case .copy(let text, let what):
            terminal.copyToClipboard(text)
            inbox.post(.notice(Words.copied(what), isError: false))
        case .openLink(let url):
            openLink(url)
        case .stopProcess:
            if !terminal.stopProcess() { inbox.post(.notice(Words.cannotSuspend, isError: true)) }
            lastFrame = nil
        case .editInEditor(let text):
            editInEditor(text)
            lastFrame = nil
        case .quit: break
        }
    }

    /// Hands the terminal to the editor on a private copy of the draft (a 0700 folder of its
    /// own, removed after); what it saves comes back to the box. An editor that cannot start,
    /// exits with an error or leaves something that is not UTF-8 text changes nothing.
    private func editInEditor(_ text: String) {
        let editor = settings.editor
        var template = Array((FileManager.default.temporaryDirectory.path + "/linnet-edit-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            inbox.post(.notice(Words.editorFailed(editor, "could not be given a file: \(String(cString: strerror(errno)))"), isError: true))
            return
        }
        let folder = URL(fileURLWithPath: String(cString: made))
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("draft.txt")
        do { try PrivateFile.write(Data(text.utf8), to: file, privateFolder: false) } catch {
            inbox.post(.notice(Words.editorFailed(editor, "could not be given a file: \(error.description)"), isError: true))
            return
        }
        terminal.suspend()
        // A ctrl-c or ctrl-\ meant for the editor reaches the whole group: it must not end
        // Linnet (git does the same around its editor). The child starts with default handlers.
        let previousInt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInt)
            signal(SIGQUIT, previousQuit)
        }
        let status: Int32
        do {
            // As git runs core.editor: through the shell, the file as "$1".
            let child = try ChildProcess(
                "/bin/sh", ["-c", editor + " \"$1\"", "sh", file.path], stdin: .inherit, stdout: .inherit, stderr: .inherit)
            status = child.wait()
        } catch {
            terminal.resume()
            inbox.post(.notice(Words.editorFailed(editor, "did not start: \(error.description)"), isError: true))
            return
        }
        terminal.resume()
        guard status == 0 else {
            inbox.post(.notice(Words.editorFailed(editor, status == 127 ? "was not found" : "exited with status \(status)"), isError: true))
            return
        }
        let saved: Data?
        do { saved = try PrivateFile.read(file, limit: 1 << 20) } catch {
            inbox.post(.notice(Words.editorFailed(editor, "left no readable file: \(error.description)"), isError: true))
            return
        }
        guard let saved, let edited = String(validating: saved, as: UTF8.self) else {
            inbox.post(.notice(Words.editorFailed(editor, saved == nil ? "left no file" : "saved text that is not UTF-8"), isError: true))
            return
        }
        inbox.post(.edited(edited))
    }

    /// Opens an address in the browser of this machine; over ssh (no browser here) it is
    /// copied to the clipboard of the terminal the user sits at instead.
    private func openLink(_ url: String) {
        guard !settings.remoteSession else {
            terminal.copyToClipboard(url)
            inbox.post(.notice(Words.copiedOverSSH(url), isError: false))
            return
        }
        do {
            // $BROWSER may list several, separated by ':'; the first is used, the address as its
            // argument (never through a shell).
            let browser = settings.browser.flatMap { $0.split(separator: ":").first.map(String.init) } ?? "xdg-open"
            let child = try ChildProcess("/usr/bin/env", [browser, url], stdin: .null, stdout: .null, stderr: .null)
            Thread { _ = child.finish() }.start()
            inbox.post(.notice(Words.opened(url), isError: false))
        } catch {
            terminal.copyToClipboard(url)
            inbox.post(.notice(Words.notOpened(error.description, url), isError: true))
        }
    }

    /// Saves the drafts. When that fails on the way out, the quit is called off once, so the
    /// draft is not lost without the user knowing: a second quit goes ahead.
    private func saveDrafts(_ records: [DraftRecord]) {
        guard let drafts = settings.drafts else { return }
        do {
            try drafts.save(records)
            savedDrafts = records
            quitDespiteUnsaved = false
        } catch {
            let why = (error as? PrivateFileError)?.description ?? "\(error)"
            if state.quitting && !records.isEmpty && !quitDespiteUnsaved {
                state.quitting = false
                quitDespiteUnsaved = true
                inbox.post(
                    .notice(Words.draftNotSavedQuitCalledOff(why), isError: true))
            } else if !state.quitting {
                inbox.post(.notice(Words.draftsNotSaved(why), isError: true))
            }
        }
        lastDraftSave = state.now
    }

    /// The usage ledger reaches the disk every half minute, so other Linnet processes of the
    /// account (and `linnet usage`) count what this one read; a failure is said once.
    private func autosaveLedger() {
        guard let ledger = engine.options.ledger, state.now - lastLedgerSave >= 30 else { return }
        lastLedgerSave = state.now
        do {
            try ledger.save()
            ledgerSaveFailed = false
        } catch {
            if !ledgerSaveFailed { inbox.post(.notice(Words.usageNotSaved("\(error)"), isError: true)) }
            ledgerSaveFailed = true
        }
    }

    /// While typing, drafts reach the disk every couple of seconds.
    private func autosaveDraft() {
        let records = Reducer.draftRecords(state)
        guard records != savedDrafts, state.now - lastDraftSave >= 2 else { return }
        saveDrafts(records)
    }
}
