import Screen

/// What a key does, by name (the names `config.toml` uses).
public enum Command: String, CaseIterable, Sendable {
    // Reading
    case down, up
    case pageDown = "page-down"
    case pageUp = "page-up"
    case top, bottom
    case nextPane = "next-pane"
    case previousPane = "previous-pane"
    case closePane = "close-pane"
    case pane1 = "pane-1"
    case pane2 = "pane-2"
    case pane3 = "pane-3"
    case pane4 = "pane-4"
    case pane5 = "pane-5"
    case pane6 = "pane-6"
    case pane7 = "pane-7"
    case pane8 = "pane-8"
    case pane9 = "pane-9"
    case pane10 = "pane-10"
    case pane11 = "pane-11"
    case pane12 = "pane-12"
    case pane13 = "pane-13"
    case pane14 = "pane-14"
    case pane15 = "pane-15"
    case pane16 = "pane-16"
    case pane17 = "pane-17"
    case pane18 = "pane-18"
    case pane19 = "pane-19"
    case compose, reply, quote, retweet, like, delete, thread, author, search, refresh
    case help
    case cycleTheme = "cycle-theme"
    case switchAccount = "switch-account"
    case quit
    // Editing (compose box and prompts)
    case send, cancel, newline, left, right
    case lineStart = "line-start"
    case lineEnd = "line-end"
    case deleteBack = "delete-back"
    case deleteForward = "delete-forward"
    case deleteWord = "delete-word"
    case killToStart = "kill-to-start"
    case killToEnd = "kill-to-end"
    case lineUp = "line-up"
    case lineDown = "line-down"
    case attach, detach, complete, redraw, messages
    case copyLink = "copy-link"
    case copyText = "copy-text"
    case links
    /// A post's photos, GIF or video, as pictures.
    case view
    case stopProcess = "suspend"
    case editInEditor = "edit-in-editor"
    case revealMuted = "reveal-muted"
    case authorLikes = "author-likes"
    case lists
    case profile
    case follow
    case muteUser = "mute-user"
    case block
    case followers
    case following
    case directMessages = "direct-messages"
    case newThread = "new-thread"
    case continueThread = "continue-thread"
    // Questions
    case yes, no
}

/// Where keys are read.
public enum KeyMode: String, CaseIterable, Sendable {
    case timeline, compose, prompt, confirm, help, picker, profile, viewer
}

/// One line of the key map: in a mode, a key sequence runs a command; `help` is what the help
/// overlay says.
public struct Binding: Equatable, Sendable {
    public var mode: KeyMode
    public var keys: [Key]
    public var command: Command
    public var help: String
    public init(_ mode: KeyMode, _ keys: [Key], _ command: Command, _ help: String) {
        self.mode = mode
        self.keys = keys
        self.command = command
        self.help = help
    }
}

/// The key map as data: defaults with vim keys and arrows, overridable from `config.toml`; the
/// help overlay is generated from it.
public struct KeyMap: Equatable, Sendable {
    public private(set) var bindings: [Binding] {
        didSet { hints = Self.hints(bindings) }
    }
    /// Each command's first binding by mode, named once: the status bar and the pane ask for
    /// hints every frame (a scan of the map and a join, 2.5k to 6k instructions each).
    private var hints: [Hint: String]
    private struct Hint: Hashable {
        let mode: KeyMode
        let command: Command
    }

    public init(_ bindings: [Binding]) {
        self.bindings = bindings
        hints = Self.hints(bindings)
    }

    private static func hints(_ bindings: [Binding]) -> [Hint: String] {
        var named: [Hint: String] = [:]
        for b in bindings where named[Hint(mode: b.mode, command: b.command)] == nil {
            named[Hint(mode: b.mode, command: b.command)] = b.keys.map(\.description).joined(separator: " ")
        }
        return named
    }

    public enum Resolution: Equatable, Sendable {
        case command(Command)
        /// The keys so far begin a longer sequence (`g` of `g g`).
        case prefix
        case none
    }

    /// What the keys typed so far mean in `mode`: a command, the start of a longer sequence
    /// (keep reading), or nothing. A sequence is bound at most once per mode (`override`
    /// replaces the old binding), so the order of the map does not matter.
    public func resolve(_ mode: KeyMode, _ keys: [Key]) -> Resolution {
        var prefix = false
        for b in bindings where b.mode == mode {
            if b.keys == keys { return .command(b.command) }
            if b.keys.count > keys.count && Array(b.keys.prefix(keys.count)) == keys { prefix = true }
        }
        return prefix ? .prefix : .none
    }

    /// The keys bound to a command in a mode, as names (`j, down`).
    public func keys(for command: Command, in mode: KeyMode) -> [String] {
        bindings.filter { $0.mode == mode && $0.command == command }.map { $0.keys.map(\.description).joined(separator: " ") }
    }

    /// The first key (or sequence) bound to a command in a mode, as its name: what a hint on
    /// the screen shows, so a rebound key is shown as it now is. Nil when nothing is bound.
    /// (The first binding alone is named: the status bar asks for hints every frame.)
    public func hint(_ command: Command, in mode: KeyMode) -> String? {
        hints[Hint(mode: mode, command: command)]
    }

    /// A setting that could not be applied, with why.
    public struct OverrideError: Error, Equatable, Sendable, CustomStringConvertible {
        public var key: String
        public var reason: String
        public var description: String { "key \"\(key)\": \(reason)" }
    }

    /// Applies `[keys.MODE]` settings: key sequence (`"ctrl-d"`, `"g g"`) → command name, or
    /// `"none"` to unbind. A new binding replaces whatever that sequence did before.
    public mutating func override(mode: KeyMode, _ settings: [(keys: String, command: String)]) throws(OverrideError) {
        for (keyText, commandName) in settings {
            var seq: [Key] = []
            for part in keyText.split(separator: " ") {
                guard let k = Key(name: String(part)) else { throw OverrideError(key: keyText, reason: "\"\(part)\" is not a key name") }
                seq.append(k)
            }
            guard !seq.isEmpty else { throw OverrideError(key: keyText, reason: "no key given") }
            bindings.removeAll { $0.mode == mode && $0.keys == seq }
            if commandName == "none" { continue }
            guard let c = Command(rawValue: commandName) else {
                throw OverrideError(
                    key: keyText,
                    reason: "\"\(commandName)\" is not a command (\(Command.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            let help = bindings.first { $0.command == c }?.help ?? commandName
            bindings.append(Binding(mode, seq, c, help))
        }
    }

    public static let standard: KeyMap = {
        var b: [Binding] = []
        func t(_ keys: [Key], _ c: Command, _ h: String) { b.append(Binding(.timeline, keys, c, h)) }
        t([.char("j")], .down, "next tweet")
        t([.down], .down, "next tweet")
        t([.char("k")], .up, "previous tweet")
        t([.up], .up, "previous tweet")
        t([.ctrl("d")], .pageDown, "page down")
        t([.pageDown], .pageDown, "page down")
        t([.char(" ")], .pageDown, "page down")
        t([.ctrl("u")], .pageUp, "page up")
        t([.pageUp], .pageUp, "page up")
        t([.char("g"), .char("g")], .top, "newest tweet")
        t([.home], .top, "newest tweet")
        t([.char("G")], .bottom, "oldest tweet held")
        t([.end], .bottom, "oldest tweet held")
        t([.tab], .nextPane, "next pane")
        t([.char("l")], .nextPane, "next pane")
        t([.backTab], .previousPane, "previous pane")
        t([.char("h")], .previousPane, "previous pane")
        for (i, c) in [Command.pane1, .pane2, .pane3, .pane4, .pane5, .pane6, .pane7, .pane8, .pane9].enumerated() {
            t([.char(Character(String(i + 1)))], c, "pane \(i + 1)")
        }
        // Panes past nine: alt-0 is pane 10, alt-1 … alt-9 panes 11 to 19.
        for (i, c) in Command.farPanes.enumerated() {
            t([.alt(Character(String(i)))], c, "pane \(i + 10)")
        }
        t([.char("x")], .closePane, "close this pane")
        t([.char("n")], .compose, "new tweet")
        t([.char("N")], .newThread, "new thread (--- between tweets)")
        t([.char("C")], .continueThread, "continue your thread from this tweet")
        t([.char("r")], .reply, "reply")
        t([.char("Q")], .quote, "quote")
        t([.char("t")], .retweet, "retweet or undo")
        t([.char("f")], .like, "like or unlike")
        t([.char("D")], .delete, "delete your tweet")
        t([.enter], .thread, "open the conversation")
        t([.char("u")], .author, "open the author's tweets")
        t([.char("F")], .authorLikes, "open the author's likes")
        t([.char("b")], .lists, "your lists")
        t([.char("p")], .profile, "the author's profile")
        t([.char("d")], .directMessages, "direct messages")
        t([.char("/")], .search, "search")
        t([.char("R")], .refresh, "refresh now")
        t([.char("T")], .cycleTheme, "next theme")
        t([.char("A")], .switchAccount, "next account")
        t([.char("o")], .links, "links: open or copy")
        t([.char("v")], .view, "view the photos, GIF or video")
        t([.char("y")], .copyLink, "copy the tweet's address")
        t([.char("Y")], .copyText, "copy the tweet's text")
        t([.char("?")], .help, "this help")
        t([.char("L")], .messages, "all messages, in full")
        t([.char("M")], .revealMuted, "show muted tweets for 30 s")
        t([.char("q")], .quit, "quit")
        t([.ctrl("c")], .quit, "quit")
        t([.ctrl("l")], .redraw, "redraw the screen")
        t([.ctrl("z")], .stopProcess, "suspend (fg to come back)")

        for mode in [KeyMode.compose, .prompt] {
            func e(_ keys: [Key], _ c: Command, _ h: String) { b.append(Binding(mode, keys, c, h)) }
            e([.enter], .send, mode == .compose ? "send" : "search")
            e([.escape], .cancel, mode == .compose ? "close, keep the draft" : "cancel")
            e([.ctrl("g")], .cancel, mode == .compose ? "close, keep the draft" : "cancel")
            e([.ctrl("c")], .cancel, mode == .compose ? "close, keep the draft" : "cancel")
            e([.left], .left, "left")
            e([.ctrl("b")], .left, "left")
            e([.right], .right, "right")
            e([.ctrl("f")], .right, "right")
            e([.home], .lineStart, "start of line")
            e([.ctrl("a")], .lineStart, "start of line")
            e([.end], .lineEnd, "end of line")
            e([.ctrl("e")], .lineEnd, "end of line")
            e([.backspace], .deleteBack, "delete before")
            e([.ctrl("h")], .deleteBack, "delete before")
            e([.delete], .deleteForward, "delete after")
            e([.ctrl("d")], .deleteForward, "delete after")
            e([.ctrl("w")], .deleteWord, "delete word")
            e([.ctrl("u")], .killToStart, "delete to line start")
            e([.ctrl("k")], .killToEnd, "delete to line end")
            if mode == .prompt { e([.tab], .complete, "complete a file name") }
            e([.ctrl("l")], .redraw, "redraw the screen")
            e([.ctrl("z")], .stopProcess, "suspend (fg to come back)")
            if mode == .compose {
                e([.ctrl("o")], .attach, "attach a photo or video")
                // ctrl-x begins two-key commands, as in bash and emacs.
                e([.ctrl("x"), .ctrl("e")], .editInEditor, "edit in $VISUAL or $EDITOR")
                e([.ctrl("x"), .backspace], .detach, "remove the last attachment")
                e([.alt("\r")], .newline, "new line")
                e([.ctrl("j")], .newline, "new line")
                e([.up], .lineUp, "line up")
                e([.down], .lineDown, "line down")
            }
        }
        b.append(Binding(.confirm, [.char("y")], .yes, "yes"))
        b.append(Binding(.confirm, [.char("n")], .no, "no"))
        b.append(Binding(.confirm, [.escape], .no, "no"))
        for (keys, c, h) in [
            ([Key.char("j")], Command.down, "next link"), ([.down], .down, "next link"), ([.char("k")], .up, "previous link"),
            ([.up], .up, "previous link"), ([.enter], .send, "open it (copy it over ssh)"), ([.char("y")], .copyLink, "copy it"),
            ([.escape], .cancel, "close"), ([.char("q")], .cancel, "close"),
        ] {
            b.append(Binding(.picker, keys, c, h))
        }
        for (keys, c) in [
            ([Key.char("j")], Command.down), ([.down], .down), ([.char("k")], .up), ([.up], .up), ([.char(" ")], .pageDown),
            ([.pageDown], .pageDown), ([.pageUp], .pageUp),
        ] {
            b.append(Binding(.help, keys, c, "scroll the help"))
        }
        b.append(Binding(.help, [.enter], .thread, "the post's conversation (reading a long post)"))
        for (keys, c, h) in [
            ([Key.char("f")], Command.follow, "follow or unfollow"), ([.char("m")], .muteUser, "mute or unmute"),
            ([.char("B")], .block, "block or unblock"), ([.char("u")], .author, "their tweets"),
            ([.char("F")], .authorLikes, "their likes"), ([.char("b")], .lists, "their lists"),
            ([.char("d")], .directMessages, "send them a message"),
            ([.char("1")], .followers, "their followers"), ([.char("2")], .following, "whom they follow"), ([.escape], .cancel, "close"),
            ([.char("q")], .cancel, "close"),
        ] {
            b.append(Binding(.profile, keys, c, h))
        }
        for (keys, c, h) in [
            ([Key.char("l")], Command.right, "next photo"), ([.right], .right, "next photo"), ([.char("j")], .right, "next photo"),
            ([.char("h")], .left, "previous photo"), ([.left], .left, "previous photo"), ([.char("k")], .left, "previous photo"),
            ([.char("o")], .links, "open the original in the browser"), ([.char("?")], .help, "help"),
            ([.escape], .cancel, "back"), ([.char("q")], .cancel, "back"), ([.ctrl("c")], .quit, "quit"),
            ([.ctrl("l")], .redraw, "redraw the screen"),
        ] {
            b.append(Binding(.viewer, keys, c, h))
        }
        b.append(Binding(.help, [.char("?")], .cancel, "close help"))
        b.append(Binding(.help, [.escape], .cancel, "close help"))
        b.append(Binding(.help, [.char("q")], .cancel, "close help"))
        return KeyMap(b)
    }()
}

extension Command {
    /// Panes 10 to 19 (alt-0, then alt-1 … alt-9).
    public static let farPanes: [Command] = [.pane10, .pane11, .pane12, .pane13, .pane14, .pane15, .pane16, .pane17, .pane18, .pane19]
}
