import CNcursesw
import FoundationEssentials
import Glibc
import Screen

/// How graphemes and styles reach the terminal: the cursor's move over a grapheme, the SGR
/// for a style, OSC 8 where the terminal takes it.
extension CursesTerminal {
    /// The graphemes of a row that cover columns `from..<to`: where each begins and its cells.
    static func cells(of screen: Screen, y: Int, from: Int, to: Int) -> [(x: Int, cells: Int)] {
        guard screen.width > 0 else { return [] }
        var x = min(from, screen.width - 1)
        while x > 0, screen[x, y].isContinuation { x -= 1 }
        var out: [(x: Int, cells: Int)] = []
        while x < min(screen.width, to) {
            let n = max(1, screen.span(x, y))
            if !screen[x, y].isContinuation { out.append((x, n)) }
            x += n
        }
        return out
    }

    /// The scalar of a cell the terminal advances over as the screen measures it: one scalar,
    /// as wide as the cells it has (what `plan` says of it, without making an array). Nil for
    /// anything else.
    static func single(_ cell: Cell, in screen: Screen, cells n: Int) -> UInt32? {
        guard let v = screen.scalar(of: cell) else { return nil }
        if v >= 0x20 && v < 0x7F { return n == 1 ? v : nil }
        return Int(wcwidth(wchar_t(bitPattern: v))) == n ? v : nil
    }

    /// Whether the terminal's cursor moves over a grapheme as the screen measures it.
    public enum ClusterPlan: Equatable, Sendable {
        /// Alike: a base that takes all the grapheme's cells, with marks that take none.
        case alike
        /// Perhaps otherwise: the next cell is found by a cursor move, and the cells its
        /// scalars could reach one by one are written again.
        case apart
    }

    /// Terminals that advance per scalar move by each scalar's `wcwidth`: a grapheme whose base
    /// takes its cells and whose other scalars take none is alike (in grapheme cluster mode
    /// too, where the terminal measures the cluster as the screen does).
    public static func plan(_ scalars: [UInt32], cells: Int, width: (UInt32) -> Int = { Int(wcwidth(wchar_t(bitPattern: $0))) })
        -> ClusterPlan
    {
        guard let base = scalars.first else { return .alike }
        guard width(base) == cells, scalars.dropFirst().allSatisfy({ width($0) == 0 }) else { return .apart }
        return .alike
    }

    /// Whether the terminal is one known to take OSC 8 hyperlinks, from what it puts in the
    /// environment. Inside tmux, no: before 3.4 it drops them, after it only with its
    /// `hyperlinks` feature on (config.toml's `hyperlinks = true` forces them).
    public static func hyperlinksKnown(_ env: [String: String]) -> Bool {
        if env["TMUX"] != nil || (env["TERM"] ?? "").hasPrefix("screen") || (env["TERM"] ?? "").hasPrefix("tmux") { return false }
        if ["iTerm.app", "WezTerm", "vscode", "ghostty"].contains(env["TERM_PROGRAM"] ?? "") { return true }
        if env["KITTY_WINDOW_ID"] != nil || env["WT_SESSION"] != nil { return true }
        if let vte = env["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
        let term = env["TERM"] ?? ""
        return ["foot", "xterm-kitty", "wezterm", "alacritty", "xterm-ghostty", "contour"].contains { term.hasPrefix($0) }
    }

    /// The SGR sequence for a style at a colour depth (attributes reset first).
    /// `direct`: RGB colours as 24-bit colour (COLORTERM=truecolor), for pictures.
    public static func sgr(_ style: Style, depth: ColorDepth, direct: Bool = false) -> String {
        var parts = ["0"]
        let a = style.attributes
        if a.contains(.bold), depth == .full || style.fg.index(at: depth) != 0 { parts.append("1") }
        if a.contains(.dim) { parts.append("2") }
        if a.contains(.italic) { parts.append("3") }
        if a.contains(.underline) { parts.append("4") }
        if a.contains(.reverse) { parts.append("7") }
        for (color, base) in [(style.fg, 30), (style.bg, 40)] {
            if direct, depth != .none, case .rgb(let r, let g, let b) = color {
                parts.append("\(base + 8);2;\(r);\(g);\(b)")
            } else if let i = color.index(at: depth) {
                parts.append(i < 8 ? "\(base + i)" : i < 16 ? "\(base + 60 + i - 8)" : "\(base + 8);5;\(i)")
            }
        }
        return "\u{1B}[" + parts.joined(separator: ";") + "m"
    }

    /// Writes all of `bytes` to the terminal, across short writes and interruptions.
    static func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(1, buf.baseAddress! + off, buf.count - off)
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                off += n
            }
        }
    }
}
