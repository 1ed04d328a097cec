import Bedrock
import CNcursesw
import Dispatch
import FoundationEssentials
import Glibc
import Screen
import Synchronization
import TweetText

/// The only code that calls ncurses, which sets the terminal up and reads keys (`wget_wch`);
/// `Screen`s are presented by `FrameWriter` (the cells that changed, rows that moved scrolled
/// by the terminal). Use from one thread only.
public final class CursesTerminal: Terminal {
    public let waker = Waker()
    public private(set) var colorDepth: ColorDepth
    var last: Screen?
    /// Writes the frames; ncurses holds no picture of the screen.
    var writer: FrameWriter
    /// The last frame's `rowHashes`, when it was looked at for a scroll.
    private var lastHashes: [UInt64]?
    private var open = true
    /// Linnet turned grapheme cluster mode on, and turns it off when it leaves.
    private var enabledClusterMode = false
    public private(set) var bracketedPaste = false
    public internal(set) var widthMode = WidthMode.perScalar
    /// Widths asked (at start, again after a resize): the answers so far, and when it was asked.
    var widthAsk: (columns: [Int], row: Int, at: Double)?
    /// The question asked at start (`TerminalProbe`), until all its answers came or it was given up.
    var startAsk: (at: Double, answers: [UInt8], columns: [Int], recalled: [UInt8]?)?
    /// Its answers, once all came, for the app; keys typed while they were waited for.
    var startReply: [UInt8]?
    var earlyKeys: [Key] = []
    /// The columns the last widths asked were answered with.
    var widthColumns: [Int] = []
    /// The terminal said it was resized in this turn's input.
    var resizedNow = false
    /// Pictures go through tmux to the terminal it runs in (what tmux said; asked again at a
    /// resize, when panes may have moved).
    public var tmux: TmuxPassthrough?
    /// kitty pictures sent to the terminal, by id.
    var kittyImages = KittyImages()
    /// Links on the screen are written as OSC 8 hyperlinks.
    public var hyperlinks = false
    /// The terminal takes 24-bit colour (COLORTERM), used for pictures drawn with symbols.
    public var directColor = ["truecolor", "24bit"].contains(ProcessEnvironment.values["COLORTERM"] ?? "")
    /// Bracketed paste and focus reports on, and autowrap off: a grapheme the terminal draws
    /// wider than measured at the last column stays on its row (and the bottom-right cell
    /// can be written without scrolling the screen).
    static let inputModesOn = "\u{1B}[?2004h\u{1B}[?1004h\u{1B}[?7l"
    /// The same undone (autowrap back on), mouse reports off and the pen reset: what Linnet
    /// leaves for the shell or the program it hands the terminal to (a frame closes its links).
    static let inputModesOff = "\u{1B}[?1004l\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?7h\u{1B}[0m"
    /// Button presses and releases and the wheel, as SGR reports (1006): no motion (1002/1003),
    /// so the terminal sends nothing while the mouse only moves.
    static let mouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
    /// `mouse = false` leaves the terminal's own selection alone.
    public let mouse: Bool
    var modesOn: String { Self.inputModesOn + (mouse ? Self.mouseOn : "") }
    /// Keys across reads: a sequence split between two reads waits here for its rest.
    var keyStream = KeyStream()
    /// When the terminal last sent anything (a paste's end marker is waited for after it).
    var lastInputAt = 0.0
    /// How long a lone Escape waits for what may follow it (ncurses's ESCDELAY too).
    public var escapeDelay = 0.04 {
        didSet { set_escdelay(Int32(max(1, escapeDelay * 1000))) }
    }
    /// Set by a hang-up seen on standard input or by SIGHUP/SIGTERM (from a dispatch queue).
    let closed = Flag()
    /// Set from a signal handler's thread: the next frame is drawn whole.
    let repaint = Flag()
    private var signalSources: [any DispatchSourceSignal] = []

    public var isClosed: Bool { closed.isSet }

    /// Starts curses on the terminal. `noColor` (from `NO_COLOR`) keeps attributes only.
    public init(noColor: Bool, mouse: Bool = false) {
        self.mouse = mouse
        Self.useUTF8Locale()
        cn_save_modes()
        initscr()
        raw()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        // Mouse reports reach the key reader as they came: terminfo's kmous (`\E[<` or `\E[M`)
        // would have ncurses swallow their start.
        keyok(KEY_MOUSE, false)
        set_escdelay(25)
        // ncurses draws nothing (`FrameWriter` does): a fresh window counts as changed, and a
        // key read would refresh it over the frames written.
        untouchwin(cn_stdscr())
        if has_colors() {
            start_color()
            use_default_colors()
        }
        colorDepth = ColorDepth.from(colors: has_colors() ? Int(cn_COLORS()) : 0, noColor: noColor)
        writer = FrameWriter(abilities: .fromTerminfo(), depth: colorDepth)
        // Grapheme cluster mode where the terminal has it: clusters measured as it draws them.
        // Asked at start, answered whenever the terminal answers (read with the keys, never
        // waited for): grapheme cluster mode (2027) and bracketed paste (2004). Until then,
        // widths are per scalar, and pastes are believed marked only inside tmux, which
        // implements the mode but does not answer the question.
        let tty = isatty(0) == 1 && isatty(1) == 1
        if tty { Self.writeAll(Array(Self.modeQuestion.utf8)) }
        bracketedPaste = ProcessEnvironment.values["TMUX"] != nil
        Self.writeAll(Array(modesOn.utf8))
        Self.restoreOnCrash()
        cn_install_winch_wake(waker.writeFD)
        // Continued after a stop it did not ask for (kill -STOP, a job control mishap): the
        // screen may hold anything, so the next frame is drawn whole.
        let continued = DispatchSource.makeSignalSource(signal: SIGCONT, queue: .global())
        continued.setEventHandler { [repaint, waker] in
            repaint.set()
            waker.wake()
        }
        continued.resume()
        signalSources.append(continued)
        // Hang-up, terminate and interrupt (raw mode sends none from the keyboard; `kill -INT`
        // does) end the loop like a quit, so drafts, the cache and the terminal are put right.
        for sig in [SIGHUP, SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [closed, waker] in
                closed.set()
                waker.wake()
            }
            source.resume()
            signalSources.append(source)
        }
        // Last, with the modes set and a crash's restore in place (the first frame may wait).
        if tty { askAtStart() }
    }

    deinit { end() }

    /// Prepares what a crash handler writes to give the terminal back: attributes off, the
    /// cursor shown, keypad mode off, the normal screen (terminfo's sgr0, cnorm, rmkx, rmcup),
    /// and the input modes Linnet turned on. In this file, beside `cn_save_modes`: the shim's
    /// state is a static in an inline C function, one copy per file that calls it.
    private static func restoreOnCrash() {
        var bytes: [CChar] = []
        for cap in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            if let s = cn_tigetstr(cap) { bytes += Array(UnsafeBufferPointer(start: s, count: strlen(s))) }
        }
        // Bracketed paste and focus reports off too, or the shell would get their markers.
        bytes += inputModesOff.utf8.map { CChar(bitPattern: $0) }
        bytes += [13, 10]
        bytes.withUnsafeBufferPointer { cn_install_crash_restore($0.baseAddress, Int32($0.count)) }
    }

    /// Restores the terminal (also safe to call twice).
    public func end() {
        guard open else { return }
        open = false
        dropAnswersStillComing()
        freeKittyImages()
        if enabledClusterMode { Self.writeAll(Array("\u{1B}[?2027l".utf8)) }
        // The cursor shown again: ncurses never hid it, so `endwin` would not show it.
        Self.writeAll(Array(Self.inputModesOff.utf8) + writer.abilities.showCursor)
        endwin()
    }

    public func suspend() {
        guard open else { return }
        dropAnswersStillComing()
        freeKittyImages()
        def_prog_mode()
        if enabledClusterMode { Self.writeAll(Array("\u{1B}[?2027l".utf8)) }
        Self.writeAll(Array(Self.inputModesOff.utf8) + writer.abilities.showCursor)
        writer.forget()
        endwin()
    }

    public func resume() {
        guard open else { return }
        reset_prog_mode()
        if enabledClusterMode { Self.writeAll(Array("\u{1B}[?2027h".utf8)) }
        Self.writeAll(Array(modesOn.utf8))
        refresh()
        invalidate()
    }

    static let modeQuestion = "\u{1B}[?2027$p\u{1B}[?2004$p"

    /// Acts on the terminal's answers: grapheme cluster mode turned on where it is off and
    /// widths measured per cluster where it is on; bracketed paste believed where it is on.
    /// True when the widths changed (the next frame must be laid out and drawn again).
    func apply(modeReports: [(mode: Int, state: Int)]) -> Bool {
        var changed = false
        for r in modeReports {
            switch r.mode {
            case 2027:
                guard ProcessEnvironment.values["LINNET_CLUSTER_MODE"] != "off", [1, 2, 3].contains(r.state) else { continue }
                if r.state == 2, !enabledClusterMode {
                    Self.writeAll(Array("\u{1B}[?2027h".utf8))
                    enabledClusterMode = true
                }
                if widthMode != .grapheme {
                    widthMode = .grapheme
                    changed = true
                }
            case 2004:
                if [1, 2, 3].contains(r.state) { bracketedPaste = true }
                if r.state == 0 || r.state == 4 { bracketedPaste = false }
            default: break
            }
        }
        return changed
    }

    public var size: (width: Int, height: Int) {
        var y: Int32 = 0
        var x: Int32 = 0
        cn_getmaxyx(cn_stdscr(), &y, &x)
        return (Int(x), Int(y))
    }

    /// Shows a frame: `Screen.diff` against the last one presented (its rows moved as a scroll
    /// moved them, `Screen.scroll`, which the terminal does in a scroll region) says which cells
    /// changed (all of them after a resize or `invalidate`); `FrameWriter` writes those, then
    /// pictures are written over their places, then the cursor is placed: one write a frame.
    public func present(_ screen: Screen) {
        DisplayWidth.$mode.withValue(widthMode) { draw(screen) }
        if Self.endAfterFirstFrame { endForCount() }
    }

    private func draw(_ screen: Screen) {
        let full = last.map { $0.width != screen.width || $0.height != screen.height } ?? true
        let hasPictures = !screen.pictures.isEmpty || !(last?.pictures.isEmpty ?? true)
        // Rows that only moved (a scroll) are moved by the terminal, not written again.
        var shift: RowShift?
        var hashes: [UInt64]?
        if !full, !hasPictures, writer.abilities.scrollRegions, let last {
            (shift, hashes) = Screen.scroll(from: last, to: screen, oldHashes: lastHashes)
        }
        lastHashes = hashes
        let runs = Screen.diff(from: full ? nil : last, through: shift, to: screen)
        writer.depth = colorDepth
        writer.hyperlinks = hyperlinks
        // Room for a key's frame (1–2 KB) from the start: grown a doubling at a time, each
        // copied (about 4,000 instructions a frame).
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        writer.frame(screen, runs: runs, shift: shift, full: full, into: &out)
        if hasPictures || (full && !kittyImages.isEmpty) {
            var touched = Set(runs.map(\.y))
            if let s = shift { touched.formUnion(s.top...s.bottom) }
            let pictures = Self.pictureBytes(
                screen, last: last, full: full, touched: touched, depth: colorDepth, direct: directColor, kitty: &kittyImages,
                through: tmux)
            if !pictures.isEmpty {
                out += pictures
                writer.forget()
            }
        }
        writer.cursor(screen, moved: !out.isEmpty, into: &out)
        if !out.isEmpty { Self.writeAll(out) }
        last = screen
    }

    /// Forgets the last frame, so the next is drawn whole (after a resize or a redraw key).
    public func invalidate() {
        last = nil
        writer.forget()
    }

    public func bell() { beep() }
}
