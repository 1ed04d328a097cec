import Spawn

/// Pictures through tmux to the terminal it runs in, where the pane allows it
/// (`allow-passthrough`, tmux 3.3). tmux hands a passthrough sequence (`ESC P tmux; … ESC \`,
/// each ESC inside doubled) to the outer terminal as it is, at whatever place the outer cursor
/// happens to be, so each picture carries its own move there: the pane's place in the window
/// plus the cell's, the outer cursor saved before and put back after.
public struct TmuxPassthrough: Sendable, Equatable {
    /// The outer terminal as tmux names it (`kitty(0.26.5)`, `XTerm(379)`, `WezTerm …`).
    public var terminalType: String
    /// The pane's first row and column on the outer terminal, 0-based (a status line on top
    /// counts).
    public var top: Int
    public var left: Int

    public init(terminalType: String, top: Int, left: Int) {
        self.terminalType = terminalType
        self.top = top
        self.left = left
    }

    static let format = "#{allow-passthrough}|#{client_termtype}|#{pane_top}|#{pane_left}|#{status-position}|#{status}"

    /// What tmux says of this pane; nil outside tmux, where tmux is not found, or where the pane
    /// does not allow passthrough.
    public static func ask(environment: [String: String]) -> TmuxPassthrough? {
        guard environment["TMUX"] != nil else { return nil }
        var arguments = ["display-message", "-p"]
        if let pane = environment["TMUX_PANE"] { arguments += ["-t", pane] }
        guard let r = try? ChildProcess.run("tmux", arguments + [format], stderr: .null), r.status == 0 else { return nil }
        return parse(r.text)
    }

    /// `display-message`'s answer to `format`.
    public static func parse(_ answer: String) -> TmuxPassthrough? {
        let parts = answer.split(separator: "\n").first.map { $0.split(separator: "|", omittingEmptySubsequences: false) } ?? []
        guard parts.count == 6, parts[0] == "1" || parts[0] == "on" || parts[0] == "all", let top = Int(parts[2]),
            let left = Int(parts[3])
        else { return nil }
        // A status line on top pushes the window down by its lines (`status` is on, off or 2–5).
        let statusLines = parts[5] == "off" ? 0 : parts[5] == "on" ? 1 : Int(parts[5]) ?? 1
        return TmuxPassthrough(terminalType: String(parts[1]), top: top + (parts[4] == "top" ? statusLines : 0), left: left)
    }

    /// How pictures go through to this terminal: kitty graphics where it is kitty or WezTerm;
    /// nil for the rest (tmux cannot say whether XTerm draws sixel, and an iTerm2 image is one
    /// sequence larger than tmux takes), which then draw blocks.
    public var pictureMode: String? {
        terminalType.hasPrefix("kitty(") || terminalType.hasPrefix("WezTerm") ? "kitty" : nil
    }

    /// `bytes` (one or more APC or DCS sequences, each ending in ST) for the outer terminal at
    /// the pane's cell (x, y): each sequence its own passthrough (tmux takes up to 1 MiB in one,
    /// a kitty photo is more), the move before the first and again before the last (where
    /// kitty places the picture), the outer cursor put back after.
    public func wrap(_ bytes: [UInt8], x: Int, y: Int) -> [UInt8] {
        let move = Array("\u{1B}[\(top + y + 1);\(left + x + 1)H".utf8)
        let pieces = Self.sequences(bytes)
        var out: [UInt8] = []
        for (i, piece) in pieces.enumerated() {
            var inner: [UInt8] = []
            if i == 0 { inner += [0x1B, 0x37] }
            if i == 0 || i == pieces.count - 1 { inner += move }
            inner += piece
            if i == pieces.count - 1 { inner += [0x1B, 0x38] }
            out += Self.passthrough(inner)
        }
        return out
    }

    /// A sequence for the outer terminal with no place of its own (kitty's delete).
    public func wrap(_ bytes: [UInt8]) -> [UInt8] { Self.sequences(bytes).flatMap(Self.passthrough) }

    static func passthrough(_ inner: [UInt8]) -> [UInt8] {
        var out = Array("\u{1B}Ptmux;".utf8)
        for b in inner {
            if b == 0x1B { out.append(0x1B) }
            out.append(b)
        }
        return out + [0x1B, 0x5C]
    }

    /// The sequences in `bytes`, each up to and with its ST (`ESC \`); a rest without one last.
    static func sequences(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var start = 0
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x1B, bytes[i + 1] == 0x5C {
                out.append(Array(bytes[start...i + 1]))
                start = i + 2
                i += 2
            } else {
                i += 1
            }
        }
        if start < bytes.count { out.append(Array(bytes[start...])) }
        return out
    }
}
