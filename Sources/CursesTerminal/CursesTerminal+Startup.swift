import CNcursesw
import FoundationEssentials
import Glibc
import Screen
import Synchronization

/// What is set up once at start: the locale, and the question to the terminal.
extension CursesTerminal {
    /// A flag signal handlers set and the main thread reads.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
        /// Whether it was set, clearing it.
        func take() -> Bool { value.exchange(false, ordering: .acquiringAndReleasing) }
    }

    /// How long the first frame waits for the answers: a terminal near by answers within it,
    /// so its first frame is in the right theme; over a slow link the answers are taken as
    /// they come, and the screen drawn again.
    static let startGrace = 0.02

    /// Asks the terminal its background, pictures, cell size and widths (the samples on the
    /// bottom row, which the first frame covers), waiting at most `startGrace`.
    func askAtStart() {
        let now = Date().timeIntervalSince1970
        let row = size.height
        Self.writeAll(TerminalProbe.question(row: row))
        widthAsk = ([], row, now)
        startAsk = (now, [])
        let until = TerminalBackground.monotonic() + Self.startGrace
        while startAsk != nil {
            let left = until - TerminalBackground.monotonic()
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&p, 1, Int32(left * 1000) + 1) > 0 else { break }
            earlyKeys += keyStream.feed(readInputs(), special: Self.special)
            _ = takeAnswers()
        }
    }

    /// Acts on the answers read this turn: modes, widths, and the rest of the start question's
    /// (kept whole for the app once its last, DA1, came; given up after `answerWithin`). True
    /// when the next frame must be laid out and drawn again.
    func takeAnswers() -> Bool {
        var changed = apply(modeReports: keyStream.takeModeReports())
        if takeWidthAnswers() { changed = true }
        let answers = keyStream.takeAnswers()
        guard var ask = startAsk else { return changed }
        ask.answers += answers
        startAsk = ask
        if TerminalBackground.daReplyEnded(ask.answers) || Date().timeIntervalSince1970 - ask.at > Self.answerWithin {
            TerminalProbe.settle(ask.answers)
            startReply = ask.answers
            startAsk = nil
            changed = true
        }
        return changed
    }

    public func takeStartReply() -> [UInt8]? {
        defer { startReply = nil }
        return startReply
    }

    /// The user's locale, or C.UTF-8 when theirs is not UTF-8: wide characters and wcwidth
    /// need a UTF-8 locale (tweets are UTF-8 whatever LANG says).
    public static func useUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).uppercased()
        if codeset != "UTF-8" && codeset != "UTF8" { setlocale(LC_ALL, "C.UTF-8") }
    }
}
