import Bedrock
import CNcursesw
import Dispatch
import FoundationEssentials
import Glibc
import Screen
import Synchronization
import TweetText

/// Keys, pastes, mouse reports and the terminal's answers, read from standard input.
extension CursesTerminal {
    /// From the kernel's window size, read again at each resize (a font zoom changes it).
    public var cellPixels: (width: Int, height: Int)? { TerminalProbe.cellPixels() }
    /// A paste still open is let go 5 s after its last input: the loop must come back for it.
    /// A cursor report's start held is let go when it is no longer awaited (`reportStartHeld`).
    public var wakeWithin: Double? {
        if keyStream.isPasting { return max(0.05, lastInputAt + 5.05 - Date().timeIntervalSince1970) }
        if reportStartHeld() || startAsk != nil { return 0.1 }
        return nil
    }

    /// Whether what is held may still become a cursor report that is awaited: `ESC [` and
    /// digits until the answers are due, a lone Escape half a second after it came.
    func reportStartHeld() -> Bool {
        // The widths asked again, or the question at start (whose other answers come after
        // the widths'): the later one's time.
        guard let at = [widthAsk?.at, startAsk?.at].compactMap({ $0 }).max(), keyStream.holdsReportStart else { return false }
        let now = Date().timeIntervalSince1970
        return now - at < Self.answerWithin && (!keyStream.holdsLoneEscape || now - lastInputAt < 0.5)
    }

    public func readKeys(timeout: Double) -> [Key] {
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: waker.readFD, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, Int32(max(0, timeout * 1000)))
        // Read only when woken: a key alone costs no read of the pipe.
        if fds[1].revents != 0 { _ = waker.drain() }
        // A closed terminal reads as ready for ever: without this the loop would spin.
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            closed.set()
            return []
        }
        resizedNow = false
        let inputs = readInputs()
        if !inputs.isEmpty { lastInputAt = Date().timeIntervalSince1970 }
        var keys = earlyKeys + keyStream.feed(inputs, special: Self.special)
        earlyKeys = []
        if takeAnswers() { keys.append(.resize) }
        // The start of a sequence, or a lone Escape: wait briefly for the rest before taking
        // it as typed (an Escape key, or Alt).
        if keyStream.isPending {
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(escapeDelay * 1000)) > 0 {
                keys += keyStream.feed(readInputs(), special: Self.special)
                lastInputAt = Date().timeIntervalSince1970
                if takeAnswers() { keys.append(.resize) }
            }
            // A cursor report awaited may arrive in pieces over a slow link: its start is held,
            // a lone Escape only briefly (a report's pieces come close together).
            if keyStream.isPending, !keyStreamIsPasting() {
                if reportStartHeld() { keyStream.escapeWaitedOut() } else { keys += keyStream.flush() }
            }
        }
        // A paste arriving over several reads goes in as it comes, and stays a paste until its
        // end marker: its line ends are never taken for Enter. Only after 5 s with nothing more
        // (a terminal that never ends it) are keys keys again.
        if keyStream.isPasting {
            if let part = keyStream.takePartialPaste() { keys.append(part) }
            if Date().timeIntervalSince1970 - lastInputAt > 5 { keys += keyStream.flush() }
        }
        // Continued after a stop: the screen may hold anything; a resize-like key makes the
        // loop draw the next frame whole.
        if repaint.take() {
            freeKittyImages()
            keys.append(.resize)
        }
        // A resize may come from another terminal (dtach or abduco attached from another
        // emulator): its widths are asked again, the answers read as they come.
        if resizedNow {
            keys.append(.resize)
            askWidthsAgain()
            if tmux != nil { tmux = TmuxPassthrough.ask(environment: ProcessEnvironment.values) ?? tmux }
        }
        // A resize, a focus regained or a continue: the next frame is drawn whole.
        if keys.contains(.resize) || keys.contains(.focus(true)) { invalidate() }
        return keys
    }

    /// Seconds the answers to the widths asked again are waited for (a slow link's round trip
    /// many times over); a report's start is held that long.
    static let answerWithin = 5.0

    /// The width samples written again on the bottom row (the next frame is drawn whole over
    /// it), unless the terminal measures clusters itself (mode 2027) or an ask is still open.
    func askWidthsAgain() {
        let now = Date().timeIntervalSince1970
        guard widthMode != .grapheme, !keyStream.isPasting, isatty(0) == 1, isatty(1) == 1, size.height > 1 else { return }
        if let ask = widthAsk, now - ask.at < Self.answerWithin { return }
        Self.writeAll(Array(TerminalProbe.widthQuestion(row: size.height).utf8))
        widthAsk = ([], size.height, now)
    }

    /// Cursor reports answering `askWidthsAgain`: once each sample is answered, the widths
    /// change if the terminal now measures otherwise (true: lay out and draw again).
    func takeWidthAnswers() -> Bool {
        let reports = keyStream.takeCursorReports()
        guard var ask = widthAsk, !reports.isEmpty else { return false }
        // Only the answers on the row asked (a late one to an earlier question may be elsewhere).
        ask.columns += reports.filter { $0.row == ask.row }.map(\.column)
        guard ask.columns.count >= ClusterKinds.samples.count else {
            widthAsk = ask
            return false
        }
        widthAsk = nil
        widthColumns = Array(ask.columns.prefix(ClusterKinds.samples.count))
        guard let changed = TerminalProbe.remeasured(widthColumns, current: widthMode)
        else { return false }
        widthMode = changed
        return true
    }

    /// What ncurses has read, up to a turn's worth.
    func readInputs() -> [TerminalInput] {
        var inputs: [TerminalInput] = []
        wtimeout(cn_stdscr(), 0)
        while inputs.count < KeyStream.maxPerTurn {
            var wch: wint_t = 0
            let r = wget_wch(cn_stdscr(), &wch)
            if r == ERR { break }
            if r == KEY_CODE_YES {
                // A resize is not input: fed to the decoder it would end a sequence held (a
                // cursor report's start, split by a slow link) as typed keys.
                if Int32(wch) == KEY_RESIZE {
                    // The next frame draws the new size whole; the resized window is not
                    // refreshed on its own by the next read.
                    untouchwin(cn_stdscr())
                    invalidate()
                    resizedNow = true
                    continue
                }
                inputs.append(.code(Int32(wch)))
            } else {
                inputs.append(.char(UInt32(wch)))
            }
        }
        return inputs
    }

    /// A paste still arriving waits for its end marker over as many turns as it takes.
    private func keyStreamIsPasting() -> Bool { keyStream.isPasting }

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
