import Foundation
import LinnetTestSupport
import Locking
import Pictures
import Screen
import Testing
import Timeline
import TwitterAPI

@testable import LinnetCore

/// The app loop itself, driven with the in-memory terminal and no sleeps: the first frame from
/// the cache, a key, the effect it asks for, its result, and the notice that says so.
@MainActor @Suite(.serialized) struct AppLoopTests {
    static func scratch() -> URL {
        let u = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linnet-app-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return u
    }

    /// An app over a fresh store, an offline engine (nothing listens on port 9) and a cache
    /// written from the scene's tweets.
    static func app(
        _ terminal: MemoryTerminal, cacheDir: URL, clock: ManualClock = ManualClock(), drafts: DraftStore? = nil,
        tweak: (inout App.Settings) -> Void = { _ in }
    ) async throws -> (App, TimelineStore) {
        let cache = TimelineCache(directory: cacheDir)
        try cache.save(await Scene.store().snapshot())
        let store = TimelineStore()
        let client = TwitterClient(
            endpoints: .single("http://127.0.0.1:9"),
            auth: .user(OAuthCredentials(consumerKey: "k", consumerSecret: "s", token: "1-t", tokenSecret: "x")))
        var options = SyncOptions()
        options.clock = clock
        let engine = SyncEngine(client: client, store: store, account: Scene.me, options: options)
        var settings = App.Settings()
        settings.cache = cache
        settings.themes = ["dark", "light"]
        settings.clock = clock
        settings.drafts = drafts
        tweak(&settings)
        return (App(terminal: terminal, store: store, engine: engine, settings: settings, wake: {}), store)
    }

    @Test func fromCacheToKeyToEffectToNotice() async throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A short screen, so G scrolls: the anchor (the top tweet) moves down, and g g brings
        // it back; the two effects must reach the store in that order.
        let terminal = MemoryTerminal(width: 100, height: 12, script: [[], [.char("G")], [.char("g"), .char("g")], [.char("T")], []])
        let (app, store) = try await Self.app(terminal, cacheDir: dir)
        await app.run()
        let frames = terminal.frames.map(\.text)
        // The first frame already shows the cached tweets, before any network answer.
        #expect(frames.first?.contains("Reading #swift tips") == true, "\(frames.first ?? "no frame")")
        #expect(frames.contains { !$0.contains("Reading #swift tips") }, "G did not scroll")
        #expect(await store.view(.home).anchor == TweetID(110))
        // The theme key's effect loaded a theme and its result came back as a notice (the
        // status bar may show the offline engine's reason over it, so the state is asked).
        #expect(app.state.notice?.text == "Theme: light")
        #expect(app.state.themeName == "light")
        // Quitting (the script ran out, like a closed terminal) saved the cache again.
        if case .loaded(let saved) = TimelineCache(directory: dir).load() {
            #expect(saved.timelines[.home]?.anchor == TweetID(110))
        } else {
            Issue.record("the cache was not saved on the way out")
        }
    }
}

extension AppLoopTests {
    /// The head is drawn first; a rest that cannot be read afterwards is reported in words and
    /// the head's tweets stay.
    @Test func aDamagedRestAfterTheHeadIsReportedAndTheHeadStays() async throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = MemoryTerminal(width: 100, height: 12, script: [[], []])
        let (app, store) = try await Self.app(terminal, cacheDir: dir)
        let file = TimelineCache(directory: dir).fileURL
        var bytes = [UInt8](try Data(contentsOf: file))
        // The rest starts after the head: its length (one byte here), then its body.
        let headEnd = try #require(TimelineCache.headEnd(bytes))
        bytes[headEnd + 1] ^= 0x40
        try Data(bytes).write(to: file)
        await app.run()
        #expect(terminal.frames.first?.text.contains("Reading #swift tips") == true)
        #expect(terminal.frames.contains { $0.text.contains("Cache: the timeline cache") }, "\(terminal.frames.map(\.text))")
        #expect(await store.snapshot().tweets(in: .home).contains { $0.text.contains("Reading #swift tips") })
    }
}

extension AppLoopTests {
    /// Time in the loop comes from its clock: a draft reaches the disk at once, then at most
    /// every 2 s while typing; a notice goes after its lifetime. The clock moves only here.
    @Test func autosaveAndNoticesFollowTheClock() async throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clock = ManualClock()
        let drafts = DraftStore(directory: dir)
        var saved: [Int: [String]] = [:]
        var shown: [Int: String] = [:]
        let script: [[Key]] = [[], [.char("T")], [.char("n")], [.char("h"), .char("i")], [.char("!")], [], [], []]
        var frames: () -> String = { "" }
        let terminal = MemoryTerminal(width: 100, height: 20, script: script) { turn in
            // Before each turn: what the disk holds and what the screen said after the last one.
            saved[turn] = drafts.load().map(\.text)
            shown[turn] = frames()
            switch turn {
            case 5: clock.advance(by: 2)
            case 6: clock.advance(by: Reducer.noticeLifetime)
            default: break
            }
        }
        frames = { terminal.lastText }
        let (app, _) = try await Self.app(terminal, cacheDir: dir, clock: clock, drafts: drafts)
        await app.run()
        // "hi" was saved as soon as it was typed; "!" a moment later was not, until 2 s passed.
        #expect(saved[4] == ["hi"])
        #expect(saved[5] == ["hi"])
        #expect(saved[6] == ["hi!"])
        // The theme notice stayed while the clock stood still and left after its lifetime.
        #expect(shown[5]?.contains("Theme: light") == true, "\(shown[5] ?? "")")
        #expect(shown[7]?.contains("Theme: light") == false, "\(shown[7] ?? "")")
        #expect(app.state.now == clock.now())
    }
}

@Suite struct EffectQueueTests {
    actor Log {
        var seen: [Int] = []
        func add(_ i: Int) { seen.append(i) }
    }

    /// Jobs added in a burst run in the order they were added, each after the one before.
    @Test func jobsRunInTheOrderGiven() async {
        let queue = EffectQueue()
        let log = Log()
        for i in 0..<2000 {
            queue.add {
                if i % 7 == 0 { await Task.yield() }
                await log.add(i)
            }
        }
        await queue.drain()
        #expect(await log.seen == Array(0..<2000))
    }

    /// Jobs added while the queue is held wait for `release()` (a turn's effects start after
    /// its frame), then run after those added before, in order; `drain` releases them too.
    @Test func heldJobsWaitForTheRelease() async {
        let queue = EffectQueue()
        let log = Log()
        // The first job runs while the others are held: it waits for its turn to be seen.
        let (started, go) = AsyncStream<Void>.makeStream()
        queue.add {
            await log.add(0)
            go.yield()
        }
        queue.hold()
        for i in 1...3 { queue.add { await log.add(i) } }
        for await _ in started { break }
        // Time for the worker to take anything it was given (it was given nothing more).
        for _ in 0..<50 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(20))
        #expect(await log.seen == [0])
        queue.release()
        queue.add { await log.add(4) }
        queue.hold()
        queue.add { await log.add(5) }
        await queue.drain()
        #expect(await log.seen == [0, 1, 2, 3, 4, 5])
    }
}

/// A turn's effects (here the place its keys scroll to, kept by the store) start once its
/// frame is presented: the worker's thread is not woken while the frame is being made.
@MainActor @Suite struct EffectsAfterTheFrameTests {
    @Test func theQueueIsHeldWhileTheFrameIsMade() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script: [[Key]] = [[]] + Array(repeating: [.char("j")], count: 12) + [[]]
        // Whether the queue is held as each turn begins (released by the turn before) and as
        // each frame is presented.
        var made: App?
        var atTurns: [Bool] = []
        let terminal = MemoryTerminal(width: 100, height: 16, script: script) { _ in
            MainActor.assumeIsolated { if let made { atTurns.append(made.effects.isHeld) } }
        }
        let (app, store) = try await AppLoopTests.app(terminal, cacheDir: dir)
        made = app
        var atFrames: [Bool] = []
        terminal.onPresent = { _ in MainActor.assumeIsolated { atFrames.append(app.effects.isHeld) } }
        await app.run()
        terminal.onPresent = nil
        #expect(atFrames.count >= 5 && atFrames.allSatisfy { $0 }, "\(atFrames)")
        #expect(atTurns.count >= 10 && !atTurns.contains(true), "\(atTurns)")
        // The keys scrolled, and the place they reached was kept.
        let top = try #require(app.state.pane.top)
        let first = await Scene.store().snapshot().timelines[.home]?.ids.first
        #expect(top != first)
        #expect(await store.snapshot().timelines[.home]?.anchor == top)
    }
}

/// ctrl-l draws the whole screen again and ctrl-z suspends, in every mode; a draft is saved
/// before the process stops.
@MainActor @Suite struct RedrawAndSuspendTests {
    @Test func theKeysReachTheTerminal() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let drafts = DraftStore(directory: dir.appendingPathComponent("state"))
        let script: [[Key]] = [[], [.ctrl("l")], [.char("n"), .char("h"), .char("i")], [.ctrl("l")], [.ctrl("z")], [.escape], []]
        let terminal = MemoryTerminal(width: 100, height: 20, script: script)
        let (app, _) = try await AppLoopTests.app(terminal, cacheDir: dir, drafts: drafts)
        await app.run()
        #expect(terminal.invalidations == 2, "ctrl-l on the timeline and in the compose box")
        #expect(terminal.stops == 1)
        #expect(drafts.read().drafts.first?.text == "hi", "the draft was saved before stopping")
        #expect(app.state.compose == nil && !app.state.drafts.isEmpty)
    }

    @Test func bothAreInTheHelp() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(120, 40)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [.keys([.char("?")])])
        let text = Views.render(s, c).text
        #expect(text.contains("redraw the screen") && text.contains("suspend (fg to come back)"), "\(text)")
    }
}

/// The next start returns to the pane the reader quit on, opening it again if it was a search.
@MainActor @Suite struct SessionTests {
    @Test func restartReturnsToThePaneQuitOn() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let drafts = DraftStore(directory: dir.appendingPathComponent("state"))
        let first = MemoryTerminal(
            width: 100, height: 20, script: [[], [.char("/")], "linnet".map { Key.char($0) }, [.enter], [], [.char("q")]])
        let (app, _) = try await AppLoopTests.app(first, cacheDir: dir, drafts: drafts)
        await app.run()
        #expect(app.state.pane.id == .search("linnet"))
        let second = MemoryTerminal(width: 100, height: 20, script: [[], []])
        let (again, _) = try await AppLoopTests.app(second, cacheDir: dir, drafts: drafts)
        await again.run()
        #expect(again.state.pane.id == .search("linnet"), "\(again.state.panes.map(\.id))")
        #expect(again.state.panes.map(\.id) == [.home, .mentions, .search("linnet")])
    }
}

/// Opt-in desktop notifications: a new mention raises one, with its author and text.
@MainActor @Suite struct NotificationTests {
    @Test func aNewMentionIsNotified() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mention = Scene.tweet(140, Scene.kenji, "@linnet_demo a question \u{1B}[31mfor you", age: 1)
        let holder = Locked<TimelineStore?>(nil)
        let terminal = MemoryTerminal(width: 100, height: 20, script: [[], [], [], []]) { turn in
            guard turn == 1, let store = holder.withLock({ $0 }) else { return }
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                await store.add(mention, to: [.mentions])
                done.signal()
            }
            done.wait()
        }
        let (app, store) = try await AppLoopTests.app(terminal, cacheDir: dir) { $0.desktopNotifications = true }
        holder.withLock { $0 = store }
        await app.run()
        #expect(terminal.notifications.count == 1, "\(terminal.notifications)")
        #expect(terminal.notifications.first?.title == "Linnet: @kenji mentioned you")
        #expect(
            terminal.notifications.first?.body.contains("a question") == true
                && terminal.notifications.first?.body.contains("\u{1B}") == false)
    }

    @Test func theBytesCarryNoControls() {
        #expect(Config().desktopNotifications == false)
        #expect((try? Config.parse("desktop_notifications = true\n", file: "c.toml").desktopNotifications) == true)
    }
}

extension AppLoopTests {
    /// A font zoom changes a cell's pixels and sends a resize: pictures are made again for the
    /// new cell (a sixel one drawn for the old would be the wrong size).
    @Test func aResizeReadsTheCellSizeAgain() async throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = MemoryTerminal(width: 100, height: 30, script: [[], [.resize], []])
        terminal.cellPixels = (12, 24)
        let fetcher = MediaFetcher(http: MediaFetcher.client(), cache: nil, apiBase: nil)
        let (app, _) = try await Self.app(terminal, cacheDir: dir) {
            $0.pictures = PictureSetup(mode: .sixel, colors: .truecolor, cell: (10, 20), fetcher: fetcher)
        }
        await app.step(timeout: 0)
        #expect(app.settings.pictures?.cellWidth == 10, "read before a resize")
        await app.step(timeout: 0)
        #expect(app.settings.pictures?.cellWidth == 12 && app.settings.pictures?.cellHeight == 24)
    }
}
