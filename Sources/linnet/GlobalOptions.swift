import ArgumentParser
import Bedrock
import FoundationEssentials
import LinnetCore
import Locking
import Screen
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: "The account to use (default: the active one in accounts.toml).",
        completion: .custom { _, _, _ in Completions.accountNames() })
    var account: String?
    @Option(help: "API base URL (default https://api.x.com for v2, https://api.twitter.com for v1.1; the simulator's for testing).")
    var apiBase: String?
    @Option(help: "Streaming base URL (default: Twitter's, or --api-base when given).") var streamBase: String?
    @Option(help: "A PEM file of extra certificate authorities to trust.") var cacert: String?
    @Flag(help: "Print each request and response line to stderr, secrets redacted.") var trace = false
    @Option(help: "The accounts file (default $XDG_CONFIG_HOME/linnet/accounts.toml).") var accountsFile: String?
    @Option(help: "Theme name or path to a theme file.", completion: .custom { _, _, _ in Theme.available() }) var theme: String?
    @Option(name: .customLong("config"), help: "The config file (default $XDG_CONFIG_HOME/linnet/config.toml).") var configFile: String?
    @Option(help: "The API to use: v2 or v1.1 (default: LINNET_API, else the account's, else v2).", completion: .list(["v2", "v1.1"]))
    var api: String?

    /// The API chosen: this option, `LINNET_API`, the account's, or v2 (what a developer key
    /// reads in 2026; v1.1 answers it with error 453).
    func chosenAPI(_ account: Account?, environment env: [String: String], fallback: String = "v2") throws -> TwitterClient.API {
        let name = api ?? env["LINNET_API"] ?? account?.api ?? fallback
        guard let chosen = TwitterClient.API(named: name) else {
            throw CLIError("The API must be v2 or v1.1, not \"\(Sanitizer.visible(name, keepNewlines: false))\".", code: .usage)
        }
        return chosen
    }

    var store: AccountStore { AccountStore(fileURL: accountsFile.map { URL(fileURLWithPath: $0) } ?? AccountStore.defaultFile()) }

    var http: HTTPClient {
        var options = HTTPClient.Options(caFile: cacert)
        if trace {
            options.trace = { line in
                Stream.error(("trace: " + Sanitizer.visible(line, keepNewlines: false) + "\n"))
            }
        }
        return HTTPClient(options: options)
    }

    /// This option's base, else the account's, else X's for the API (v2: everything at
    /// api.x.com); --stream-base over either.
    func endpoints(accountBase: String?, api: TwitterClient.API = .v1) -> TwitterEndpoints {
        var e = (apiBase ?? accountBase).map(TwitterEndpoints.single) ?? .x(api)
        if let s = streamBase {
            e.streamBase = s
            e.userStreamBase = s
        }
        return e
    }

    /// A bearer-token client: LINNET_BEARER_TOKEN, the named account, or the first app-only one.
    func appOnlyClient(environment env: [String: String] = ProcessEnvironment.values) throws -> TwitterClient {
        if let b = env["LINNET_BEARER_TOKEN"] { return TwitterClient(endpoints: endpoints(accountBase: nil), auth: .bearer(b), http: http) }
        let contents: AccountStore.Contents
        do { contents = try store.load() } catch { throw CLIError(error.description, code: .auth) }
        let a = account.flatMap(contents.account) ?? contents.accounts.first { $0.isAppOnly }
        guard let a, let b = a.bearerToken else {
            throw CLIError("No app-only account: sign one in with `linnet login --app-only`, or set LINNET_BEARER_TOKEN.", code: .auth)
        }
        return TwitterClient(endpoints: endpoints(accountBase: a.apiBase), auth: .bearer(b), http: http)
    }

    /// An OAuth 2.0 account's sign-in: renewed when it expires, each renewal written back to
    /// accounts.toml (atomically, mode 0600) before it is used.
    /// The client secret and refresh token may come from commands (`client_secret_command`,
    /// `refresh_token_command`); a renewed refresh token then goes to
    /// `refresh_token_save_command` instead of the file.
    func oauth2Session(_ a: Account) throws -> OAuth2Session {
        // Renewed where the calls go (`endpoints`): --api-base first, then the account's.
        let base = apiBase ?? a.apiBase ?? "https://api.x.com"
        let secret: String?
        let refresh: String?
        do {
            secret = try AccountStore.clientSecret(of: a)
            refresh = try AccountStore.refreshToken(of: a)
        } catch { throw CLIError(error.description, code: .auth) }
        let flow = OAuth2Flow(http: http, clientID: a.consumerKey, clientSecret: secret, apiBase: base)
        let tokens = OAuth2Tokens(accessToken: a.token ?? "", refreshToken: refresh, expiresAt: a.expiresAt ?? 0, scopes: [])
        let store = self.store
        let name = a.name
        // Renewals are ordered among every Linnet on this account (the reader and a script).
        let shared = OAuth2Session.Shared(
            lock: { try await store.lockForRefresh() }, stored: { try store.storedTokens(of: name) })
        return OAuth2Session(tokens: tokens, flow: flow, shared: shared) { fresh in
            var contents = try store.load()
            guard let i = contents.accounts.firstIndex(where: { $0.name == name }) else { return }
            // The only valid refresh token is kept first, wherever it lives.
            if contents.accounts[i].refreshTokenSaveCommand != nil {
                if let r = fresh.refreshToken { try AccountStore.saveRefreshToken(r, of: contents.accounts[i]) }
                contents.accounts[i].refreshToken = nil
            } else {
                contents.accounts[i].refreshToken = fresh.refreshToken
            }
            contents.accounts[i].token = fresh.accessToken
            contents.accounts[i].expiresAt = fresh.expiresAt
            try store.save(contents)
        }
    }

    /// A client for the chosen account, or from `LINNET_*` variables when they are set.
    func client(environment env: [String: String] = ProcessEnvironment.values) throws -> (TwitterClient, Account?) {
        if let t = env["LINNET_ACCESS_TOKEN"], let ts = env["LINNET_ACCESS_TOKEN_SECRET"] {
            guard let ck = env["LINNET_CONSUMER_KEY"], let cs = env["LINNET_CONSUMER_SECRET"] else {
                throw CLIError("LINNET_ACCESS_TOKEN is set but LINNET_CONSUMER_KEY and LINNET_CONSUMER_SECRET are not.", code: .auth)
            }
            let auth = TwitterAuth.user(OAuthCredentials(consumerKey: ck, consumerSecret: cs, token: t, tokenSecret: ts))
            let api = try chosenAPI(nil, environment: env)
            let uid = auth.tokenUserID
            return (
                TwitterClient(
                    endpoints: endpoints(accountBase: nil, api: api), auth: auth, http: http, api: api,
                    usage: ledger(name: uid.map { "id-\($0)" } ?? "env", me: uid, api: api)), nil
            )
        }
        if let b = env["LINNET_BEARER_TOKEN"] {
            let api = try chosenAPI(nil, environment: env)
            return (
                TwitterClient(
                    endpoints: endpoints(accountBase: nil, api: api), auth: .bearer(b), http: http, api: api,
                    usage: ledger(name: "app-only", me: nil, api: api)), nil
            )
        }
        let contents: AccountStore.Contents
        do { contents = try store.load() } catch { throw CLIError(error.description, code: .auth) }
        guard let a = contents.account(account) else {
            if let name = account {
                throw CLIError(
                    "No account named \"\(name)\" (have: \(contents.accounts.map(\.name).joined(separator: ", ")); see `linnet accounts`).",
                    code: .auth)
            }
            let found = ImportAccounts.candidates(home: env["HOME"] ?? "")
            let offer =
                found.isEmpty ? "" : "\nFound \(found.joined(separator: " and ")): bring those accounts over with `linnet accounts import`."
            throw CLIError(
                """
                No account yet. Sign in with your app's keys from the X developer portal:
                  linnet login            (OAuth 2.0: prints a URL to open, then takes the address the browser was sent to)
                  linnet login --pin      (OAuth 1.0a consumer keys: prints a URL, then asks for the PIN)
                or try Linnet without keys: linnet demo
                """ + offer, code: .auth)
        }
        let auth: TwitterAuth
        if a.isOAuth2 {
            auth = .oauth2Session(try oauth2Session(a))
        } else if let b = a.bearerToken, a.token == nil {
            auth = .bearer(b)
        } else {
            let secret: String?
            do { secret = try AccountStore.tokenSecret(of: a) } catch { throw CLIError(error.description, code: .auth) }
            guard let cs = a.consumerSecret, let t = a.token, let ts = secret else {
                throw CLIError(
                    "Account \"\(a.name)\" in \(store.fileURL.path) lacks a consumer secret, token or token secret; run `linnet login` again.",
                    code: .auth)
            }
            auth = .user(OAuthCredentials(consumerKey: a.consumerKey, consumerSecret: cs, token: t, tokenSecret: ts))
        }
        let api = try chosenAPI(a, environment: env)
        return (
            TwitterClient(
                endpoints: endpoints(accountBase: a.apiBase, api: api), auth: auth, http: http, api: api,
                usage: ledger(name: a.name, me: a.userID.flatMap(UserID.init), api: api)), a
        )
    }

    /// On v2, the client for the filtered stream: the app's bearer token, from the account's
    /// `bearer_token` or `LINNET_BEARER_TOKEN` (an app-only client is its own). Counted on the
    /// same ledger as the reads.
    func streamClient(for client: TwitterClient, account: Account?, environment env: [String: String] = ProcessEnvironment.values)
        -> TwitterClient?
    {
        guard client.api.hasFilteredStreamRules else { return nil }
        if client.auth.isAppOnly { return client }
        guard let bearer = account?.bearerToken ?? env["LINNET_BEARER_TOKEN"] else { return nil }
        return TwitterClient(
            endpoints: client.endpoints, auth: .bearer(bearer), http: client.http, clock: client.clock, api: client.api, usage: client.usage
        )
    }

    /// On v2, where X bills each read: the account's usage ledger (its state folder, the
    /// prices and budget of config.toml), read from disk. A ledger that cannot be read is said
    /// on stderr and started afresh; reading goes on.
    func ledger(name: String, me: UserID?, api: TwitterClient.API) -> UsageLedger? {
        guard api.billsReads else { return nil }
        let config = (try? config()) ?? Config()
        let ledger = UsageLedger(
            fileURL: UsageLedger.file(in: DraftStore.defaultDirectory(account: name)), prices: config.prices,
            budgetPerDay: config.budgetPerDay, me: me)
        do { try ledger.load() } catch {
            Stream.error("linnet: usage ledger: \(Sanitizer.visible("\(error)", keepNewlines: false))\n")
        }
        OpenLedgers.all.withLock { $0.append(ledger) }
        return ledger
    }
}

/// The ledgers a command opened: saved once as it ends, whatever it ended with (a call the
/// budget refused is counted too).
enum OpenLedgers {
    static let all = Locked<[UsageLedger]>([])
    static func saveAll() { for l in all.withLock({ $0 }) { try? l.save() } }
}

/// Shell completions that read Linnet's own files: account names from accounts.toml.
enum Completions {
    static func accountNames() -> [String] {
        let env = ProcessEnvironment.values
        let file = env["LINNET_ACCOUNTS_FILE"].map { URL(fileURLWithPath: $0) } ?? AccountStore.defaultFile(environment: env)
        return ((try? AccountStore(fileURL: file).load())?.accounts.map(\.name)) ?? []
    }
}
