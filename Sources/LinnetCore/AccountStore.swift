import Foundation
import PrivateFiles
import Screen
import Spawn
import TwitterAPI

/// One signed-in account as `accounts.toml` keeps it.
public struct Account: Equatable, Sendable {
    public var name: String
    public var screenName: String?
    /// The user's id as `verify_credentials` gave it at login.
    public var userID: String?
    public var consumerKey: String
    public var consumerSecret: String?
    public var token: String?
    public var tokenSecret: String?
    /// App-only: a bearer token instead of a user token.
    public var bearerToken: String?
    /// A command whose output is the token secret (a password manager), instead of storing it.
    public var secretCommand: String?
    /// The API base the account signed in against, when not Twitter's.
    public var apiBase: String?
    /// `v2` or `v1.1`: which API the account reads and writes through (nil: v1.1).
    public var api: String?
    /// OAuth 2.0 sign-ins: the refresh token and when the access token (`token`) expires (Unix
    /// seconds); `consumerKey` and `consumerSecret` hold the client id and secret.
    public var refreshToken: String?
    public var expiresAt: Double?
    /// Programs that keep an OAuth 2.0 account's secrets out of this file: one prints the client
    /// secret, one prints the refresh token, and one is given each new refresh token on its
    /// standard input (X replaces the refresh token at every renewal).
    public var clientSecretCommand: String?
    /// X's access level of the key, when the user names it (`self-serve`): what it lacks is
    /// refused before anything is sent.
    public var accessLevel: String?
    public var refreshTokenCommand: String?
    public var refreshTokenSaveCommand: String?

    /// Whether this is an OAuth 2.0 sign-in (renewed with its refresh token).
    public var isOAuth2: Bool { expiresAt != nil }

    public init(
        name: String, screenName: String? = nil, userID: String? = nil, consumerKey: String, consumerSecret: String? = nil,
        token: String? = nil,
        tokenSecret: String? = nil, bearerToken: String? = nil, secretCommand: String? = nil, apiBase: String? = nil, api: String? = nil
    ) {
        self.api = api
        self.name = name
        self.screenName = screenName
        self.userID = userID
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.tokenSecret = tokenSecret
        self.bearerToken = bearerToken
        self.secretCommand = secretCommand
        self.apiBase = apiBase
    }

    public var isAppOnly: Bool { bearerToken != nil && token == nil }
}

/// A problem with the accounts file, in words that say how to fix it.
public struct AccountsError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// `$XDG_CONFIG_HOME/linnet/accounts.toml`: the accounts and the active one. Written
/// atomically with mode 0600 in a 0700 folder; like ssh with a private key, it is not read when
/// group or others may read it.
public struct AccountStore: Sendable {
    public let fileURL: URL

    public init(fileURL: URL) { self.fileURL = fileURL }

    public static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: String
        if let x = environment["XDG_CONFIG_HOME"], !x.isEmpty { base = x } else { base = (environment["HOME"] ?? "/tmp") + "/.config" }
        return URL(fileURLWithPath: base).appendingPathComponent("linnet/accounts.toml")
    }

    public struct Contents: Equatable, Sendable {
        public var active: String?
        public var accounts: [Account] = []
        public init(active: String? = nil, accounts: [Account] = []) {
            self.active = active
            self.accounts = accounts
        }
        public func account(_ name: String?) -> Account? {
            guard let n = name ?? active else { return nil }
            return accounts.first { $0.name == n }
        }
    }

    /// Takes the lock that orders OAuth 2.0 renewals among processes on these accounts
    /// (`flock` on `accounts.toml.lock` beside the file, mode 0600), waiting up to `seconds` (longer
    /// than a holder may take: its secret and save commands and the call) without holding a
    /// thread; the returned function releases it.
    public func lockForRefresh(seconds: Double = 3 * secretDeadline) async throws(AccountsError) -> @Sendable () -> Void {
        let dir = fileURL.deletingLastPathComponent()
        do { try PrivateFile.prepareFolder(dir) } catch { throw AccountsError(error.description) }
        let path = fileURL.path + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw AccountsError("cannot open \(path): \(PrivateFile.reason(errno))") }
        let deadline = Date().addingTimeInterval(seconds)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                throw AccountsError("another Linnet held \(path) for more than \(Int(seconds)) seconds while renewing the sign-in")
            }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return {
            flock(fd, LOCK_UN)
            close(fd)
        }
    }

    /// An OAuth 2.0 account's tokens as stored now (the refresh token from its command, if any).
    public func storedTokens(of name: String) throws(AccountsError) -> OAuth2Tokens? {
        guard let a = try load().account(name), let token = a.token else { return nil }
        return OAuth2Tokens(
            accessToken: token, refreshToken: try Self.refreshToken(of: a, interactive: false), expiresAt: a.expiresAt ?? 0, scopes: [])
    }

    /// Reads the file; none yet is an empty list.
    public func load() throws(AccountsError) -> Contents {
        PrivateFile.removeLeftovers(in: fileURL.deletingLastPathComponent(), for: [fileURL.lastPathComponent])
        var st = stat()
        guard stat(fileURL.path, &st) == 0 else { return Contents() }
        if st.st_mode & 0o077 != 0 {
            throw AccountsError(
                "\(fileURL.path) can be read by other users (mode \(String(st.st_mode & 0o777, radix: 8))); it holds your tokens, so Linnet will not use it. Fix it with: chmod 600 \(fileURL.path)"
            )
        }
        let found: String?
        do { found = try PrivateFile.readText(fileURL) } catch { throw AccountsError(error.description) }
        guard let text = found else { return Contents() }
        return try Self.parse(text, file: fileURL.path)
    }

    /// The accounts a file's text holds (the fuzz harness calls this with any text).
    public static func parse(_ text: String, file: String) throws(AccountsError) -> Contents {
        let fileURL = URL(fileURLWithPath: file)
        let table: TOMLTable
        do { table = try TOMLFile(text, file: fileURL.path).table } catch { throw AccountsError(error.description) }
        var c = Contents(active: table["active"]?.string)
        if let accounts = table["accounts"]?.table {
            for name in accounts.keys.sorted() {
                guard let a = accounts[name]?.table else { continue }
                guard let key = a["consumer_key"]?.string else {
                    throw AccountsError("\(fileURL.path): account \"\(name)\" has no consumer_key")
                }
                c.accounts.append(
                    Account(
                        name: name, screenName: a["screen_name"]?.string, userID: a["user_id"]?.string, consumerKey: key,
                        consumerSecret: a["consumer_secret"]?.string,
                        token: a["token"]?.string, tokenSecret: a["token_secret"]?.string, bearerToken: a["bearer_token"]?.string,
                        secretCommand: a["secret_command"]?.string, apiBase: a["api_base"]?.string, api: a["api"]?.string))
                c.accounts[c.accounts.count - 1].refreshToken = a["refresh_token"]?.string
                c.accounts[c.accounts.count - 1].expiresAt = a["expires_at"]?.int.map(Double.init) ?? a["expires_at"]?.double
                c.accounts[c.accounts.count - 1].clientSecretCommand = a["client_secret_command"]?.string
                c.accounts[c.accounts.count - 1].accessLevel = a["access_level"]?.string
                if let level = a["access_level"]?.string, !["self-serve", "basic", "pro", "enterprise"].contains(level) {
                    throw AccountsError(
                        "\(fileURL.path): account \"\(name)\" has access_level = \"\(level)\"; it is one of self-serve, basic, pro, enterprise"
                    )
                }
                c.accounts[c.accounts.count - 1].refreshTokenCommand = a["refresh_token_command"]?.string
                c.accounts[c.accounts.count - 1].refreshTokenSaveCommand = a["refresh_token_save_command"]?.string
                if a["refresh_token_command"] != nil, a["refresh_token_save_command"] == nil {
                    throw AccountsError(
                        "\(fileURL.path): account \"\(name)\" has refresh_token_command but no refresh_token_save_command; X replaces the refresh token at every renewal, so Linnet needs a command to hand each new one to"
                    )
                }
            }
        }
        return c
    }

    /// Writes the file (temporary file, then rename), mode 0600 in a 0700 folder.
    public func save(_ c: Contents) throws(AccountsError) {
        var out = "# Linnet accounts. Holds secrets: keep it mode 0600.\n"
        if let a = c.active { out += "active = \(Self.quote(a))\n" }
        for a in c.accounts {
            out += "\n[accounts.\(Self.quote(a.name))]\n"
            let fields: [(String, String?)] = [
                ("screen_name", a.screenName), ("user_id", a.userID), ("consumer_key", a.consumerKey),
                ("consumer_secret", a.consumerSecret),
                ("token", a.token), ("token_secret", a.tokenSecret), ("bearer_token", a.bearerToken),
                ("secret_command", a.secretCommand), ("api_base", a.apiBase), ("api", a.api),
            ]
            for (k, v) in fields { if let v { out += "\(k) = \(Self.quote(v))\n" } }
            if let r = a.refreshToken { out += "refresh_token = \(Self.quote(r))\n" }
            for (k, v) in [
                ("access_level", a.accessLevel), ("client_secret_command", a.clientSecretCommand),
                ("refresh_token_command", a.refreshTokenCommand),
                ("refresh_token_save_command", a.refreshTokenSaveCommand),
            ] {
                if let v { out += "\(k) = \(Self.quote(v))\n" }
            }
            if let e = a.expiresAt, e.isFinite { out += "expires_at = \(Int64(max(0, min(e, 253_402_300_799))))\n" }
        }
        do { try PrivateFile.write(Data(out.utf8), to: fileURL) } catch { throw AccountsError(error.description) }
    }

    /// A TOML basic string.
    public static func quote(_ s: String) -> String {
        var q = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": q += "\\\""
            case "\\": q += "\\\\"
            case "\n": q += "\\n"
            case "\t": q += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F { q += String(format: "\\u%04X", u.value) } else { q.unicodeScalars.append(u) }
            }
        }
        return q + "\""
    }

    /// The token secret: stored, or the output of `secret_command` (first line).
    public static func tokenSecret(of a: Account) throws(AccountsError) -> String? {
        if let s = a.tokenSecret { return s }
        guard let cmd = a.secretCommand else { return nil }
        return try firstLine(of: cmd, named: "secret_command", account: a.name)
    }

    /// An OAuth 2.0 client secret: stored, or printed by `client_secret_command`.
    public static func clientSecret(of a: Account) throws(AccountsError) -> String? {
        if let s = a.consumerSecret { return s }
        guard let cmd = a.clientSecretCommand else { return nil }
        return try firstLine(of: cmd, named: "client_secret_command", account: a.name)
    }

    /// An OAuth 2.0 refresh token: stored, or printed by `refresh_token_command`. Not
    /// `interactive` (a renewal while the reader draws), the command gets no terminal.
    public static func refreshToken(of a: Account, interactive: Bool = true) throws(AccountsError) -> String? {
        if let r = a.refreshToken { return r }
        guard let cmd = a.refreshTokenCommand else { return nil }
        return try firstLine(of: cmd, named: "refresh_token_command", account: a.name, interactive: interactive)
    }

    /// Most a secret command may print, and how long it may take (a passphrase typed at a
    /// prompt included); past either it is killed with its process group (DECISIONS.md).
    public static let secretOutputLimit = 65_536
    public static let secretDeadline: Double = 60

    /// The first line a command prints. The terminal stays the command's own: a password
    /// manager may ask for a passphrase. What it printed is never part of an error.
    static func firstLine(
        of cmd: String, named: String, account: String, limit: Int = secretOutputLimit, seconds: Double = secretDeadline,
        interactive: Bool = true
    ) throws(AccountsError) -> String {
        let child: ChildProcess
        do {
            child = try ChildProcess(
                "/bin/sh", ["-c", cmd], stdin: interactive ? .inherit : .null, stdout: .pipe, stderr: interactive ? .inherit : .null,
                newGroup: true)
        } catch {
            throw AccountsError("\(named) for \"\(account)\" could not run: \(error.description)")
        }
        let giveBack = interactive ? child.takeForeground() : {}
        let ended = child.finish(limit: limit, seconds: seconds)
        giveBack()
        let result: ChildProcess.Result
        switch ended {
        case .finished(let r): result = r
        case .tooMuchOutput(let n):
            throw AccountsError("\(named) for \"\(account)\" printed more than \(n / 1024) KB (a secret is one line); it was stopped")
        case .timedOut(let s):
            throw AccountsError("\(named) for \"\(account)\" did not finish within \(Int(s)) seconds; it was stopped")
        }
        guard result.status == 0 else { throw AccountsError("\(named) for \"\(account)\" failed (exit status \(result.status))") }
        guard let first = secretLine(result.output) else { throw AccountsError("\(named) for \"\(account)\" printed nothing") }
        return first
    }

    /// The secret in what a command printed: its first line that is not empty (CRs before the
    /// line end dropped), or nil.
    public static func secretLine(_ output: Data) -> String? {
        // By bytes: as Characters, CR LF is one and would never split at "\n".
        for var line in output.split(separator: 0x0A, omittingEmptySubsequences: true) {
            while line.last == 0x0D { line = line.dropLast() }
            if !line.isEmpty { return String(decoding: line, as: UTF8.self) }
        }
        return nil
    }

    /// Hands a new refresh token to `refresh_token_save_command` on its standard input (with a
    /// line end). It runs while the reader draws, so it must not ask on the terminal; what it
    /// prints is not shown (it could echo the token).
    public static func saveRefreshToken(_ token: String, of a: Account) throws(AccountsError) {
        guard let cmd = a.refreshTokenSaveCommand else { return }
        let child: ChildProcess
        do { child = try ChildProcess("/bin/sh", ["-c", cmd], stdin: .pipe, stdout: .null, stderr: .null, newGroup: true) } catch {
            throw AccountsError("refresh_token_save_command for \"\(a.name)\" could not run: \(error.description)")
        }
        do { try child.write(Data((token + "\n").utf8)) } catch {}
        child.closeInput()
        let status: Int32
        switch child.finish(limit: 0, seconds: secretDeadline) {
        case .finished(let r): status = r.status
        case .tooMuchOutput, .timedOut:
            throw AccountsError(
                "refresh_token_save_command for \"\(a.name)\" did not finish within \(Int(secretDeadline)) seconds; it was stopped and the new refresh token was not kept"
            )
        }
        guard status == 0 else {
            throw AccountsError(
                "refresh_token_save_command for \"\(a.name)\" failed (exit status \(status)); the new refresh token was not kept")
        }
    }
}
