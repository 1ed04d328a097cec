import ArgumentParser
import Foundation
import LinnetCore
import TweetText
import TwitterAPI

/// `linnet accounts`: list, switch, remove.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List accounts, switch (use NAME), remove (remove NAME), or import those of twurl and t (import [FILE]).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "list, use, remove or import.") var action: String = "list"
    @Argument(help: "The account name (or, for import, a file; default ~/.twurlrc and ~/.trc).") var name: String?

    func run() async throws {
        var c: AccountStore.Contents
        do { c = try global.store.load() } catch { throw CLIError(error.description, code: .auth) }
        switch action {
        case "list":
            if c.accounts.isEmpty { print("No accounts. Sign in with `linnet login`.") }
            for a in c.accounts {
                let mark = a.name == c.active ? "*" : " "
                let who = a.isAppOnly ? "app-only (read-only)" : "@" + (a.screenName ?? a.name)
                print(Sanitizer.visible("\(mark) \(a.name)  \(who)" + (a.apiBase.map { "  \($0)" } ?? ""), keepNewlines: false))
            }
        case "use", "remove":
            guard let name else { throw CLIError("`linnet accounts \(action)` needs an account name.", code: .usage) }
            guard c.accounts.contains(where: { $0.name == name }) else {
                throw CLIError("No account named \"\(name)\" (have: \(c.accounts.map(\.name).joined(separator: ", "))).")
            }
            if action == "use" {
                c.active = name
            } else {
                c.accounts.removeAll { $0.name == name }
                if c.active == name { c.active = c.accounts.first?.name }
            }
            do { try global.store.save(c) } catch { throw CLIError(error.description) }
            print(action == "use" ? "Now using \"\(name)\"." : "Removed \"\(name)\".")
        case "import":
            let files = name.map { [$0] } ?? ImportAccounts.candidates(home: ProcessInfo.processInfo.environment["HOME"] ?? "")
            guard !files.isEmpty else { throw CLIError("Found neither ~/.twurlrc nor ~/.trc; name a file: linnet accounts import FILE") }
            var added: [String] = []
            for f in files { added += ImportAccounts.merge(try ImportAccounts.read(f), into: &c) }
            do { try global.store.save(c) } catch { throw CLIError(error.description) }
            print(
                added.isEmpty
                    ? "Nothing new to import from \(files.joined(separator: ", "))."
                    : "Imported \(added.joined(separator: ", ")) from \(files.joined(separator: ", ")).")
        default:
            throw CLIError("Unknown action \"\(action)\": use list, use NAME, remove NAME or import [FILE].", code: .usage)
        }
    }
}
