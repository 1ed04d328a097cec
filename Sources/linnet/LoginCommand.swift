import ArgumentParser
import Bedrock
import FoundationEssentials
import LinnetCore
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// `linnet login`: every way to sign in; the account lands in accounts.toml (mode 0600).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in and save the account.",
        discussion: """
            The default is OAuth 2.0 with PKCE for X API v2: the client id comes from --client-id, \
            then LINNET_CLIENT_ID, then a prompt. The OAuth 1.0a ways (--pin, --browser, --xauth, \
            --tokens, --app-only) take the consumer key and secret from --consumer-key/--consumer-secret, \
            then LINNET_CONSUMER_KEY/LINNET_CONSUMER_SECRET, then a prompt. Linnet never opens a \
            browser itself: it prints the URL to open on any device.
            """)

    enum Method: String, EnumerableFlag {
        case pin, browser, xauth, tokens, appOnly, oauth2
        static func help(for value: Method) -> ArgumentHelp? {
            switch value {
            case .pin: return "OAuth 1.0a: open a URL anywhere, then type the PIN it shows."
            case .browser: return "Sign in in a browser on this machine; it returns to a loopback listener."
            case .xauth: return "Exchange a username and password for tokens once (apps allowed xAuth only)."
            case .tokens: return "Paste an access token and secret you already have."
            case .appOnly: return "A bearer token for the app alone: read-only search and user timelines."
            case .oauth2:
                return
                    "X API v2 with OAuth 2.0 (PKCE): --client-id, the browser comes back to --redirect-uri (or, with --headless, paste the address it was sent to). The default. Scopes: \(OAuth2Flow.scopes.joined(separator: " "))."
            }
        }
    }

    @OptionGroup var global: GlobalOptions
    @Flag var method: Method = .oauth2
    @Option(help: "Consumer (API) key.") var consumerKey: String?
    @Option(help: "Consumer (API) secret.") var consumerSecret: String?
    @Option(help: "Access token (with --tokens).") var token: String?
    @Option(help: "Access token secret (with --tokens).") var tokenSecret: String?
    @Option(help: "Username (with --xauth); the password is asked for without echo.") var username: String?
    @Option(help: "Name for the account in accounts.toml (default: the screen name).") var name: String?
    @Option(help: "Seconds to wait for the browser (with --browser).") var timeout: Double = 300
    @Option(help: "OAuth 2.0 client id (with --oauth2; or LINNET_CLIENT_ID).") var clientId: String?
    @Option(help: "OAuth 2.0 client secret, for a confidential app (or LINNET_CLIENT_SECRET).") var clientSecret: String?
    @Option(help: "The redirect URI the app registered, exactly (with --oauth2).") var redirectUri = "http://localhost:8080/callback"
    @Flag(help: "Print the URL and read the redirected address (or the code) from standard input (default over ssh).")
    var headless = false

    /// The server refused what was typed (a PIN, a password): HTTP 401.
    static func unauthorized(_ error: any Error) -> Bool {
        if let e = error as? APIError { return e.httpStatus == 401 }
        if let e = error as? AuthFlowError, case .refused(let why) = e { return why.contains("HTTP 401") }
        return false
    }

    func run() async throws {
        let env = ProcessEnvironment.values
        if method == .oauth2 { return try await oauth2(env) }
        guard let key = consumerKey ?? env["LINNET_CONSUMER_KEY"] ?? prompt("Consumer key: "), !key.isEmpty,
            let secret = consumerSecret ?? env["LINNET_CONSUMER_SECRET"] ?? prompt("Consumer secret: ", secret: true), !secret.isEmpty
        else { throw CLIError("A consumer key and secret are needed (developer.twitter.com, your app's keys).", code: .usage) }
        let http = global.http
        let base = global.apiBase ?? "https://api.twitter.com"
        let flows = OAuthFlows(http: http, apiBase: base, consumerKey: key, consumerSecret: secret)
        var account = Account(name: name ?? "", consumerKey: key, consumerSecret: secret, apiBase: global.apiBase)
        // The API asked for at sign-in stays the account's (none said: v2, the default).
        if let asked = global.api { account.api = asked }
        do {
            switch method {
            case .oauth2:
                return  // handled above
            case .appOnly:
                let bearer = try await AppOnlyFlow(http: http, apiBase: base).obtain(consumerKey: key, consumerSecret: secret)
                account.bearerToken = bearer
                if account.name.isEmpty { account.name = "app" }
                try save(account)
                print("Signed in app-only as \"\(account.name)\": read-only search and user timelines.")
                return
            case .tokens:
                guard let t = token ?? prompt("Access token: "), !t.isEmpty,
                    let ts = tokenSecret ?? prompt("Access token secret: ", secret: true), !ts.isEmpty
                else { throw CLIError("--tokens needs an access token and secret.", code: .usage) }
                account.token = t
                account.tokenSecret = ts
            case .pin:
                let pending = try await flows.requestToken(callback: "oob")
                Stream.error("Open this URL in a browser (on any device), sign in, and authorize Linnet:\n\n  \(pending.authorizeURL)\n\n")
                // A mistyped PIN can be typed again: the request token stays good until used.
                var granted: (token: String, tokenSecret: String)?
                for attempt in 1...3 {
                    guard let pin = prompt("PIN: "), !pin.isEmpty else { throw CLIError("No PIN given; nothing was saved.", code: .auth) }
                    do {
                        let grant = try await flows.accessToken(pending, verifier: pin.trimmed())
                        granted = (grant.token, grant.tokenSecret)
                        break
                    } catch  where Self.unauthorized(error) && attempt < 3 {
                        Stream.error("That PIN was not accepted; type it again (as the page shows it).\n")
                    } catch  where Self.unauthorized(error) {
                        throw CLIError(
                            "The PIN was not accepted three times; nothing was saved. Run `linnet login --pin` again for a new one.",
                            code: .auth)
                    }
                }
                guard let granted else { throw CLIError("No PIN was accepted; nothing was saved.", code: .auth) }
                account.token = granted.token
                account.tokenSecret = granted.tokenSecret
            case .browser:
                let listener = try CallbackListener()
                defer { listener.close() }
                let pending = try await flows.requestToken(callback: listener.callbackURL)
                Stream.error(
                    "Open this URL in a browser on this machine and authorize Linnet; waiting up to \(Int(timeout)) s:\n\n  \(pending.authorizeURL)\n\n"
                )
                let verifier = try await listener.waitForVerifier(expectedToken: pending.token, timeout: timeout)
                let grant = try await flows.accessToken(pending, verifier: verifier)
                account.token = grant.token
                account.tokenSecret = grant.tokenSecret
            case .xauth:
                guard let user = username ?? prompt("Username: "), !user.isEmpty else {
                    throw CLIError("--xauth needs a username.", code: .usage)
                }
                guard let password = prompt("Password for \(user): ", secret: true), !password.isEmpty else {
                    throw CLIError("No password given.", code: .usage)
                }
                let grant: (token: String, tokenSecret: String)
                do {
                    let g = try await flows.xauth(username: user, password: password)
                    grant = (g.token, g.tokenSecret)
                } catch  where Self.unauthorized(error) {
                    throw CLIError("The username or password was not accepted; nothing was saved.", code: .auth)
                }
                account.token = grant.token
                account.tokenSecret = grant.tokenSecret
            }
            let client = TwitterClient(
                endpoints: global.endpoints(accountBase: nil),
                auth: .user(
                    OAuthCredentials(consumerKey: key, consumerSecret: secret, token: account.token, tokenSecret: account.tokenSecret)),
                http: http)
            let me = try await client.verifyCredentials()
            account.screenName = me.screenName
            account.userID = me.id.description
            if account.name.isEmpty { account.name = me.screenName }
            try save(account)
            print("Logged in as @\(Sanitizer.visible(me.screenName, keepNewlines: false)).")
        } catch {
            throw CLIError.from(error)
        }
    }

    /// OAuth 2.0 with PKCE against X API v2: the account keeps a refresh token and renews itself.
    func oauth2(_ env: [String: String]) async throws {
        // Someone holding OAuth 1.0a consumer keys is told where they belong.
        let hint = consumerKey != nil || env["LINNET_CONSUMER_KEY"] != nil ? " (OAuth 2.0; for consumer keys: linnet login --pin)" : ""
        guard let id = clientId ?? env["LINNET_CLIENT_ID"] ?? prompt("Client ID\(hint): "), !id.isEmpty else {
            throw CLIError("An OAuth 2.0 client id is needed (developer portal: your app's Keys and tokens).", code: .usage)
        }
        let secret = clientSecret ?? env["LINNET_CLIENT_SECRET"]
        let base = global.apiBase ?? "https://api.x.com"
        let authorize = global.apiBase.map { $0 + "/i/oauth2/authorize" } ?? "https://x.com/i/oauth2/authorize"
        let flow = OAuth2Flow(http: global.http, clientID: id, clientSecret: secret, authorizeURL: authorize, apiBase: base)
        let pkce = PKCE.make()
        let state = Crypto.base64URL(Crypto.randomBytes(16))
        let url = flow.authorizationURL(redirectURI: redirectUri, state: state, pkce: pkce)
        let remote = headless || env["SSH_CONNECTION"] != nil || env["SSH_TTY"] != nil
        do {
            let code: String
            if remote {
                Stream.error(
                    "Open this URL in a browser (on any device) and authorize Linnet:\n\n  \(url)\n\nThe browser then goes to \(redirectUri)?…, which may not load; copy that address from its address bar.\n"
                )
                guard let pasted = prompt("Address (or code): "), !pasted.isEmpty else {
                    throw CLIError("Nothing was pasted; nothing was saved.", code: .auth)
                }
                code = try OAuth2Flow.code(fromPasted: pasted, state: state)
            } else {
                guard let port = URLComponents(string: redirectUri)?.port, port > 0, port < 65536 else {
                    throw CLIError(
                        "--redirect-uri needs a port on this machine (http://localhost:8080/callback); or use --headless.", code: .usage)
                }
                let listener = try CallbackListener(port: UInt16(port))
                defer { listener.close() }
                Stream.error(
                    "Open this URL in a browser on this machine and authorize Linnet; waiting up to \(Int(timeout)) s:\n\n  \(url)\n\n")
                code = try await listener.waitForCode(expectedState: state, timeout: timeout)
            }
            let tokens = try await flow.exchange(code: code, redirectURI: redirectUri, pkce: pkce)
            let client = TwitterClient(
                endpoints: .single(base), auth: .oauth2(accessToken: tokens.accessToken), http: global.http, api: .v2)
            let me = try await client.v2Me()
            var account = Account(
                name: name ?? me.screenName, screenName: me.screenName, userID: me.id.description, consumerKey: id, consumerSecret: secret,
                token: tokens.accessToken, apiBase: global.apiBase ?? base, api: "v2")
            account.refreshToken = tokens.refreshToken
            account.expiresAt = tokens.expiresAt
            try save(account)
            print("Logged in as @\(Sanitizer.visible(me.screenName, keepNewlines: false)) (X API v2, OAuth 2.0).")
        } catch {
            throw CLIError.from(error)
        }
    }

    /// Adds or replaces the account and makes it the active one.
    func save(_ account: Account) throws {
        var c: AccountStore.Contents
        do { c = try global.store.load() } catch { throw CLIError(error.description, code: .auth) }
        c.accounts.removeAll { $0.name == account.name }
        c.accounts.append(account)
        c.active = account.name
        do { try global.store.save(c) } catch { throw CLIError(error.description) }
    }
}
