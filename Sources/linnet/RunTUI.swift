import ArgumentParser
import Bedrock
import CursesTerminal
import FoundationEssentials
import LinnetCore
import Pictures
import Screen
import Timeline
import TwitterAPI
import TwitterSimulator

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal taken over for the reader. It is asked as curses starts (background,
/// pictures, widths), and its answers are taken when they come: over a slow link the first
/// frame does not wait a round trip.
@MainActor
func openTerminal(_ config: Config) -> sending CursesTerminal {
    CursesTerminal(noColor: noColorAsked(), mouse: config.mouse)
}

func noColorAsked() -> Bool { ProcessEnvironment.values["NO_COLOR"].map { !$0.isEmpty } ?? false }

/// Starts curses, runs the app until it quits, and restores the terminal.
@MainActor
func runTUI(terminal: CursesTerminal, store: TimelineStore, engine: SyncEngine, settings: App.Settings, notice: String?, config: Config)
    async
{
    var settings = settings
    let noColor = noColorAsked()
    let tmux = config.images == "off" ? nil : TmuxPassthrough.ask(environment: ProcessEnvironment.values)
    settings.thumbnails = config.thumbnails
    // Over ssh a move under a band writes both cards' text again (about 1,200 bytes at 160x50).
    settings.selectionBand = config.selectionBandShown(remote: settings.remoteSession)
    let depth = terminal.colorDepth
    let pictures: @Sendable ([UInt8]) -> PictureSetup? = { reply in
        var setup = pictureSetup(config, engine: engine, noColor: noColor, tmux: tmux, reply: reply)
        if let p = setup, p.colors != .none, depth < .full { setup?.colors = depth == .none ? .none : .indexed16 }
        return setup
    }
    // As this terminal answered at start, or last time (the answers may not have come yet).
    settings.pictures = pictures(TerminalProbe.asked ?? TerminalMemory.recall(environment: ProcessEnvironment.values) ?? [])
    if config.images == "auto" { settings.picturesAnswered = pictures }
    // Wrapped for the outer terminal only when it was chosen for it (tmux 3.4 may draw sixel itself).
    let outer = config.images == "auto" ? tmux?.pictureMode != nil : true
    if settings.pictures?.mode.isGraphic == true, outer { terminal.tmux = tmux }
    terminal.escapeDelay = Double(config.escapeDelayMilliseconds) / 1000
    terminal.hyperlinks = config.hyperlinks ?? CursesTerminal.hyperlinksKnown(ProcessEnvironment.values)
    let waker = terminal.waker
    let app = App(terminal: terminal, store: store, engine: engine, settings: settings, wake: { waker.wake() })
    // LINNET_TICK_SECONDS (tests): the longest sleep; a long one shows that a resize wakes the loop by itself.
    let tick = ProcessEnvironment.values["LINNET_TICK_SECONDS"].flatMap(Double.init).map { max(0.05, $0) } ?? 60
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

/// Pictures as config.toml's `images` says: as the terminal's `reply` says it draws them (`auto`), a
/// protocol named, or none (`off`); inside tmux through it where the pane allows (`tmux`). Files are kept in `$XDG_CACHE_HOME/linnet/media/`.
func pictureSetup(_ config: Config, engine: SyncEngine, noColor: Bool, tmux: TmuxPassthrough?, reply: [UInt8]) -> PictureSetup? {
    let env = ProcessEnvironment.values
    var name = config.images
    if name == "off" { return nil }
    if name == "auto" {
        name = TerminalProbe.pictureMode(reply: reply, environment: env, tmux: tmux)
    } else if env["TMUX"] != nil, name != "symbols" {
        // A protocol named inside tmux goes through only where the pane allows it; an iTerm2
        // image is one sequence larger than tmux passes.
        if tmux == nil || name == "iterm" { name = "symbols" }
    }
    guard var mode = PictureMode(rawValue: name) else { return nil }
    // Sixel pictures are drawn at their pixel size: not knowing the cell's, blocks are safer.
    let cell = TerminalProbe.cellPixels(reply: reply)
    if mode == .sixel, cell == nil { mode = .symbols }
    let folder = TimelineCache.defaultDirectory(account: "media").deletingLastPathComponent().appendingPathComponent("media")
    let base = engine.client.endpoints.apiBase
    // A simulator on loopback (the demo) makes its files afresh each run: nothing is kept; its
    // stand-in media host is served from there, and from nowhere else.
    let loopback = ["http://127.", "http://localhost", "http://[::1]"].contains { base.hasPrefix($0) }
    let fetcher = MediaFetcher(
        http: MediaFetcher.client(caFile: engine.client.http.options.caFile),
        cache: loopback ? nil : MediaCache(folder: folder, limitBytes: config.mediaCacheMegabytes << 20),
        apiBase: loopback ? base : nil)
    let colors: PictureColors = noColor ? .none : ["truecolor", "24bit"].contains(env["COLORTERM"] ?? "") ? .truecolor : .indexed256
    return PictureSetup(mode: mode, colors: colors, cell: cell, fetcher: fetcher)
}
