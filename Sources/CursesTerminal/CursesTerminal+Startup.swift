import Bedrock
import CNcursesw
import FoundationEssentials
import Glibc
import Screen
import Synchronization
import TweetText

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

    /// How long the first frame waits for the answers of a terminal met for the first time:
    /// one near by answers within it, so its first frame is in the right theme. One met before
    /// is drawn at once as it answered then (`TerminalMemory`); over a slow link the answers
    /// are taken as they come, and the screen drawn again if they changed.
    static let startGrace = 0.02

    /// Asks the terminal its background, pictures, cell size and widths (the samples on the
    /// bottom row, which the first frame covers).
    func askAtStart() {
        let env = ProcessEnvironment.values
        let recalled = TerminalMemory.recall(environment: env)
        if let recalled, let measured = TerminalProbe.widthMode(recalled) { widthMode = measured }
        let now = Date().timeIntervalSince1970
        let row = size.height
        Self.writeAll(TerminalProbe.question(row: row))
        widthAsk = ([], row, now)
        startAsk = (now, [], [], recalled)
        guard recalled == nil else { return }
        let until = TerminalBackground.monotonic() + Self.startGrace
        while startAsk != nil {
            let left = until - TerminalBackground.monotonic()
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&p, 1, Int32(left * 1000) + 1) > 0 else { break }
            earlyKeys += keyStream.feed(readInputs(), special: Self.special)
            _ = takeAnswers()
            // A resize meanwhile: the first frame is drawn for the new size.
            if resizedNow { earlyKeys.append(.resize) }
        }
    }

    /// Leaving before the answers came (a quit or a stop in the first round trip): they are
    /// waited for a little and dropped, so the shell does not get them as typed.
    func dropAnswersStillComing() {
        guard var ask = startAsk else { return }
        let until = TerminalBackground.monotonic() + 0.5
        var chunk = [UInt8](repeating: 0, count: 256)
        while !TerminalBackground.daReplyEnded(ask.answers), ask.answers.count < 4096 {
            let left = until - TerminalBackground.monotonic()
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&p, 1, Int32(left * 1000) + 1) > 0 else { break }
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            ask.answers += chunk[..<n]
        }
        startAsk = nil
        tcflush(0, TCIFLUSH)
    }

    /// Acts on the answers read this turn: modes, widths, and the rest of the start question's
    /// (kept whole, as `TerminalProbe` would have read them, for the app and the next start,
    /// once its last, DA1, came; given up after `answerWithin`). True when the next frame must
    /// be laid out and drawn again.
    func takeAnswers() -> Bool {
        var changed = apply(modeReports: keyStream.takeModeReports())
        let asked = widthAsk
        if takeWidthAnswers() { changed = true }
        let answers = keyStream.takeAnswers()
        guard var ask = startAsk else { return changed }
        // The widths asked at start, answered whole (the ask is closed then).
        if let asked, asked.at == ask.at, widthAsk == nil, ask.columns.isEmpty {
            ask.columns = Array(widthColumns.prefix(ClusterKinds.samples.count))
        }
        ask.answers += answers
        startAsk = ask
        let ended = TerminalBackground.daReplyEnded(ask.answers)
        guard ended || Date().timeIntervalSince1970 - ask.at > Self.answerWithin else { return changed }
        let row = asked?.row ?? size.height
        let reply = ask.answers + ask.columns.flatMap { Array("\u{1B}[\(row);\($0)R".utf8) }
        TerminalProbe.settle(reply)
        startReply = reply
        startAsk = nil
        if ended { TerminalMemory.keep(reply, environment: ProcessEnvironment.values) }
        // As last time, or nothing said: the first frame was right, nothing to draw again.
        if reply == ask.recalled || reply.isEmpty { return changed }
        return true
    }

    public func takeStartReply() -> [UInt8]? {
        defer { startReply = nil }
        return startReply
    }

    /// `LINNET_EXIT_AFTER_FIRST_FRAME` (the bench's count of a start's instructions, which
    /// ends at the first frame): the terminal given back and the process ended there.
    static let endAfterFirstFrame = ProcessEnvironment.values["LINNET_EXIT_AFTER_FIRST_FRAME"] != nil

    func endForCount() {
        end()
        _exit(0)
    }

    /// The user's character set, or C.UTF-8's when theirs is not UTF-8: wide characters and
    /// wcwidth need a UTF-8 locale (tweets are UTF-8 whatever LANG says). The character set
    /// alone (LC_CTYPE): the other categories would change how C libraries print numbers and
    /// errors, and loading their eleven files took 0.3 ms of the start.
    public static func useUTF8Locale() {
        setlocale(LC_CTYPE, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).uppercased()
        if codeset != "UTF-8" && codeset != "UTF8" { setlocale(LC_CTYPE, "C.UTF-8") }
    }
}
