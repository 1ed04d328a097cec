import FoundationEssentials
import PrivateFiles
import Spawn
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Secrets that live outside the file (commands that print them or keep them, bounded in output
/// and time), and the lock that orders OAuth 2.0 renewals among processes.
extension AccountStore {
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
