import Bedrock
import FoundationEssentials
import PrivateFiles
import Screen
import TOML
import Timeline

#if canImport(Glibc)
    import Glibc
#endif

/// `$XDG_CONFIG_HOME/linnet/config.toml`: what a user may change without touching code.
public struct Config: Equatable, Sendable {
    /// `auto`: light or dark as the terminal's background is (asked at start).
    public var theme = "auto"
    public var confirmBeforePost = false
    public var bellOnMention = false
    /// A new direct message rings the bell.
    public var bellOnMessage = false
    /// Desktop notifications (OSC 9 / OSC 777) for new mentions.
    public var desktopNotifications = false
    /// Panes open at start: `home`, `mentions`, `search:QUERY`, `user:NAME`.
    public var panes = ["home", "mentions"]
    /// The shortest time between polls of one timeline (rate limits may make it longer).
    public var minimumPollSeconds = 60.0
    /// Tweets kept per timeline in memory; older ones below the reader are let go and paged
    /// back in when scrolled to.
    public var keepPerTimeline = 5000
    /// `[keys.MODE]` tables: key sequence → command name (or "none").
    public var keys: [KeyMode: [(keys: String, command: String)]] = [:]
    /// `[prices]`: US dollars per billed item on a pay-per-use key (X's published prices unless set).
    public var prices = UsagePrices()
    /// Polling slows as a day's estimated cost nears this and stops when it is reached.
    public var budgetPerDay: Double?
    /// How long a lone Escape waits for the rest of a key sequence (slow links need more).
    public var escapeDelayMilliseconds = 40
    /// `[filters]`: tweets hidden from the panes (never dropped from the store).
    public var filters = Filters()
    /// Links as OSC 8 hyperlinks: on, off, or (nil) where the terminal is known to take them.
    public var hyperlinks: Bool?
    /// Clicks and the wheel; off leaves the terminal's own text selection as it was.
    public var mouse = true
    /// How pictures are drawn: `auto` (as the terminal says it can), `kitty`, `iterm`, `sixel`,
    /// `symbols`, or `off`.
    public var images = "auto"
    public static let imageChoices = ["auto", "kitty", "iterm", "sixel", "symbols", "off"]
    /// Megabytes of picture files kept on disk.
    public var mediaCacheMegabytes = 64
    /// Small pictures on the cards of posts with photos (a few rows each).
    public var thumbnails = false
    /// The selected card's background band: on, off (the gutter bar alone), or (nil) on a local
    /// terminal and off over ssh, where a move writes both cards' text again.
    public var selectionBand: Bool?

    public init() {}

    public static func == (a: Config, b: Config) -> Bool {
        a.theme == b.theme && a.confirmBeforePost == b.confirmBeforePost && a.bellOnMention == b.bellOnMention
            && a.bellOnMessage == b.bellOnMessage
            && a.desktopNotifications == b.desktopNotifications && a.panes == b.panes && a.minimumPollSeconds == b.minimumPollSeconds
            && a.keepPerTimeline == b.keepPerTimeline
            && a.prices == b.prices && a.budgetPerDay == b.budgetPerDay && a.escapeDelayMilliseconds == b.escapeDelayMilliseconds
            && a.filters == b.filters && a.hyperlinks == b.hyperlinks && a.mouse == b.mouse
            && a.images == b.images && a.mediaCacheMegabytes == b.mediaCacheMegabytes && a.thumbnails == b.thumbnails
            && a.selectionBand == b.selectionBand
            && a.keys.mapValues { $0.map { "\($0.keys)=\($0.command)" } } == b.keys.mapValues { $0.map { "\($0.keys)=\($0.command)" } }
    }

    public static func defaultFile(environment: [String: String] = ProcessEnvironment.values) -> URL {
        AccountStore.defaultFile(environment: environment).deletingLastPathComponent().appendingPathComponent("config.toml")
    }

    /// A setting that is wrong, with the file, the line and what was expected.
    public typealias Problem = FileProblem

    /// Reads the file; a missing file is the defaults.
    public static func load(_ url: URL) throws(Problem) -> Config {
        let text: String?
        do { text = try PrivateFile.readText(url) } catch { throw Problem(file: url.path, line: nil, reason: error.description) }
        guard let text else { return Config() }
        return try parse(text, file: url.path)
    }

    public static func parse(_ text: String, file: String) throws(Problem) -> Config {
        let toml = try TOMLFile(text, file: file)
        let table = toml.table
        func fail(_ key: String, _ why: String) -> Problem { toml.problem(key, why) }
        var c = Config()
        for key in table.keys {
            let v = table[key]!
            func flag(_ more: String = "") throws(Problem) -> Bool {
                guard let b = v.bool else { throw fail(key, "\(key) must be true or false" + more) }
                return b
            }
            switch key {
            case "theme":
                guard let s = v.string else { throw fail(key, "theme must be a name in quotes, such as \"dark\"") }
                c.theme = s
            case "confirm_before_post":
                c.confirmBeforePost = try flag()
            case "desktop_notifications":
                c.desktopNotifications = try flag()
            case "bell_on_mention":
                c.bellOnMention = try flag()
            case "bell_on_message":
                c.bellOnMessage = try flag()
            case "panes":
                guard let a = v.array, let names = Optional(a.compactMap(\.string)), names.count == a.count,
                    names.allSatisfy({ Self.pane($0) != nil })
                else {
                    throw fail(
                        key,
                        "panes must be a list like [\"home\", \"mentions\", \"search:swift\", \"user:jack\", \"likes:jack\", \"list:jack/birds\"]"
                    )
                }
                c.panes = names
            case "keep_per_timeline":
                guard let n = v.int, (100...1_000_000).contains(n) else {
                    throw fail(key, "keep_per_timeline must be a whole number of tweets from 100 to 1000000")
                }
                c.keepPerTimeline = n
            case "poll":
                guard let t = v.table else { throw fail(key, "[poll] must be a table") }
                for k in t.keys {
                    guard k == "minimum_seconds", let n = t[k]?.double ?? t[k]?.int.map(Double.init), n >= 1, n <= 86_400 else {
                        throw fail(k, "[poll] takes minimum_seconds = a number of seconds from 1 to 86400")
                    }
                    c.minimumPollSeconds = n
                }
            case "escape_delay_ms":
                guard let n = v.int, (5...1000).contains(n) else {
                    throw fail(key, "escape_delay_ms must be a whole number of milliseconds from 5 to 1000 (25 to 50 suits most links)")
                }
                c.escapeDelayMilliseconds = n
            case "budget_per_day":
                guard let n = v.double ?? v.int.map(Double.init), n >= 0, n <= 1_000_000 else {
                    throw fail(key, "budget_per_day must be a number of US dollars, such as 1.00")
                }
                c.budgetPerDay = n
            case "prices":
                guard let t = v.table else { throw fail(key, "[prices] must be a table") }
                for k in t.keys {
                    guard let field = UsagePrices.names.first(where: { $0.0 == k })?.1,
                        let n = t[k]?.double ?? t[k]?.int.map(Double.init), n >= 0, n <= 1000
                    else {
                        throw fail(k, "[prices] takes US dollars per item for \(UsagePrices.names.map(\.0).joined(separator: ", "))")
                    }
                    c.prices[keyPath: field] = n
                }
            case "mouse":
                c.mouse = try flag()
            case "images":
                guard let s = v.string, Self.imageChoices.contains(s) else {
                    throw fail(key, "images takes one of \(Self.imageChoices.map { "\"\($0)\"" }.joined(separator: ", "))")
                }
                c.images = s
            case "thumbnails":
                c.thumbnails = try flag()
            case "media_cache_mb":
                guard let n = v.int, (1...4096).contains(n) else { throw fail(key, "media_cache_mb takes megabytes, 1 to 4096") }
                c.mediaCacheMegabytes = n
            case "hyperlinks":
                c.hyperlinks = try flag(" (leave it out to decide by the terminal)")
            case "selection_band":
                c.selectionBand = try flag(" (leave it out: on, but off over ssh)")
            case "filters":
                guard let t = v.table else { throw fail(key, "[filters] must be a table") }
                for k in t.keys {
                    let field: WritableKeyPath<Filters, [String]>
                    switch k {
                    case "words": field = \.words
                    case "phrases": field = \.phrases
                    case "hashtags": field = \.hashtags
                    case "users": field = \.users
                    case "regex": field = \.patterns
                    default: throw fail(k, "[filters] takes words, phrases, hashtags, users and regex, each a list of strings")
                    }
                    guard let a = t[k]?.array, let list = Optional(a.compactMap(\.string)), list.count == a.count,
                        !list.contains(where: { $0.trimmed().isEmpty })
                    else { throw fail(k, "\(k) must be a list of non-empty strings, such as [\"spoilers\"]") }
                    if k == "regex", let bad = list.lazy.compactMap(Filters.check(pattern:)).first { throw fail(k, bad) }
                    c.filters[keyPath: field] = list
                }
            case "keys":
                guard let t = v.table else { throw fail(key, "[keys.MODE] tables map key names to commands") }
                for mode in t.keys {
                    guard let m = KeyMode(rawValue: mode), let bindings = t[mode]?.table else {
                        throw fail("keys.\(mode)", "key modes are \(KeyMode.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    var list: [(keys: String, command: String)] = []
                    for k in bindings.keys.sorted() {
                        guard let command = bindings[k]?.string else { throw fail(k, "a key binding is \"key\" = \"command\"") }
                        list.append((k, command))
                    }
                    var probe = KeyMap.standard
                    do { try probe.override(mode: m, list) } catch { throw fail(error.key, error.description) }
                    c.keys[m] = list
                }
            default:
                throw fail(
                    key,
                    "unknown setting \"\(key)\" (known: theme, confirm_before_post, bell_on_mention, bell_on_message, desktop_notifications, hyperlinks, selection_band, mouse, images, thumbnails, media_cache_mb, panes, keep_per_timeline, budget_per_day, escape_delay_ms, [poll], [prices], [filters], [keys.MODE])"
                )
            }
        }
        return c
    }

    /// A timeline's name as `panes` writes it (threads have none: they are not kept).
    public static func paneName(_ id: TimelineID) -> String? {
        switch id {
        case .home: return "home"
        case .mentions: return "mentions"
        case .search(let q): return "search:" + q
        case .user(let name): return "user:" + name
        case .likes(let name): return "likes:" + name
        case .list(let ref): return "list:" + ref
        case .messages: return "messages"
        case .thread, .conversation: return nil
        }
    }

    /// A pane name as a timeline.
    public static func pane(_ name: String) -> TimelineID? {
        switch name {
        case "home": return .home
        case "mentions": return .mentions
        case "messages": return .messages
        default:
            if name.hasPrefix("search:"), name.count > 7 { return .search(String(name.dropFirst(7))) }
            if name.hasPrefix("user:"), name.count > 5 { return .user(String(name.dropFirst(5))) }
            if name.hasPrefix("likes:"), name.count > 6 { return .likes(String(name.dropFirst(6))) }
            if name.hasPrefix("list:"), name.dropFirst(5).split(separator: "/").count == 2 { return .list(String(name.dropFirst(5))) }
            return nil
        }
    }

    /// The key map with this file's overrides.
    public var keyMap: KeyMap {
        var k = KeyMap.standard
        for (mode, list) in keys { try? k.override(mode: mode, list) }
        return k
    }
}
