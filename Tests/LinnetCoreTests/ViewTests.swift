import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TweetText
import TwitterAPI

/// Views rendered to a `Screen` and compared with golden text files (LINNET_RECORD=1 re-records).
@Suite struct ViewTests {
    static let sizes = [(80, 24), (120, 40)]

    func check(_ screen: Screen, _ name: String) {
        if let problem = Golden.check(screen.text, name) { Issue.record(Comment(rawValue: problem)) }
    }

    func scene(_ w: Int, _ h: Int, statuses: [TimelineID: SyncStatus] = [:]) async -> (AppState, Context) {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot(), statuses: statuses)
        var s = Scene.state(w, h)
        _ = Reducer.reduce(&s, .storeChanged, c)
        return (s, c)
    }

    @Test(arguments: sizes) func homeWithWideCharacters(_ size: (Int, Int)) async {
        let (s, c) = await scene(size.0, size.1)
        let screen = Views.render(s, c)
        check(screen, "home-\(size.0)x\(size.1)")
        // Network text never reaches the screen with its escape sequences.
        #expect(!screen.text.contains("\u{1B}"))
        #expect(screen.text.contains("Zoë Red @zoe"))
    }

    @Test(arguments: sizes) func composeWithANegativeCount(_ size: (Int, Int)) async {
        var (s, c) = await scene(size.0, size.1)
        let text = "Over the limit with a link https://example.com and 漢字 and 🐦 " + String(repeating: "word ", count: 50)
        _ = Scene.run(&s, c, [.keys([.char("r")]), Scene.keys(text)])
        let screen = Views.render(s, c)
        check(screen, "compose-over-\(size.0)x\(size.1)")
        let remaining = TweetLength(s.compose!.editor.text).remaining()
        #expect(remaining < 0)
        #expect(screen.text.contains(" \(remaining) "))
        // The part past the limit is marked, the part within is not.
        let over = Theme.fallback[.overLimit]
        let cells = screen.cells.filter { $0.style.bg == over.bg && screen.grapheme(of: $0) != " " }
        #expect(!cells.isEmpty)
        #expect(screen.cursor != nil)
    }

    @Test(arguments: sizes) func searchStates(_ size: (Int, Int)) async {
        let q = TimelineID.search("linnet")
        var loading = SyncStatus()
        loading.state = .loading
        var none = SyncStatus()
        none.state = .streaming
        var refused = SyncStatus()
        refused.state = .offline(retry: Scene.now + 30, reason: "Your credentials do not allow access to this resource.")
        refused.refused = true
        refused.lastError = "HTTP 403 (code 220): Your credentials do not allow access to this resource."
        refused.lastErrorAt = Scene.now - 1
        var limited = SyncStatus()
        limited.state = .rateLimited(until: Scene.now + 42)
        var failed = SyncStatus()
        failed.state = .offline(retry: Scene.now + 5, reason: "could not connect to 127.0.0.1: connection refused")
        failed.lastError = "could not connect to 127.0.0.1: connection refused"
        failed.lastErrorAt = Scene.now - 1
        let expected = [
            ("loading", loading, "Loading tweets matching “linnet”…"),
            ("no-results", none, "No tweets matching “linnet” yet."),
            ("refused", refused, "Refused: Your credentials do not allow access"),
            // Scene.now + 42 s is 11:07:42 UTC (date -u -d @1795000062).
            ("rate-limited", limited, "Refused: rate limited. Linnet will try again at 11:07:42."),
            ("failed", failed, "Could not load tweets matching “linnet”: could not connect"),
        ]
        for (name, status, words) in expected {
            var (s, c) = await scene(size.0, size.1, statuses: [q: status])
            _ = Scene.run(&s, c, [.keys([.char("/")]), Scene.keys("linnet"), .keys([.enter])])
            let screen = Views.render(s, c)
            check(screen, "search-\(name)-\(size.0)x\(size.1)")
            #expect(screen.text.replacingOccurrences(of: "\n  ", with: " ").contains(words), "\(name): \(screen.text)")
        }
    }

    @Test(arguments: sizes) func help(_ size: (Int, Int)) async {
        var (s, c) = await scene(size.0, size.1)
        _ = Scene.run(&s, c, [.keys([.char("?")])])
        let screen = Views.render(s, c)
        check(screen, "help-\(size.0)x\(size.1)")
        #expect(screen.text.contains("? or esc to close)"))
        #expect(screen.text.contains("j, down"))
    }

    @Test(arguments: [(20, 5), (39, 24), (80, 9)]) func tooSmall(_ size: (Int, Int)) async {
        let (s, c) = await scene(size.0, size.1)
        let screen = Views.render(s, c)
        check(screen, "too-small-\(size.0)x\(size.1)")
        #expect(
            screen.text.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(
                "Linnet needs at least 40×10; this terminal is \(size.0)×\(size.1)."))
    }

    @Test func monochromeUsesAttributesOnly() async throws {
        let mono = try Theme.load("mono", environment: ["LINNET_THEMES": ThemeFolder.path, "HOME": "/nonexistent"])
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(80, 24)
        _ = Reducer.reduce(&s, .storeChanged, c)
        let screen = Views.render(s, c, theme: mono)
        #expect(screen.cells.allSatisfy { $0.style.fg == .default && $0.style.bg == .default })
        #expect(screen.cells.contains { $0.style.attributes.contains(.reverse) })
    }
}

enum ThemeFolder {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Themes").standardized.path
}

/// Scrolling asks for card heights without a theme; they must match what any theme draws.
@Suite struct CardHeightTests {
    @Test func heightsDoNotDependOnTheTheme() throws {
        let light = try Theme.load("light")
        for width in [24, 60, 100] {
            for t in Scene.homeTweets {
                let h = TweetCard.height(t, width: width, now: Scene.now)
                #expect(h == TweetCard.lines(t, width: width, theme: light, now: Scene.now).count)
                #expect(h == TweetCard.lines(t, width: width, theme: .fallback, now: Scene.now).count)
            }
        }
    }
}

/// The hints on the screen name the keys as they are bound, also after config.toml rebinds them.
@Suite struct KeyHintTests {
    @Test func hintsFollowTheKeyMap() async throws {
        var keys = KeyMap.standard
        try keys.override(mode: .timeline, [(keys: "?", command: "none"), (keys: "f1", command: "help")])
        try keys.override(mode: .confirm, [(keys: "y", command: "none"), (keys: "j", command: "yes")])
        let snapshot = await Scene.store().snapshot()
        var c = Scene.context(snapshot)
        c.keyMap = keys
        var s = Scene.state(80, 24)
        _ = Reducer.reduce(&s, .storeChanged, c)
        let plain = Views.render(s, c).text
        #expect(plain.contains("f1 help") && !plain.contains("? help"))
        s.question = .quitWithDraft
        #expect(Views.render(s, c).text.contains("(j/n)"))
        s.question = nil
        s.showHelp = true
        #expect(Views.render(s, c).text.contains("? or esc to close)"))
    }
}
