/// A key press as the terminal reports it.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    case char(Character)
    /// Ctrl with a letter (`ctrl("a")`).
    case ctrl(Character)
    /// Alt (Meta) with a key, sent by terminals as Escape first.
    case alt(Character)
    case up, down, left, right, home, end, pageUp, pageDown
    case enter, tab, backTab, backspace, delete, escape, insert
    case function(Int)
    /// The terminal changed size (or must be drawn whole again).
    case resize
    /// Text the terminal marked as pasted (bracketed paste): inserted, never acted on.
    case paste(String)
    /// A mouse button or wheel (SGR reports, mode 1006).
    case mouse(Mouse)
    /// The terminal gained (true) or lost (false) focus (focus reporting, mode 1004).
    case focus(Bool)

    /// The name used in key maps, help and `config.toml`: `j`, `ctrl-d`, `alt-enter`, `pgdn`.
    public var description: String {
        switch self {
        case .char(" "): return "space"
        case .char(let c): return String(c)
        case .ctrl(let c): return "ctrl-\(c)"
        case .alt("\r"): return "alt-enter"
        case .alt(let c): return "alt-\(c)"
        case .up: return "up"
        case .down: return "down"
        case .left: return "left"
        case .right: return "right"
        case .home: return "home"
        case .end: return "end"
        case .pageUp: return "pgup"
        case .pageDown: return "pgdn"
        case .enter: return "enter"
        case .tab: return "tab"
        case .backTab: return "shift-tab"
        case .backspace: return "backspace"
        case .delete: return "delete"
        case .escape: return "esc"
        case .insert: return "insert"
        case .function(let n): return "f\(n)"
        case .resize: return "resize"
        case .paste: return "paste"
        case .mouse: return "mouse"
        case .focus(let on): return on ? "focus-in" : "focus-out"
        }
    }

    /// Parses a key name as `description` writes it.
    public init?(name: String) {
        let n = name.lowercased()
        let named: [String: Key] = [
            "space": .char(" "), "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
            "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown, "enter": .enter, "return": .enter,
            "tab": .tab, "shift-tab": .backTab, "backspace": .backspace, "delete": .delete, "del": .delete,
            "esc": .escape, "escape": .escape, "insert": .insert, "alt-enter": .alt("\r"),
        ]
        if let k = named[n] {
            self = k
        } else if n.hasPrefix("ctrl-"), n.count == 6, let c = n.last {
            self = .ctrl(c)
        } else if n.hasPrefix("alt-"), n.count == 5, let c = name.last {
            self = .alt(c)
        } else if n.hasPrefix("f"), let i = Int(n.dropFirst()), (1...24).contains(i) {
            self = .function(i)
        } else if name.count == 1, let c = name.first {
            self = .char(c)
        } else {
            return nil
        }
    }
}

/// A mouse report: what happened and where, in cells from the top left (0, 0).
public struct Mouse: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        /// A button went down: 0 left, 1 middle, 2 right.
        case press(Int)
        case release
        case wheelUp, wheelDown
    }
    public var action: Action
    public var x: Int
    public var y: Int
    public init(_ action: Action, x: Int, y: Int) {
        self.action = action
        self.x = x
        self.y = y
    }
}
