import Foundation
import LinnetCore
import Testing

@Suite struct AccountStoreTests {
    func tempFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "linnet-accounts-\(getpid())-\(Int.random(in: 0..<1_000_000))/linnet/accounts.toml")
    }

    @Test func roundTripWithAwkwardCharacters() throws {
        let store = AccountStore(fileURL: tempFile())
        defer { try? FileManager.default.removeItem(at: store.fileURL.deletingLastPathComponent().deletingLastPathComponent()) }
        let odd = Account(
            name: "we\"ird name", screenName: "ann", userID: "12345678901234567", consumerKey: "k\\ey", consumerSecret: "s=e&c\"r\u{7}et",
            token: "t", tokenSecret: "ts\nline", apiBase: "http://127.0.0.1:8080", api: "v2")
        let app = Account(name: "app", consumerKey: "k", consumerSecret: "s", bearerToken: "AAAA%2Fbearer")
        try store.save(.init(active: "app", accounts: [odd, app]))
        let back = try store.load()
        #expect(back.active == "app")
        #expect(back.account(nil) == app)
        #expect(back.account("we\"ird name") == odd)
        #expect(back.account(nil)?.isAppOnly == true)
        #expect(back.account("we\"ird name")?.api == "v2" && back.account(nil)?.api == nil)
    }

    @Test func secretsCanComeFromACommand() throws {
        let a = Account(name: "x", consumerKey: "k", consumerSecret: "s", token: "t", secretCommand: "printf 'from-manager\\nrest'")
        #expect(try AccountStore.tokenSecret(of: a) == "from-manager")
        let failing = Account(name: "y", consumerKey: "k", token: "t", secretCommand: "exit 3")
        #expect(throws: AccountsError.self) { try AccountStore.tokenSecret(of: failing) }
    }

    /// A password manager that starts an agent (gpg-agent for `pass`) answers when it exits,
    /// though the agent keeps its output open.
    @Test func aSecretCommandThatLeavesAnAgentRunningStillAnswers() throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "linnet-agent-\(getpid())-\(Int.random(in: 0..<1_000_000)).pid"
        ).path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let a = Account(name: "x", consumerKey: "k", token: "t", secretCommand: "sleep 300 & echo $! > '\(pidFile)'; echo from-manager")
        #expect(try AccountStore.tokenSecret(of: a) == "from-manager")
        let agent = try #require(pid_t(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(agent, 0) == 0, "the agent should still be running: reading the secret did not wait for it")
        kill(agent, SIGKILL)
    }

    @Test func oauth2SecretsByCommandAndTheAccessLevelRoundTrip() throws {
        var a = Account(name: "x", consumerKey: "client", token: "access", api: "v2")
        a.expiresAt = 1_800_000_000
        a.accessLevel = "self-serve"
        a.clientSecretCommand = "pass show x/client"
        a.refreshTokenCommand = "pass show x/refresh"
        a.refreshTokenSaveCommand = "pass insert -m -f x/refresh"
        let store = AccountStore(fileURL: tempFile())
        defer { try? FileManager.default.removeItem(at: store.fileURL.deletingLastPathComponent().deletingLastPathComponent()) }
        try store.save(.init(active: "x", accounts: [a]))
        let back = try #require(try store.load().account("x"))
        #expect(back.accessLevel == "self-serve" && back.clientSecretCommand == a.clientSecretCommand)
        #expect(back.refreshTokenCommand == a.refreshTokenCommand && back.refreshTokenSaveCommand == a.refreshTokenSaveCommand)
        #expect(throws: AccountsError.self) {
            try AccountStore.parse("[accounts.x]\nconsumer_key = \"k\"\naccess_level = \"gold\"\n", file: "/tmp/accounts.toml")
        }
    }

    @Test func noFileIsNoAccounts() throws {
        #expect(try AccountStore(fileURL: tempFile()).load() == AccountStore.Contents())
    }
}
