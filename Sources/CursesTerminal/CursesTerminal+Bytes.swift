import CNcursesw
import FoundationEssentials
import Glibc
import Screen

/// What Linnet writes to the terminal itself, around ncurses: graphemes ncurses cannot hold,
/// OSC 8 links, the cells such graphemes left behind, and the SGR for a style.
extension CursesTerminal {
    /// Whether any grapheme on the screen is one Linnet writes itself.
    public static func hasRaw(_ screen: Screen) -> Bool {
        let clusters = screen.multiScalarGraphemes.contains { g in
            plan(g.unicodeScalars.map(\.value), cells: Screen.width(of: Character(g))) == .raw
        }
        if clusters { return true }
        // One scalar the C library measures otherwise than Linnet (a newer emoji) is Linnet's too.
        for y in 0..<screen.height {
            var x = 0
            while x < screen.width {
                let c = screen[x, y]
                guard let v = screen.scalar(of: c), v >= 0x7F || v < 0x20 else {
                    x += 1
                    continue
                }
                let n = screen.span(x, y)
                if single(c, in: screen, cells: n) == nil { return true }
                x += n
            }
        }
        return false
    }

    /// The stale spans (`staleRawSpans`) where the terminal may hold the last frame's own
    /// graphemes: in changed cells, and after a move (`shift`) both where they were and where
    /// they went, ncurses having moved the rows on the terminal or written them in place.
    static func staleSpans(runs: [Screen.Run], region: [Screen.Run], last: Screen?, before: (screen: Screen?, shift: RowShift?))
        -> [(y: Int, x: Int, end: Int)]
    {
        guard let s = before.shift else { return staleRawSpans(from: last, runs: runs) }
        // Outside the region, and the whole region where its rows were; inside it, the changed
        // cells of rows moved there (those a move left behind hold nothing of the last frame).
        let inside = { (r: Screen.Run) in r.y >= s.top && r.y <= s.bottom }
        let stayed = staleRawSpans(from: last, runs: runs.filter { !inside($0) } + region)
        let moved = runs.filter { r in inside(r) && r.y + s.by >= s.top && r.y + s.by <= s.bottom }
        return stayed + staleRawSpans(from: before.screen, runs: moved)
    }

    /// Where the last frame had graphemes Linnet wrote itself, in cells that change now.
    /// ncurses holds blanks there, so when the new frame has blanks (or anything it measures
    /// as unchanged) it sends nothing and the old grapheme would stay on the terminal.
    public static func staleRawSpans(from old: Screen?, runs: [Screen.Run]) -> [(y: Int, x: Int, end: Int)] {
        guard let old else { return [] }
        var out: [(y: Int, x: Int, end: Int)] = []
        for run in runs where run.y < old.height && old.width > 0 {
            // The graphemes covering the run (as `cells(of:)` finds them, without an array).
            let y = run.y
            var x = min(run.x, old.width - 1)
            while x > 0, old[x, y].isContinuation { x -= 1 }
            let end = min(old.width, run.x + run.count)
            while x < end {
                let c = old[x, y]
                // Printable ASCII, most cells, is one cell that ncurses holds.
                if let v = old.scalar(of: c), v >= 0x20, v < 0x7F {
                    x += 1
                    continue
                }
                let n = max(1, old.span(x, y))
                if !c.isContinuation, !c.isUnknown, single(c, in: old, cells: n) == nil, plan(old.scalars(of: c), cells: n) == .raw {
                    out.append((y, x, x + n))
                }
                x += n
            }
        }
        return out
    }

    /// The new frame's cells over those spans, written straight to the terminal (cursor and
    /// attributes saved and restored), so what was there is gone whatever ncurses believes.
    /// A grapheme Linnet writes itself anyway (every one on a row `present` touched) is not
    /// written twice.
    public static func repaintBytes(_ spans: [(y: Int, x: Int, end: Int)], in screen: Screen, depth: ColorDepth) -> [UInt8] {
        var out: [UInt8] = []
        for s in spans where s.y < screen.height {
            for (x, n) in cells(of: screen, y: s.y, from: s.x, to: s.end) {
                let c = screen[x, s.y]
                if plan(screen.scalars(of: c), cells: n) == .raw { continue }
                out += rawBytes(screen.scalars(of: c), x: x, y: s.y, sgr: sgr(c.style, depth: depth))
            }
        }
        return out
    }

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

    /// The scalar of a cell ncurses draws as it is: one scalar, as wide as the cells it has
    /// (what `plan` says of it, without making an array). Nil for anything else.
    static func single(_ cell: Cell, in screen: Screen, cells n: Int) -> UInt32? {
        guard let v = screen.scalar(of: cell) else { return nil }
        if v >= 0x20 && v < 0x7F { return n == 1 ? v : nil }
        return Int(wcwidth(wchar_t(bitPattern: v))) == n ? v : nil
    }

    /// How a grapheme reaches the terminal.
    public enum ClusterPlan: Equatable, Sendable {
        /// Through ncurses as one cell: a base that takes all the grapheme's cells, with marks
        /// that take none (ncurses keeps up to 5 scalars a cell and measures by the base).
        case ncurses([UInt32])
        /// Written whole by Linnet, at its place, after ncurses drew blanks there.
        case raw
    }

    /// ncurses measures a cell by its first scalar's `wcwidth` and keeps at most 5 scalars:
    /// a grapheme it would measure otherwise than the screen does, or cut, goes around it.
    public static func plan(_ scalars: [UInt32], cells: Int, width: (UInt32) -> Int = { Int(wcwidth(wchar_t(bitPattern: $0))) })
        -> ClusterPlan
    {
        guard let base = scalars.first else { return .ncurses([32]) }
        if scalars.count == 1, width(base) == cells { return .ncurses(scalars) }
        guard scalars.count <= 5, width(base) == cells, scalars.dropFirst().allSatisfy({ width($0) == 0 }) else { return .raw }
        return .ncurses(scalars)
    }

    /// A grapheme written at (x, y) with its style, the terminal's cursor and attributes saved
    /// before and restored after (DECSC/DECRC), so ncurses's idea of both stays true.
    public static func rawBytes(_ scalars: [UInt32], x: Int, y: Int, sgr: String) -> [UInt8] {
        var out = Array("\u{1B}7\u{1B}[\(y + 1);\(x + 1)H".utf8) + Array(sgr.utf8)
        var text = String.UnicodeScalarView()
        for v in scalars { if let u = Unicode.Scalar(v) { text.append(u) } }
        out += Array(String(text).utf8)
        out += Array("\u{1B}8".utf8)
        return out
    }

    /// Graphemes written at (x, y) inside an OSC 8 hyperlink (its `id` lets a terminal treat
    /// a link wrapped over two lines as one), cursor and attributes saved and restored around.
    public static func linkBytes(_ parts: [(scalars: [UInt32], sgr: String)], x: Int, y: Int, id: UInt16, target: String) -> [UInt8] {
        var out = Array("\u{1B}7\u{1B}[\(y + 1);\(x + 1)H\u{1B}]8;id=linnet-\(id);\(target)\u{1B}\\".utf8)
        for p in parts {
            out += Array(p.sgr.utf8)
            var text = String.UnicodeScalarView()
            for v in p.scalars { if let u = Unicode.Scalar(v) { text.append(u) } }
            out += Array(String(text).utf8)
        }
        out += Array("\u{1B}]8;;\u{1B}\\\u{1B}8".utf8)
        return out
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
