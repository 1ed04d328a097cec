import Foundation
import LinnetTestSupport
import Pictures
import Screen
import Synchronization
import Testing

@testable import LinnetCore

/// The terminal's answers to the question at start come when they come (over a slow link,
/// after the first frame): the theme `auto` chose follows the background they say, pictures
/// left to the terminal follow what it says it draws; a theme chosen meanwhile stays.
@MainActor @Suite(.serialized) struct StartAnswerTests {
    static let light = Array("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c".utf8)

    func run(_ script: [[Key]], auto: Bool) async throws -> (App, MemoryTerminal, [[UInt8]]) {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let asked = Mutex<[[UInt8]]>([])
        var terminal: MemoryTerminal!
        terminal = MemoryTerminal(width: 100, height: 12, script: script) { turn in
            if turn == 2 { terminal.startReply = Self.light }
        }
        terminal.colorDepth = .full
        let (app, _) = try await AppLoopTests.app(terminal, cacheDir: dir) { s in
            s.themeAuto = auto
            s.backgroundIsLight = { reply in String(decoding: reply, as: UTF8.self).contains("11;rgb:ffff") ? true : nil }
            s.picturesAnswered = { reply in
                asked.withLock { $0.append(reply) }
                let fetcher = MediaFetcher(http: MediaFetcher.client(), cache: nil, apiBase: nil)
                return PictureSetup(mode: .kitty, colors: .truecolor, cell: (10, 20), fetcher: fetcher)
            }
        }
        await app.run()
        return (app, terminal, asked.withLock { $0 })
    }

    @Test func theAutoThemeFollowsALateAnswer() async throws {
        let (app, terminal, asked) = try await run([[], [], [], []], auto: true)
        #expect(app.settings.theme.name == "light" && app.state.themeName == "light")
        #expect(app.settings.pictures?.mode == .kitty)
        #expect(asked == [Self.light])
        // Pictures made for the guess (none here: symbols) are made again for kitty.
        #expect(app.pictureGeneration == 1)
        // Drawn first in the guess (dark), then again in the answer's theme: the tab bar's
        // colours are light's.
        let first = try #require(terminal.frames.first)
        let last = try #require(terminal.frames.last)
        let dark = try Theme.load("dark").adapted(to: .full)
        let light = try Theme.load("light").adapted(to: .full)
        let line = first.line(0)
        let x = try #require(line.firstRange(of: "Mentions")).lowerBound.utf16Offset(in: line)
        #expect(first[x, 0].style == dark[.tabInactive] && last[x, 0].style == light[.tabInactive])
        #expect(dark[.tabInactive] != light[.tabInactive])
    }

    @Test func aThemeChosenBeforeTheAnswerStays() async throws {
        // T (next theme: light) then T again (dark), before the answer says light.
        let (app, _, _) = try await run([[], [.char("T"), .char("T")], [], []], auto: true)
        #expect(app.settings.theme.name == "dark")
    }

    @Test func aNamedThemeStays() async throws {
        let (app, _, asked) = try await run([[], [], [], []], auto: false)
        #expect(app.settings.theme.name == "dark" && app.settings.pictures?.mode == .kitty && asked.count == 1)
    }
}
