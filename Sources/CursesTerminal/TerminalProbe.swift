import Bedrock
import FoundationEssentials
import Screen
import Synchronization
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// What the terminal says about itself: its background (OSC 11), whether it draws kitty
/// graphics (a kitty graphics query), its cell's pixels, its widths, and its device attributes
/// (DA1, whose 4 means sixel). DA1 is asked last: every terminal answers it, so its answer says
/// the others have come. The reader asks as curses starts and reads the answers among the keys
/// (`CursesTerminal.askAtStart`); `linnet terminal` asks here and waits (`reply`).
public enum TerminalProbe {
    static let question = question(row: nil)

    /// The question, its width samples on `row` (1-based) or the cursor's line.
    public static func question(row: Int?) -> [UInt8] {
        var q = "\u{1B}]11;?\u{1B}\\\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
        q += widthQuestion(row: row)
        // The cell's size in pixels (CSI 16 t), where the kernel's window size does not say.
        return Array((q + "\u{1B}[16t\u{1B}[c").utf8)
    }

    /// The answers the terminal gave among the keys (the reader asks at start and does not
    /// wait): kept as if asked here, unless it was.
    public static func settle(_ reply: [UInt8]) { answer.withLock { if $0 == nil { $0 = reply } } }
    private static let answer = Mutex<[UInt8]?>(nil)

    /// Widths: each kind of cluster terminals disagree on, written concealed (SGR 8) from the
    /// line's start (of `row`, 1-based, or the cursor's line), then the cursor's place asked
    /// (CSI 6n); the line is erased after and the cursor put back.
    public static func widthQuestion(row: Int?) -> String {
        var q = "\u{1B}7" + (row.map { "\u{1B}[\($0);1H" } ?? "") + "\u{1B}[8m"
        for sample in ClusterKinds.samples { q += "\r" + sample.text + "\u{1B}[6n" }
        return q + "\r\u{1B}[2K\u{1B}[0m\u{1B}8"
    }

    /// The widths the cursor's columns (1-based, one per sample) say, when they differ from
    /// `current`; nil when they are the same or do not say (too few). Mode 2027 is not measured.
    public static func remeasured(_ columns: [Int], current: WidthMode) -> WidthMode? {
        guard current != .grapheme, let kinds = ClusterKinds.fromMeasured(columns.map { $0 - 1 }) else { return nil }
        let now = WidthMode.measured(kinds)
        // Nothing joined is how widths per scalar measure.
        if kinds.isEmpty, current == .perScalar { return nil }
        return now == current ? nil : now
    }

    /// The terminal's answers (asked on the first call only); empty when there is no terminal.
    /// A second at most: a terminal over a slow ssh link answers late, and DA1 ends the wait
    /// as soon as the terminal has said all it will.
    public static func reply(timeout: Double = 1.0) -> [UInt8] {
        answer.withLock { kept in
            if let kept { return kept }
            let r = ask(timeout: timeout)
            kept = r
            return r
        }
    }

    private static func ask(timeout: Double) -> [UInt8] {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return [] }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return [] }
        // TCSAFLUSH: whatever still arrives late is dropped, not read later as keys.
        defer { tcsetattr(fd, TCSAFLUSH, &saved) }
        guard question.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == question.count else { return [] }
        var reply: [UInt8] = []
        let deadline = TerminalBackground.monotonic() + timeout
        while reply.count < 1024 {
            let left = deadline - TerminalBackground.monotonic()
            guard left > 0 else { break }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(left * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            var chunk = [UInt8](repeating: 0, count: 256)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            reply += chunk[..<n]
            if TerminalBackground.daReplyEnded(reply) { break }
        }
        return reply
    }

    /// The reply, if the terminal was asked already (nothing is asked here).
    public static var asked: [UInt8]? { answer.withLock { $0 } }

    /// The columns the cursor reports (`ESC [ row ; column R`), in order.
    public static func cursorColumns(_ reply: [UInt8]) -> [Int] {
        var out: [Int] = []
        var i = 0
        while i + 1 < reply.count {
            guard reply[i] == 0x1B, reply[i + 1] == UInt8(ascii: "[") else {
                i += 1
                continue
            }
            var j = i + 2
            var numbers: [Int] = [0]
            while j < reply.count, (48...57).contains(reply[j]) || reply[j] == UInt8(ascii: ";") {
                if reply[j] == UInt8(ascii: ";") {
                    numbers.append(0)
                } else {
                    numbers[numbers.count - 1] = numbers[numbers.count - 1] * 10 + Int(reply[j] - 48)
                }
                j += 1
            }
            if j < reply.count, reply[j] == UInt8(ascii: "R"), numbers.count == 2 { out.append(numbers[1]) }
            i = j
        }
        return out
    }

    /// How the terminal measured the samples: the kinds it draws as one cluster; nil when it
    /// did not answer each.
    public static func widthMode(_ reply: [UInt8]) -> WidthMode? {
        let columns = cursorColumns(reply)
        guard let kinds = ClusterKinds.fromMeasured(columns.map { $0 - 1 }) else { return nil }
        return .measured(kinds)
    }

    /// Whether the reply holds kitty's OK to the graphics query (`ESC _ G i=31;OK ESC \`).
    public static func drawsKittyGraphics(_ reply: [UInt8]) -> Bool {
        String(decoding: reply, as: UTF8.self).contains("\u{1B}_Gi=31;OK")
    }

    /// Whether the DA1 reply (`ESC [ ? 64 ; 1 ; 4 ; … c`) lists attribute 4, sixel graphics.
    public static func drawsSixel(_ reply: [UInt8]) -> Bool {
        let text = String(decoding: reply, as: UTF8.self)
        guard let start = text.scalarRange(of: "\u{1B}[?") else { return false }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "c") else { return false }
        return rest[..<end].split(separator: ";").dropFirst().contains("4")
    }

    /// How pictures are drawn on this terminal: kitty graphics or sixel where it says it draws
    /// them, iTerm2's images where the terminal names itself (iTerm2 has no query), else symbols.
    /// Inside tmux, through it where the pane allows (`tmux`: what tmux said), else symbols.
    public static func pictureMode(reply: [UInt8], environment: [String: String], tmux: TmuxPassthrough? = nil) -> String {
        if environment["TMUX"] != nil, let through = tmux?.pictureMode { return through }
        if drawsKittyGraphics(reply) { return "kitty" }
        if environment["TMUX"] == nil, ["iTerm.app", "WezTerm", "mintty"].contains(environment["TERM_PROGRAM"] ?? "") { return "iterm" }
        if drawsSixel(reply) { return "sixel" }
        return "symbols"
    }

    /// The size of a cell in pixels, from the kernel's window size (xterm, kitty and most
    /// others fill it in); nil where it is not known.
    public static func cellPixels() -> (width: Int, height: Int)? { cellPixels(reply: asked ?? []) }

    /// The same, from the kernel or else from `reply`.
    public static func cellPixels(reply: [UInt8]) -> (width: Int, height: Int)? { windowCell() ?? cellReport(reply) }

    /// `ESC [ 6 ; height ; width t`, the answer to CSI 16 t.
    public static func cellReport(_ reply: [UInt8]) -> (width: Int, height: Int)? {
        let text = String(decoding: reply, as: UTF8.self)
        guard let start = text.scalarRange(of: "\u{1B}[6;") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "t") else { return nil }
        let parts = rest[..<end].split(separator: ";").compactMap { Int($0) }
        guard parts.count == 2, (1...512).contains(parts[0]), (1...512).contains(parts[1]) else { return nil }
        return (parts[1], parts[0])
    }

    private static func windowCell() -> (width: Int, height: Int)? {
        var ws = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &ws) == 0 || ioctl(0, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0, ws.ws_xpixel > 0,
            ws.ws_ypixel > 0
        else { return nil }
        return (Int(ws.ws_xpixel) / Int(ws.ws_col), Int(ws.ws_ypixel) / Int(ws.ws_row))
    }
}
