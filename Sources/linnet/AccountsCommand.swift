import ArgumentParser
import Bedrock
import FoundationEssentials
import LinnetCore
import Screen
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// `linnet accounts`: list, switch, remove.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List accounts, switch (use NAME), remove (remove NAME), or import those of twurl and t (import [FILE]).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "list, use, remove or import.", completion: .list(["list", "use", "remove", "import"])) var action: String = "list"
    @Argument(
        help: "The account name (or, for import, a file; default ~/.twurlrc and ~/.trc).",
        completion: .custom { _, _, _ in Completions.accountNames() }) var name: String?

    func run() async throws {
        var c: AccountStore.Contents
        do { c = try global.store.load() } catch { throw CLIError(error.description, code: .auth) }
        switch action {
        case "list":
            if c.accounts.isEmpty { print("No accounts. Sign in with `linnet login`.") }
            // Aligned columns: mark, name, who, API, where.
            let rows = c.accounts.map { a -> [String] in
                [
                    a.name == c.active ? "*" : " ", Sanitizer.visible(a.name, keepNewlines: false),
                    a.isAppOnly ? "app-only (read-only)" : "@" + Sanitizer.visible(a.screenName ?? a.name, keepNewlines: false),
                    (TwitterClient.API(named: a.isOAuth2 ? "v2" : a.api ?? "v1.1") ?? .v1).rawValue,
                    Sanitizer.visible(a.apiBase ?? "", keepNewlines: false),
                ]
            }
            let widths = (0..<5).map { col in rows.map { Screen.width(of: $0[col]) }.max() ?? 0 }
            for r in rows {
                var line = ""
                for (col, cell) in r.enumerated() {
                    // The mark takes one column and a space; the others are two apart.
                    line += cell + (col < 4 ? String(repeating: " ", count: widths[col] - Screen.width(of: cell) + (col == 0 ? 1 : 2)) : "")
                }
                while line.last?.isWhitespace == true { line.removeLast() }
                print(line)
            }
        case "use", "remove":
            guard let name else { throw CLIError("`linnet accounts \(action)` needs an account name.", code: .usage) }
            guard c.accounts.contains(where: { $0.name == name }) else {
                throw CLIError("No account named \"\(name)\" (have: \(c.accounts.map(\.name).joined(separator: ", "))).", code: .auth)
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
            let files = name.map { [$0] } ?? ImportAccounts.candidates(home: ProcessEnvironment.values["HOME"] ?? "")
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
