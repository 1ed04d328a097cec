import Foundation
import LinnetCore
import Testing

@Suite struct AccountStoreTests {
    func tempFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("linnet-accounts-\(getpid())-\(Int.random(in: 0..<1_000_000))/linnet/accounts.toml")
    }

    @Test func roundTripWithAwkwardCharacters() throws {
        let store = AccountStore(fileURL: tempFile())
        defer { try? FileManager.default.removeItem(at: store.fileURL.deletingLastPathComponent().deletingLastPathComponent()) }
        let odd = Account(name: "we\"ird name", screenName: "ann", userID: "12345678901234567", consumerKey: "k\\ey", consumerSecret: "s=e&c\"r\u{7}et",
                          token: "t", tokenSecret: "ts\nline", apiBase: "http://127.0.0.1:8080")
        let app = Account(name: "app", consumerKey: "k", consumerSecret: "s", bearerToken: "AAAA%2Fbearer")
        try store.save(.init(active: "app", accounts: [odd, app]))
        let back = try store.load()
        #expect(back.active == "app")
        #expect(back.account(nil) == app)
        #expect(back.account("we\"ird name") == odd)
        #expect(back.account(nil)?.isAppOnly == true)
    }

    @Test func secretsCanComeFromACommand() throws {
        let a = Account(name: "x", consumerKey: "k", consumerSecret: "s", token: "t", secretCommand: "printf 'from-manager\\nrest'")
        #expect(try AccountStore.tokenSecret(of: a) == "from-manager")
        let failing = Account(name: "y", consumerKey: "k", token: "t", secretCommand: "exit 3")
        #expect(throws: AccountsError.self) { try AccountStore.tokenSecret(of: failing) }
    }

    @Test func noFileIsNoAccounts() throws {
        #expect(try AccountStore(fileURL: tempFile()).load() == AccountStore.Contents())
    }
}
