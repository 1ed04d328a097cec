import CNcursesw
import Dispatch
import Glibc
import Screen
import Synchronization

/// Wakes a terminal waiting for keys, from any thread (the store changed, a request finished).
public final class Waker: Sendable {
    let readFD: Int32
    let writeFD: Int32

    public init() {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    public func wake() {
        var b: UInt8 = 1
        _ = write(writeFD, &b, 1)
    }

    /// Empties the pipe; true when something had woken it.
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var any = false
        while read(readFD, &buffer, buffer.count) > 0 { any = true }
        return any
    }
}

/// The only code that calls ncurses: presents `Screen`s by writing the cells that changed and
/// letting ncurses optimise the output (it scrolls lines instead of repainting them), and reads
/// keys with `wget_wch`. Use from one thread only.
public final class CursesTerminal: Terminal {
    public let waker = Waker()
    public private(set) var colorDepth: ColorDepth
    private var last: Screen?
    private var pairs: [Int: Int16] = [:]
    private var open = true
    /// Set by a hang-up seen on standard input or by SIGHUP/SIGTERM (from a dispatch queue).
    private let closed = Flag()
    private var signalSources: [any DispatchSourceSignal] = []

    public var isClosed: Bool { closed.isSet }

    /// A flag signal handlers set and the main thread reads.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    /// Starts curses on the terminal. `noColor` (from `NO_COLOR`) keeps attributes only.
    public init(noColor: Bool) {
        Self.useUTF8Locale()
        cn_save_modes()
        initscr()
        raw()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        set_escdelay(25)
        idlok(cn_stdscr(), true)
        idcok(cn_stdscr(), true)
        scrollok(cn_stdscr(), false)
        if has_colors() {
            start_color()
            use_default_colors()
        }
        colorDepth = ColorDepth.from(colors: has_colors() ? Int(cn_COLORS()) : 0, noColor: noColor)
        Self.restoreOnCrash()
        // Hang-up and terminate end the loop like a quit, so drafts and the cache are saved.
        for sig in [SIGHUP, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [closed, waker] in
                closed.set()
                waker.wake()
            }
            source.resume()
            signalSources.append(source)
        }
    }

    deinit { end() }

    /// Prepares what a crash handler writes to give the terminal back: attributes off, the
    /// cursor shown, keypad mode off, the normal screen (terminfo's sgr0, cnorm, rmkx, rmcup).
    private static func restoreOnCrash() {
        var bytes: [CChar] = []
        for cap in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            if let s = cn_tigetstr(cap) { bytes += Array(UnsafeBufferPointer(start: s, count: strlen(s))) }
        }
        bytes += [13, 10]
        bytes.withUnsafeBufferPointer { cn_install_crash_restore($0.baseAddress, Int32($0.count)) }
    }

    /// The user's locale, or C.UTF-8 when theirs is not UTF-8: wide characters and wcwidth
    /// need a UTF-8 locale (tweets are UTF-8 whatever LANG says).
    public static func useUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).uppercased()
        if codeset != "UTF-8" && codeset != "UTF8" { setlocale(LC_ALL, "C.UTF-8") }
    }

    /// Restores the terminal (also safe to call twice).
    public func end() {
        guard open else { return }
        open = false
        endwin()
    }

    public func suspend() {
        guard open else { return }
        def_prog_mode()
        endwin()
    }

    public func resume() {
        guard open else { return }
        reset_prog_mode()
        refresh()
        invalidate()
    }

    public var size: (width: Int, height: Int) {
        var y: Int32 = 0
        var x: Int32 = 0
        cn_getmaxyx(cn_stdscr(), &y, &x)
        return (Int(x), Int(y))
    }

    /// Shows a frame: `Screen.diff` against the last one presented says which cells changed
    /// (all of them after a resize or `invalidate`); only those go to ncurses, then the cursor,
    /// and `doupdate` writes the bytes.
    public func present(_ screen: Screen) {
        let full = last.map { $0.width != screen.width || $0.height != screen.height } ?? true
        if full { clearok(cn_stdscr(), true) }
        for run in Screen.diff(from: last, to: screen) {
            for x in run.x..<(run.x + run.count) {
                let cell = screen[x, run.y]
                if !cell.isContinuation { draw(cell, x: x, y: run.y, in: screen) }
            }
        }
        if let c = screen.cursor {
            curs_set(1)
            wmove(cn_stdscr(), Int32(c.y), Int32(c.x))
        } else {
            curs_set(0)
        }
        wnoutrefresh(cn_stdscr())
        doupdate()
        last = screen
    }

    private func draw(_ cell: Cell, x: Int, y: Int, in screen: Screen) {
        var attrs: attr_t = 0
        let a = cell.style.attributes
        if a.contains(.bold) { attrs |= cn_A_BOLD() }
        if a.contains(.underline) { attrs |= cn_A_UNDERLINE() }
        if a.contains(.reverse) { attrs |= cn_A_REVERSE() }
        if a.contains(.dim) { attrs |= cn_A_DIM() }
        if a.contains(.italic) { attrs |= cn_A_ITALIC() }
        let pair = self.pair(cell.style)
        let wide = x + 1 < screen.width && screen[x + 1, y].isContinuation
        let (first, second) = Self.terminalForm(screen.scalars(of: cell), cells: wide ? 2 : 1)
        _ = first.withUnsafeBufferPointer { cn_mvadd_cluster(Int32(y), Int32(x), $0.baseAddress, Int32($0.count), attrs, pair) }
        if let second {
            _ = second.withUnsafeBufferPointer { cn_mvadd_cluster(Int32(y), Int32(x + 1), $0.baseAddress, Int32($0.count), attrs, pair) }
        }
    }

    /// What to hand ncurses for a grapheme that must take `cells` columns. ncurses and terminals
    /// like tmux measure with `wcwidth` per scalar (☀️ = 1, 👩‍💻 = 4, 🇯🇵 = 1+1), while the screen
    /// measures per grapheme; drawing a form both agree on keeps every row aligned: the base
    /// with its combining marks (no VS16, nothing after a ZWJ or a second emoji), flags as two
    /// regional indicators, and a space after a base that is narrower than its cells.
    static func terminalForm(_ scalars: [UInt32], cells: Int) -> (first: [UInt32], second: [UInt32]?) {
        guard let base = scalars.first else { return ([32], cells == 2 ? [32] : nil) }
        func width(_ v: UInt32) -> Int { Int(wcwidth(wchar_t(bitPattern: v))) }
        let isRegional: (UInt32) -> Bool = { (0x1F1E6...0x1F1FF).contains($0) }
        if scalars.count == 2, isRegional(base), isRegional(scalars[1]), cells == 2 { return ([base], [scalars[1]]) }
        var kept = [base]
        for v in scalars.dropFirst() {
            if v == 0x200D { break }
            if v == 0xFE0F || v == 0xFE0E { continue }
            if width(v) == 0 { kept.append(v) } else { break }
        }
        let baseWidth = width(base)
        if baseWidth <= 0 || baseWidth > cells { return ([0xFFFD], cells == 2 ? [32] : nil) }
        return (kept, baseWidth < cells ? [32] : nil)
    }
    /// A colour pair for a style's colours at this terminal's depth, made on first use.
    private func pair(_ style: Style) -> Int16 {
        let fg = style.fg.index(at: colorDepth) ?? -1
        let bg = style.bg.index(at: colorDepth) ?? -1
        if fg == -1 && bg == -1 { return 0 }
        let key = (fg + 1) << 16 | (bg + 1)
        if let p = pairs[key] { return p }
        let next = pairs.count + 1
        guard next < min(Int(cn_COLOR_PAIRS()), Int(Int16.max)) else { return 0 }
        init_pair(Int16(next), Int16(fg), Int16(bg))
        pairs[key] = Int16(next)
        return Int16(next)
    }

    /// Forgets the last frame, so the next is drawn whole (after a resize or a redraw key).
    public func invalidate() { last = nil }

    public func bell() { beep() }

    public func readKeys(timeout: Double) -> [Key] {
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: waker.readFD, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, Int32(max(0, timeout * 1000)))
        _ = waker.drain()
        // A closed terminal reads as ready for ever: without this the loop would spin.
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            closed.set()
            return []
        }
        var inputs: [TerminalInput] = []
        wtimeout(cn_stdscr(), 0)
        while inputs.count < KeyDecoder.maxPerTurn {
            var wch: wint_t = 0
            let r = wget_wch(cn_stdscr(), &wch)
            if r == ERR { break }
            if r == KEY_CODE_YES {
                if Int32(wch) == KEY_RESIZE { invalidate() }
                inputs.append(.code(Int32(wch)))
            } else {
                inputs.append(.char(UInt32(wch)))
            }
        }
        return KeyDecoder.decode(inputs, special: Self.special)
    }

    static func special(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_NPAGE: return .pageDown
        case KEY_PPAGE: return .pageUp
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_IC: return .insert
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_RESIZE: return .resize
        default:
            for n in 1...24 where code == cn_KEY_F(Int32(n)) { return .function(n) }
            return nil
        }
    }
}
