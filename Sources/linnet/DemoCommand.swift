import ArgumentParser
import Bedrock
import CursesTerminal
import FoundationEssentials
import LinnetCore
import Screen
import Timeline
import TwitterAPI
import TwitterSimulator

#if canImport(Glibc)
    import Glibc
#endif

/// `linnet demo`: the TUI against the simulator, started in this process.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = {
        var c = CommandConfiguration(
            commandName: "demo",
            abstract: "Try Linnet without keys: the TUI on a simulated Twitter with live tweets.",
            usage: """
                linnet demo [--api v1.1|v2] [--tier <tier>] [--theme <name>] [--config <file>] [--budget-per-day <dollars>]
                            [--poll-seconds <seconds>] [--tweets-per-minute <n>] [--seed <n>] [--port <port>] [--state-dir <dir>]
                """,
            discussion: """
                Nothing leaves this machine: the simulator listens on loopback only.
                --api v2 reads and writes through X API v2, signed in with OAuth 2.0 (with --tier self-serve: \
                the pay-per-use restrictions); --theme NAME as for linnet. Polls come as config.toml's [poll] \
                minimum_seconds has them for a real account (--poll-seconds for faster).
                """)
        // Parsed alone (`Linnet.parsed`) it is a command of linnet's, which answers for the
        // completion scripts: their check would cost the demo's start 5.5M instructions.
        c._superCommandName = "linnet"
        return c
    }()

    @Option(help: "New tweets per minute in the simulated world.") var tweetsPerMinute: Double = 20
    @Option(help: "Seed of the simulated world.") var seed: UInt64 = 1
    @Option(help: "Port for the simulator (0 picks a free one); its /_sim/ routes show what it holds.") var port: UInt16 = 0
    @Option(help: "Where unsent drafts are kept (default: $XDG_STATE_HOME/linnet/demo).") var stateDir: String?
    // `--api` is the global option (v2: signed in with OAuth 2.0, polled); parsed with the rest.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: "The simulated access level: self-serve, basic, pro or enterprise (everything, v1.1 too).")
    var tier = "enterprise"
    @Option(help: "With --api v2: a day's budget in US dollars (as budget_per_day in config.toml); polling stops when it is spent.")
    var budgetPerDay: Double?
    @Option(
        help:
            "Poll as often as this many seconds, faster than a real account with this config.toml would ([poll] minimum_seconds); the status bar says so."
    )
    var pollSeconds: Double?

    func run() async throws {
        if global.account != nil || global.apiBase != nil || global.streamBase != nil {
            throw ValidationError("linnet demo runs its own simulator: --account, --api-base and --stream-base do not apply to it.")
        }
        // The demo has no account and reads no LINNET_API: --api alone chooses, and without it
        // the demo shows v1.1's live stream (its simulator has no key to be refused).
        let chosen = try global.chosenAPI(nil, environment: [:], fallback: "v1.1")
        guard let level = SimulatorConfiguration.Tier(rawValue: tier) else {
            throw ValidationError(
                "--tier is one of \(SimulatorConfiguration.Tier.allCases.map(\.rawValue).joined(separator: ", ")), not \(tier).")
        }
        if let p = pollSeconds, !(p >= 1 && p <= 86_400) {
            throw ValidationError("--poll-seconds takes a number of seconds from 1 to 86400.")
        }
        if let b = budgetPerDay, !(b >= 0 && b <= 1_000_000) || !chosen.billsReads {
            throw ValidationError("--budget-per-day takes a number of dollars, with --api v2 (where reads are billed).")
        }
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw ValidationError("linnet demo draws a full-screen interface and needs a terminal; run it from one (or try `linnet sim`).")
        }
        var config = SimulatorConfiguration()
        config.tier = level
        config.seed = seed
        config.port = port
        config.tweetsPerMinute = tweetsPerMinute
        // The backlog leads up to a minute ago, so times read "2m", "3h" like a live account's.
        config.backlogEndsAt = Date().timeIntervalSince1970 - 60
        // The simulator listens at once and makes its world on another thread; only requests wait for it.
        let starting = Task { [config] in try await SimulatorServer.start(config) }
        let file: Config
        // --config counts here too, as for the reader.
        do { file = try global.config() } catch {
            await (try? starting.value)?.stop()
            throw error
        }
        let terminal = await openTerminal(file)
        // What does not need the simulator is set up while its world is still being made.
        // The demo's money is not real: its ledger lives in this process, starting at zero like
        // the simulator's, so the meter reads the same as /_sim/usage.
        let ledger = UsageLedger(
            fileURL: nil, prices: file.prices, budgetPerDay: budgetPerDay ?? file.budgetPerDay,
            budgetSource: budgetPerDay != nil ? "--budget-per-day" : "budget_per_day in config.toml")
        var (settings, notice) = GlobalOptions.settings(file, theme: global.theme, account: "demo")
        let stateDirectory = stateDir.map { URL(fileURLWithPath: $0) } ?? DraftStore.defaultDirectory(account: "demo")
        settings.drafts = DraftStore(directory: stateDirectory)
        // The demo shows direct messages without set-up, unless config.toml names its panes.
        if file.panes == Config().panes, !settings.panes.contains(.messages) { settings.panes.append(.messages) }
        let store = TimelineStore(cap: file.keepPerTimeline)
        var options = SyncOptions()
        options.readMutes = true
        // Polled as a real account with this config.toml would be, unless asked otherwise (said
        // in the status bar): the demo's meter then tells what the same reading would cost.
        options.minimumPollSeconds = pollSeconds ?? file.minimumPollSeconds
        if let p = pollSeconds { settings.statusNote = Words.demoPace(p, configured: file.minimumPollSeconds) }
        options.selfServe = level == .selfServe
        if chosen.billsReads {
            options.ledger = ledger
            options.v2PageSize = v2PageSize()
        }
        let http = HTTPClient()
        let server: SimulatorServer
        do {
            server = try await starting.value
        } catch {
            await MainActor.run { terminal.end() }
            throw ValidationError("the simulator could not start: \(error)")
        }
        // Signed in as the consent page would have it (OAuth 2.0, renewed through the
        // simulator's token endpoint like a real account; the tokens live only in this process)
        // or with the simulator's OAuth 1.0a keys, whichever the API signs with.
        let t = server.demoOAuth2Tokens(scopes: OAuth2Flow.scopes)
        let flow = OAuth2Flow(http: http, clientID: server.configuration.oauth2ClientID, apiBase: server.baseURL)
        let session = OAuth2Session(
            tokens: OAuth2Tokens(
                accessToken: t.accessToken, refreshToken: t.refreshToken, expiresAt: t.expiresAt, scopes: OAuth2Flow.scopes),
            flow: flow
        ) { _ in }
        let c = server.credentials
        let keys = OAuthCredentials(
            consumerKey: c.consumerKey, consumerSecret: c.consumerSecret, token: c.accessToken, tokenSecret: c.accessTokenSecret)
        let client = TwitterClient(
            endpoints: .single(server.baseURL), auth: chosen.userAuth(oauth1: keys, oauth2: session), http: http, api: chosen,
            usage: chosen.billsReads ? ledger : nil)
        // The user is the simulator's own, known here as a saved account's is: the first frame
        // waits for no request (the engine's first ones say if the simulator does not answer).
        let me = User(id: UserID(c.userID), screenName: c.screenName, name: c.screenName)
        ledger.identify(me.id)
        // The app's bearer token feeds search panes through the filtered stream. Taken from the
        // simulator as the user's tokens are: no request (nor libcurl) before the first frame.
        if chosen.hasFilteredStreamRules {
            let bearer = server.demoBearerToken()
            options.v2StreamClient = TwitterClient(
                endpoints: .single(server.baseURL), auth: .bearer(bearer), http: client.http, api: chosen, usage: client.usage)
        }
        let engine = SyncEngine(client: client, store: store, account: me, options: options)
        await runTUI(
            terminal: terminal, store: store, engine: engine, settings: settings, notice: notice, config: file)
        await server.stop()
        // The demo's ledger lives in this process only: what it counted is said as it ends.
        if chosen.billsReads { print(Words.demoSpent(ledger.todayCost, today: ledger.today, prices: ledger.prices)) }
    }
}
