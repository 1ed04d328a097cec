import Bedrock
import FoundationEssentials
import PrivateFiles
import Screen
import Spawn
import TOML
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

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

    public static func defaultFile(environment: [String: String] = ProcessEnvironment.values) -> URL {
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
                if u.value < 0x20 || u.value == 0x7F { q += cFormat("\\u%04X", u.value) } else { q.unicodeScalars.append(u) }
            }
        }
        return q + "\""
    }
}
