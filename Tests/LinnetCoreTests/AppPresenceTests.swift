import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

/// The terminal's focus reports (mode 1004) and the keys tell the engine whether anyone reads,
/// and which pane is on screen; a focus report is never taken for a key.
extension AppLoopTests {
    @Test func focusAndPaneReachTheEngine() async throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = MemoryTerminal(width: 100, height: 20, script: [[], [.focus(false)], [], [.focus(true)], [.char("2")], [], []])
        let (app, _) = try await Self.app(terminal, cacheDir: dir)
        var seen: [(Bool, TimelineID?)] = []
        for _ in 0..<7 {
            await app.step(timeout: 0)
            try? await Task.sleep(nanoseconds: 20_000_000)
            let p = await app.engine.presence
            seen.append((p.away, p.showing))
        }
        #expect(seen[0] == (false, .home))
        #expect(seen[1].0 && seen[2].0, "focus out: away")
        #expect(!seen[3].0, "focus back: present")
        #expect(seen[5] == (false, .mentions), "the pane on screen")
        #expect(app.state.notice == nil, "a focus report is not a key: \(String(describing: app.state.notice))")
    }
}
