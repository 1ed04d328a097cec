import ArgumentParser
import Bedrock
import LinnetCore

/// `linnet manual-sections`: the parts of linnet(1) the argument parser cannot know, in mdoc: the
/// reader's keys (from the key map itself), its files and its environment. `make release`
/// appends them to the generated page. Hidden: it is for the build.
struct ManualCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manual-sections", abstract: "Print the keys, files and environment sections of linnet(1).", shouldDisplay: false)

    func run() throws { print(Self.mdoc(KeyMap.standard), terminator: "") }

    /// Text safe on an mdoc line: a leading dot or quote is escaped, backslashes doubled.
    static func line(_ s: String) -> String {
        var t = s.replacingAll("\\", with: "\\e")
        if t.hasPrefix(".") || t.hasPrefix("'") { t = "\\&" + t }
        return t
    }

    static func mdoc(_ keys: KeyMap) -> String {
        var out = [
            ".Sh KEYS",
            "The reader's keys as bound by default. Each can be rebound in config.toml under",
            ".Cm [keys.timeline]",
            "or",
            ".Cm [keys.compose]",
            "by the command name shown in brackets, for example",
            ".Ql \\(dqctrl-d\\(dq = \\(dqpage-down\\(dq ;",
            ".Ql \\(dqnone\\(dq",
            "unbinds a key.",
            "Press ? in the reader for the same list.",
        ]
        let later = Set<Command>([.pane2, .pane3, .pane4, .pane5, .pane6, .pane7, .pane8, .pane9] + Command.farPanes.dropFirst())
        for mode in [KeyMode.timeline, .compose, .viewer] {
            out += [".Ss " + (mode == .timeline ? "Reading" : mode == .compose ? "Writing" : "Pictures (v)"), ".Bl -tag -width Ds"]
            var seen = Set<Command>()
            for b in keys.bindings where b.mode == mode && !later.contains(b.command) && seen.insert(b.command).inserted {
                let bound = keys.keys(for: b.command, in: mode).joined(separator: ", ")
                switch b.command {
                case .pane1: out += [".It Sy 1 No to Sy 9", "go to pane 1 to 9 [pane-1 to pane-9]"]
                case .pane10: out += [".It Sy alt-0 No to Sy alt-9", "go to pane 10 to 19 [pane-10 to pane-19]"]
                default: out += [".It Sy " + line(bound), line("\(b.help) [\(b.command.rawValue)]")]
                }
            }
            out.append(".El")
        }
        out += [
            ".Sh ENVIRONMENT",
            ".Bl -tag -width Ds",
            ".It Ev LINNET_CONSUMER_KEY , LINNET_CONSUMER_SECRET , LINNET_ACCESS_TOKEN , LINNET_ACCESS_TOKEN_SECRET",
            "An OAuth 1.0a user key and token, standing in for accounts.toml.",
            ".It Ev LINNET_BEARER_TOKEN",
            "An app-only bearer token: search and user timelines, read-only.",
            ".It Ev LINNET_CLIENT_ID , LINNET_CLIENT_SECRET",
            "The OAuth 2.0 client for",
            ".Nm linnet login .",
            ".It Ev LINNET_API",
            ".Cm v2",
            "(the default) or",
            ".Cm v1.1 :",
            "the API to speak where no account says.",
            ".It Ev LINNET_THEMES",
            "One more folder of themes, searched after the user's own.",
            ".It Ev XDG_CONFIG_HOME , XDG_STATE_HOME , XDG_CACHE_HOME , XDG_DATA_DIRS",
            "Where the files below are kept and themes are found.",
            ".It Ev BROWSER",
            "The program that opens links and sign-in pages.",
            ".It Ev NO_COLOR",
            "When set, the reader draws without colour.",
            ".El",
            ".Sh FILES",
            ".Bl -tag -width Ds",
            ".It Pa $XDG_CONFIG_HOME/linnet/config.toml",
            "Settings: theme, panes, keys, filters, polling, budget_per_day, prices.",
            ".Nm linnet config",
            "prints them with their defaults.",
            ".It Pa $XDG_CONFIG_HOME/linnet/accounts.toml",
            "Accounts and their tokens, mode 0600.",
            ".It Pa $XDG_STATE_HOME/linnet/<account>/",
            "Unsent drafts and usage.json, the day's billed reads and writes (0600).",
            ".It Pa $XDG_STATE_HOME/linnet/terminal",
            "What each terminal answered at start (background, pictures, widths), so the next start draws at once in its theme.",
            ".It Pa $XDG_CACHE_HOME/linnet/media/",
            "Picture files fetched from X's media server (0600), at most media_cache_mb megabytes, the least recently read dropped first.",
            ".It Pa $XDG_CACHE_HOME/linnet/<account>/timelines.cache",
            "The timelines as last read, so the reader opens at once and offline.",
            ".It Pa $XDG_CONFIG_HOME/linnet/themes/ , $LINNET_THEMES , $XDG_DATA_DIRS/linnet/themes/",
            "Theme files, searched in that order (the data folders first to last: /usr/local/share, then",
            "/usr/share); a theme found nowhere is looked for among those built into linnet.",
            ".Nm linnet themes",
            "lists them with where each comes from.",
            ".El",
            "With XDG_CONFIG_HOME, XDG_STATE_HOME or XDG_CACHE_HOME unset, ~/.config, ~/.local/state and ~/.cache stand in.",
        ]
        return out.joined(separator: "\n") + "\n"
    }
}
