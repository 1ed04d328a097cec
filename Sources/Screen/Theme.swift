import Bedrock
import FoundationEssentials
import PrivateFiles
import TOML

#if canImport(Glibc)
    import Glibc
#endif

/// What each part of the screen looks like. Themes are TOML files (`Themes/`); a role a file
/// leaves out keeps the default theme's style.
public struct Theme: Equatable, Sendable {
    public enum Role: String, CaseIterable, Sendable {
        case text, dim, name, handle, time, mention, hashtag, url, counts
        case retweetMarker = "retweet_marker"
        case replyMarker = "reply_marker"
        case quote
        case selection
        case newMarker = "new_marker"
        case tabActive = "tab_active"
        case tabInactive = "tab_inactive"
        case tabBar = "tab_bar"
        case status
        case statusError = "status_error"
        case statusOK = "status_ok"
        case border, title, counter
        case counterOver = "counter_over"
        case overLimit = "over_limit"
        case help
        case helpKey = "help_key"
        case prompt, notice

        /// The role's place in `allCases` (a theme's styles are looked up by it every frame).
        var ordinal: Int {
            switch self {
            case .text: 0
            case .dim: 1
            case .name: 2
            case .handle: 3
            case .time: 4
            case .mention: 5
            case .hashtag: 6
            case .url: 7
            case .counts: 8
            case .retweetMarker: 9
            case .replyMarker: 10
            case .quote: 11
            case .selection: 12
            case .newMarker: 13
            case .tabActive: 14
            case .tabInactive: 15
            case .tabBar: 16
            case .status: 17
            case .statusError: 18
            case .statusOK: 19
            case .border: 20
            case .title: 21
            case .counter: 22
            case .counterOver: 23
            case .overLimit: 24
            case .help: 25
            case .helpKey: 26
            case .prompt: 27
            case .notice: 28
            }
        }
    }

    public var name: String
    /// The terminal colours the theme is made for (its `background` and `foreground`): what
    /// the terminal's default colours are taken to be when its contrast is measured.
    public var background: Color = .rgb(0, 0, 0)
    public var foreground: Color = .rgb(255, 255, 255)
    public var styles: [Role: Style] {
        didSet {
            fingerprint = Self.fingerprint(styles)
            byRole = Self.byRole(styles)
        }
    }
    /// A hash of every style, so caches of laid-out text can tell themes apart; kept up to
    /// date here rather than hashed on each draw.
    public private(set) var fingerprint: Int
    /// `styles` by the role's ordinal: a frame asks for a few dozen roles, and hashing a role
    /// for each cost about 230 instructions.
    private var byRole: [Style?]

    public init(name: String, styles: [Role: Style]) {
        self.name = name
        self.styles = styles
        fingerprint = Self.fingerprint(styles)
        byRole = Self.byRole(styles)
    }

    private static func byRole(_ styles: [Role: Style]) -> [Style?] { Role.allCases.map { styles[$0] } }

    private static func fingerprint(_ styles: [Role: Style]) -> Int {
        var h = Hasher()
        for role in Role.allCases { h.combine(styles[role]) }
        return h.finalize()
    }

    public subscript(role: Role) -> Style { byRole[role.ordinal] ?? Theme.fallback.byRole[role.ordinal] ?? .plain }

    /// A theme file that could not be used, with where and why.
    public typealias LoadError = FileProblem

    /// Parses a theme file's text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(LoadError) -> Theme {
        let toml = try TOMLFile(text, file: file)
        let table = toml.table
        var theme = Theme(name: table["name"]?.string ?? file, styles: fallback.styles)
        for (key, keyPath) in [("background", \Theme.background), ("foreground", \Theme.foreground)] {
            guard let text = table[key]?.string else { continue }
            guard let c = Color(parsing: text), c != .default else {
                throw toml.problem(key, "\(key) must be \"#rrggbb\" or a number 0–255")
            }
            theme[keyPath: keyPath] = c
        }
        guard let styles = table["styles"]?.table else {
            throw LoadError(file: file, line: nil, reason: "a theme needs a [styles] table")
        }
        for key in styles.keys {
            guard let role = Role(rawValue: key) else {
                let known = Role.allCases.map(\.rawValue).joined(separator: ", ")
                throw toml.problem(key, "unknown style \"\(key)\" (known: \(known))")
            }
            guard let entry = styles[key]?.table else {
                throw toml.problem(key, "\"\(key)\" must be a table such as { fg = \"#ffffff\", bold = true }")
            }
            var style = Style()
            for field in entry.keys {
                switch field {
                case "fg", "bg":
                    guard let text = entry[field]?.string, let color = Color(parsing: text) else {
                        throw toml.problem(key, "\(key).\(field) must be \"#rrggbb\", a number 0–255 or \"default\"")
                    }
                    if field == "fg" { style.fg = color } else { style.bg = color }
                case "bold", "underline", "reverse", "dim", "italic":
                    guard let on = entry[field]?.bool else {
                        throw toml.problem(key, "\(key).\(field) must be true or false")
                    }
                    let a: Attributes = ["bold": .bold, "underline": .underline, "reverse": .reverse, "dim": .dim, "italic": .italic][
                        field]!
                    if on { style.attributes.insert(a) }
                default:
                    throw toml.problem(key, "\(key) has an unknown field \"\(field)\" (fg, bg, bold, underline, reverse, dim, italic)")
                }
            }
            theme.styles[role] = style
        }
        return theme
    }

    /// Loads a theme by name or path. A name is looked for in `themeFolders`, the first folder
    /// that has it winning, then among the built-in themes.
    public static func load(_ nameOrPath: String, environment: [String: String] = ProcessEnvironment.values) throws(LoadError)
        -> Theme
    {
        let path: String
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml") {
            path = nameOrPath
        } else if let found = themeFolders(environment).map({ "\($0)/\(nameOrPath).toml" }).first(where: {
            FileManager.default.fileExists(atPath: $0)
        }) {
            path = found
        } else if nameOrPath == fallback.name {
            // The built-in default is the fallback, made in code (ThemeTests keep them equal):
            // not parsed again at every start (about 3M instructions).
            return fallback
        } else if let text = builtin.first(where: { $0.name == nameOrPath })?.text {
            return try parse(text, file: "\(nameOrPath) (built in)")
        } else {
            throw LoadError(
                file: nameOrPath, line: nil, reason: "no such theme (available: \(available(environment).joined(separator: ", ")))")
        }
        let found: String?
        do { found = try PrivateFile.readText(URL(fileURLWithPath: path)) } catch {
            throw LoadError(file: path, line: nil, reason: error.description)
        }
        guard let text = found else { throw LoadError(file: path, line: nil, reason: "cannot be read") }
        return try parse(text, file: path)
    }

    /// Folders holding theme files, the first winning: `$XDG_CONFIG_HOME/linnet/themes` (or
    /// `~/.config/linnet/themes`), `$LINNET_THEMES`, then `linnet/themes` in each of
    /// `$XDG_DATA_DIRS` (`/usr/local/share:/usr/share` when unset), where packages put them.
    /// Nothing is read from the tree Linnet was built from.
    public static func themeFolders(_ env: [String: String]) -> [String] {
        var dirs: [String] = []
        if let x = env["XDG_CONFIG_HOME"], x.hasPrefix("/") {
            dirs.append(x + "/linnet/themes")
        } else if let home = env["HOME"], !home.isEmpty {
            dirs.append(home + "/.config/linnet/themes")
        }
        if let d = env["LINNET_THEMES"], !d.isEmpty { dirs.append(d) }
        let data = env["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        for d in data.split(separator: ":") where d.hasPrefix("/") {
            dirs.append((d.hasSuffix("/") ? String(d.dropLast()) : String(d)) + "/linnet/themes")
        }
        return dirs
    }

    /// Every theme name with where it comes from (a file's path, or "built in"), sorted, the
    /// default first; a name in several places is the one `load` uses.
    public static func sources(_ env: [String: String] = ProcessEnvironment.values) -> [(name: String, origin: String)] {
        var origin: [String: String] = [fallback.name: "built in"]
        for t in builtin { origin[t.name] = "built in" }
        for dir in themeFolders(env).reversed() {
            for f in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where f.hasSuffix(".toml") {
                origin[String(f.dropLast(5))] = dir + "/" + f
            }
        }
        let names = [fallback.name] + Set(origin.keys).subtracting([fallback.name]).sorted()
        return names.map { ($0, origin[$0] ?? "built in") }
    }

    /// `auto` (the default setting) made a theme's name: `light` on a light background, `dark`
    /// on a dark one or when nothing says; any other name is itself.
    public static func resolve(_ name: String, backgroundIsLight: () -> Bool?) -> String {
        guard name == "auto" else { return name }
        return backgroundIsLight() == true ? "light" : "dark"
    }

    /// Theme names found, sorted, the default first.
    public static func available(_ env: [String: String] = ProcessEnvironment.values) -> [String] {
        sources(env).map(\.name)
    }
}
