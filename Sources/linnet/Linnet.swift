import ArgumentParser
import Bedrock
import CBuildInfo
import FoundationEssentials
import LinnetCore
import Screen
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The `linnet` command: a terminal Twitter reader.
@main
struct Linnet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "linnet",
        abstract: "A full-screen terminal Twitter reader.",
        // One line per paragraph: the help wraps them to the terminal itself.
        discussion: """
            With no command, opens the reader for the active account (see `linnet login`), or tells you how to get one. \
            `linnet demo` runs it on a simulated Twitter, no keys needed.

            Exit statuses: 0 done, 1 error, 2 usage, 3 authentication failed or no account, 4 rate limited. \
            Errors go to stderr in plain words; data to stdout.

            Environment: LINNET_CONSUMER_KEY, LINNET_CONSUMER_SECRET, LINNET_ACCESS_TOKEN, \
            LINNET_ACCESS_TOKEN_SECRET or LINNET_BEARER_TOKEN stand in for accounts.toml.

            Completions (commands, timeline kinds, account names, themes): \
            linnet --generate-completion-script bash > ~/.local/share/bash-completion/completions/linnet \
            (zsh: > "${fpath[1]}/_linnet"; fish: > ~/.config/fish/completions/linnet.fish).
            """,
        version: "\(LinnetVersion.string) (commit \(String(cString: linnet_build_commit())))",
        subcommands: [
            DemoCommand.self, LoginCommand.self, AccountsCommand.self, PostCommand.self, TimelineCommand.self,
            SearchCommand.self, APICommand.self, UsageCommand.self, StatusCommand.self, ConfigCommand.self, ThemesCommand.self,
            SimCommand.self, ManualCommand.self, TerminalCommand.self,
        ])

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("search"), help: ArgumentHelp("Also open a search pane at start (repeatable).", valueName: "query"))
    var searches: [String] = []
    @Option(name: .customLong("user"), help: ArgumentHelp("Also open a user's timeline at start (repeatable).", valueName: "name"))
    var users: [String] = []
    @Option(name: .customLong("likes"), help: ArgumentHelp("Also open the tweets a user liked at start (repeatable).", valueName: "name"))
    var likes: [String] = []
    @Option(name: .customLong("list"), help: ArgumentHelp("Also open a list at start (repeatable).", valueName: "owner/slug"))
    var lists: [String] = []

    func run() async throws {
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw CLIError("The reader needs a terminal. For scripts: linnet timeline, linnet search, linnet post.", code: .usage)
        }
        let config = try global.config()
        let (client, account) = try global.client()
        func bare(_ name: String) -> String { name.hasPrefix("@") ? String(name.dropFirst()) : name }
        let extra =
            searches.map { TimelineID.search($0) } + users.map { TimelineID.user(bare($0)) } + likes.map { TimelineID.likes(bare($0)) }
            + lists.map { TimelineID.list(bare($0)) }
        let appOnly = client.auth.isAppOnly
        let me: User
        var offline: String?
        // Credentials from the environment name their user in the token, so the cache is
        // found by the user's id, and the reader opens it even when the server is out of reach.
        let tokenUser = account == nil ? client.auth.tokenUserID : nil
        if appOnly {
            let name = account?.name ?? "app-only"
            me = User(id: UserID(0), screenName: name, name: name)
        } else if let uid = tokenUser {
            do {
                me = try await client.me()
            } catch let e as TransportError {
                if case .noLibcurl = e { throw CLIError.from(e) }
                me = User(id: uid, screenName: "id-\(uid)", name: "")
                offline = "Offline: \(e.description). Showing what was saved; Linnet keeps trying."
            } catch { throw CLIError.from(error) }
        } else {
            do { me = try await Self.whoAmI(client, account) } catch { throw CLIError.from(error) }
        }
        let name = account?.name ?? tokenUser.map { "id-\($0)" } ?? me.screenName
        var (settings, notice) = global.settings(config, account: name)
        if let offline { notice = [notice, offline].compactMap { $0 }.joined(separator: " ") }
        settings.panes = Self.merged(settings.panes, extra)
        if appOnly {
            // Read-only: searches and user timelines, polled.
            settings.panes = settings.panes.filter { $0 != .home && $0 != .mentions }
            guard !settings.panes.isEmpty else {
                throw CLIError(
                    SyncEngine.appOnlyTimelines
                        + " Open one with `linnet --search QUERY` or `linnet --user NAME`, or list them in config.toml: panes = [\"search:QUERY\"].",
                    code: .usage)
            }
        }
        settings.cache = TimelineCache(directory: TimelineCache.defaultDirectory(account: name))
        var options = SyncOptions()
        options.readMutes = true
        options.minimumPollSeconds = config.minimumPollSeconds
        if let ledger = client.usage as? UsageLedger {
            ledger.identify(me.id)
            options.ledger = ledger
            options.v2PageSize = v2PageSize()
        }
        options.v2StreamClient = global.streamClient(for: client, account: account)
        options.selfServe = account?.accessLevel == "self-serve"
        if !appOnly, account != nil, let all = try? global.store.load() {
            settings.accounts = all.accounts.filter { !$0.isAppOnly }.map(\.name)
            settings.account = name
            let asking = Set(all.accounts.filter { $0.tokenSecret == nil && $0.secretCommand != nil }.map(\.name))
            settings.switchAsks = { asking.contains($0) }
            let (global, syncOptions, cap) = (self.global, options, config.keepPerTimeline)
            settings.switcher = { other in try await Self.open(other, global: global, options: syncOptions, cap: cap) }
        }
        let store = TimelineStore(cap: config.keepPerTimeline)
        await runTUI(
            terminal: await openTerminal(config), store: store,
            engine: SyncEngine(client: client, store: store, account: me, options: options),
            settings: settings,
            notice: notice, config: config)
    }

    /// Known from login, the reader starts at once (the cache draws the first frame before any
    /// network call) and a revoked token shows in the status bar; otherwise it asks the server.
    static func whoAmI(_ client: TwitterClient, _ account: Account?) async throws -> User {
        if let a = account, let sn = a.screenName, let uid = a.userID.flatMap(UserID.init) {
            return User(id: uid, screenName: sn, name: sn)
        }
        return try await client.me()
    }

    /// The configured panes, then those asked for on the command line, each once.
    static func merged(_ panes: [TimelineID], _ extra: [TimelineID]) -> [TimelineID] {
        var seen = Set<TimelineID>()
        return (panes + extra).filter { seen.insert($0).inserted }
    }

    /// Another account's store and engine, for the switch key.
    static func open(_ name: String, global: GlobalOptions, options: SyncOptions, cap: Int) async throws -> App.Switched {
        var g = global
        g.account = name
        let (client, account) = try g.client()
        let me = try await whoAmI(client, account)
        let store = TimelineStore(cap: cap)
        // Each account counts on its own ledger (none on v1.1).
        var options = options
        options.ledger = client.usage as? UsageLedger
        options.ledger?.identify(me.id)
        options.v2StreamClient = g.streamClient(for: client, account: account)
        options.selfServe = account?.accessLevel == "self-serve"
        return App.Switched(
            store: store, engine: SyncEngine(client: client, store: store, account: me, options: options),
            drafts: DraftStore(directory: DraftStore.defaultDirectory(account: name)),
            cache: TimelineCache(directory: TimelineCache.defaultDirectory(account: name)))
    }

    /// `linnet demo …` is parsed by the demo's command alone when it accepts the arguments: the
    /// root's parse (its own options and sets, the tree of every command) costs about 4M
    /// instructions, 1.3 ms before the demo's first frame. Whatever the demo refuses
    /// (help, a mistake, an option of the root's) goes the whole way, so the words and the exit
    /// status are the root's. The root would decode only its own options, which the demo's
    /// command holds too (`GlobalOptions`) or refuses, so an accepted parse is the same.
    static func parsed(_ arguments: [String]) throws -> ParsableCommand {
        if arguments.first == "demo", let demo = try? DemoCommand.parse(Array(arguments.dropFirst())) { return demo }
        return try parseAsRoot(arguments)
    }

    /// Parses, runs, and turns every failure into words on stderr and an exit status.
    static func main() async {
        // What the command's calls cost (and what the budget refused) is kept however it ends.
        defer { OpenLedgers.saveAll() }
        do {
            var command = try parsed(Array(CommandLine.arguments.dropFirst()))
            if var c = command as? AsyncParsableCommand { try await c.run() } else { try command.run() }
        } catch let e as CLIError {
            OpenLedgers.saveAll()
            Stream.error("linnet: \(Sanitizer.visible(e.description))\n")
            Glibc.exit(e.code.rawValue)
        } catch {
            OpenLedgers.saveAll()
            let code = exitCode(for: error)
            if code == .success {
                print(Sanitizer.visible(fullMessage(for: error)))
                Glibc.exit(0)
            }
            Stream.error(Sanitizer.visible(fullMessage(for: error)) + "\n")
            if code == .validationFailure { Glibc.exit(ExitStatus.usage.rawValue) }
            Glibc.exit(code.rawValue == 64 ? ExitStatus.usage.rawValue : ExitStatus.error.rawValue)
        }
    }
}
