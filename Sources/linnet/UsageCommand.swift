import ArgumentParser
import Bedrock
import FoundationEssentials
import LinnetCore
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// `linnet usage`: what the account's reads and writes on X API v2 cost today and this month,
/// from its ledger on disk (no network call).
struct UsageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage", abstract: "What reading and writing through X API v2 cost today and this month (an estimate).",
        discussion: """
            Counted by Linnet as X bills pay-per-use keys: a post or user read again the same UTC day \
            counts once; reads of your own posts and mentions are owned reads. Prices are config.toml's \
            [prices] (X's published ones by default); budget_per_day there slows and then stops polling. \
            X's developer portal has the authoritative bill.
            """)
    @OptionGroup var global: GlobalOptions
    @Flag(help: "One JSON object instead of a table.") var json = false

    func run() async throws {
        let config = try global.config()
        let name = try accountName()
        let ledger = UsageLedger(
            fileURL: UsageLedger.file(in: DraftStore.defaultDirectory(account: name)), prices: config.prices,
            budgetPerDay: config.budgetPerDay)
        do { try ledger.load() } catch { throw CLIError("\(error)") }
        let now = Date().timeIntervalSince1970
        let day = UsageLedger.day(now)
        let today = ledger.today
        let month = ledger.month
        let p = config.prices
        if json {
            func counts(_ u: DayUsage) -> JSONValue {
                .object(
                    u.items(p).map { ($0.name, JSONValue.number(String($0.count))) } + [
                        ("cost_usd", .number(cFormat("%.3f", u.cost(p)))),
                        ("refused_calls", .number(String(u.refusedCalls ?? 0))),
                    ])
            }
            var out: [(String, JSONValue)] = [
                ("account", .string(name)), ("day", .string(day)), ("month", .string(String(day.prefix(7)))),
                ("today", counts(today)), ("this_month", counts(month)),
                ("prices", .object(UsagePrices.names.map { ($0.0, JSONValue.number(String(p[keyPath: $0.1]))) })),
            ]
            out.append(("budget_per_day", config.budgetPerDay.map { .number(String($0)) } ?? .null))
            print(JSONValue.object(out).serialized)
            return
        }
        print(Sanitizer.visible("Usage of \"\(name)\" through X API v2, estimated by Linnet (UTC day \(day)):", keepNewlines: false))
        let rows = zip(today.items(p), month.items(p))
        let label = [
            "post_read": "posts read", "owned_read": "own posts and mentions read", "user_read": "users read",
            "post_create": "posts created", "post_create_with_url": "posts created with a link", "delete": "posts deleted",
            "interaction": "likes, reposts, follows, messages",
        ]
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        func lpad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
        print(pad("", 30) + lpad("today", 16) + lpad("this month", 20) + "   price")
        for (t, m) in rows {
            print(
                pad(label[t.name] ?? t.name, 30) + lpad(String(t.count), 16) + lpad(String(m.count), 20) + "   "
                    + UsageFormat.dollars(t.price))
        }
        print(
            pad("estimate", 30) + lpad("≈ " + UsageFormat.dollars(today.cost(p)), 16) + lpad("≈ " + UsageFormat.dollars(month.cost(p)), 20))
        if let n = today.refusedCalls, n > 0 {
            print("Not sent today: \(n) call\(n == 1 ? "" : "s") that could have passed the budget (not billed).")
        }
        if let b = config.budgetPerDay {
            let used = b > 0 ? Int((today.cost(p) / b * 100).rounded()) : 100
            print(
                "Budget per day: \(UsageFormat.dollars(b)), \(used)% used" + (used >= 100 ? ": polling is stopped until 00:00 UTC." : "."))
        } else {
            print("No budget set: budget_per_day = 1.00 in config.toml slows polling near it and stops it there.")
        }
    }

    /// The account whose ledger to read: --account, the environment's token, or the active one.
    func accountName() throws -> String { try accountName(global: global) }

    func accountName(global: GlobalOptions) throws -> String {
        let env = ProcessEnvironment.values
        if env["LINNET_ACCESS_TOKEN"] != nil || env["LINNET_BEARER_TOKEN"] != nil {
            let (client, _) = try global.client()
            if client.auth.isAppOnly { return "app-only" }
            return client.auth.tokenUserID.map { "id-\($0)" } ?? "env"
        }
        let contents: AccountStore.Contents
        do { contents = try global.store.load() } catch { throw CLIError(error.description, code: .auth) }
        guard let a = contents.account(global.account) else {
            throw CLIError(
                global.account.map { "No account named \"\($0)\" (see `linnet accounts`)." }
                    ?? "No account yet: sign in with `linnet login`.",
                code: .auth)
        }
        return a.name
    }
}

/// `linnet status`: one line of unread counts per pane, read from the cache with no network
/// call, for tmux's `status-right` (`#(linnet status)`).
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Unread tweets per pane, from the cache (no network): for a tmux status line.")
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let name = try UsageCommand().accountName(global: global)
        let config = try global.config()
        let cache = TimelineCache(directory: TimelineCache.defaultDirectory(account: name))
        let mailbox = cache.loadMessages().0
        var snapshot = TimelineSnapshot()
        if case .loaded(let s) = cache.load() { snapshot = s }
        let panes = config.panes.compactMap(Config.pane)
        var parts: [String] = []
        for id in panes where id != .messages {
            let unread = snapshot.timelines[id]?.unreadCount ?? 0
            if unread > 0 { parts.append("\(Words.title(id, clean: TweetCard.clean)) \(unread)") }
        }
        // Unread direct messages count whether or not a messages pane is configured.
        if mailbox.unread > 0 { parts.append("\(Words.messagesTab) \(mailbox.unread)") }
        print(parts.joined(separator: " · "))
    }
}
