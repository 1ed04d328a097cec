import ArgumentParser
import CursesTerminal
import FoundationEssentials
import LinnetCore
import Screen
import Timeline
import TwitterAPI
import TwitterSimulator

#if canImport(Glibc)
    import Glibc
#endif

/// Starts curses, runs the app until it quits, and restores the terminal.
@MainActor
func runTUI(store: TimelineStore, engine: SyncEngine, settings: App.Settings, notice: String?, config: Config) async {
    let terminal = CursesTerminal(
        noColor: ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false, mouse: config.mouse)
    terminal.escapeDelay = Double(config.escapeDelayMilliseconds) / 1000
    terminal.hyperlinks = config.hyperlinks ?? CursesTerminal.hyperlinksKnown(ProcessInfo.processInfo.environment)
    let waker = terminal.waker
    let app = App(terminal: terminal, store: store, engine: engine, settings: settings, wake: { waker.wake() })
    // LINNET_TICK_SECONDS (tests): a long tick shows that a resize wakes the loop by itself.
    let tick = ProcessInfo.processInfo.environment["LINNET_TICK_SECONDS"].flatMap(Double.init).map { max(0.05, $0) } ?? 1.0
    await app.run(startupNotice: notice, tick: tick)
    terminal.end()
}

/// Posts a v2 page asks for: what a screen of this terminal shows (a card takes two rows or
/// more), at least 10 (recent search's least) and at most 100.
func v2PageSize() -> Int {
    var ws = winsize()
    let rows = ioctl(1, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_row > 0 ? Int(ws.ws_row) : 24
    return max(10, min(100, rows))
}
