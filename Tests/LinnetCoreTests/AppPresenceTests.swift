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
        /// One turn, then what the engine was told once its task ran (waited for, not timed).
        func step(until want: (Bool, TimelineID?)) async -> Bool {
            await app.step(timeout: 0)
            for _ in 0..<400 {
                let p = await app.engine.presence
                if p.away == want.0 && p.showing == want.1 { return true }
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
            return false
        }
        #expect(await step(until: (false, .home)))
        #expect(await step(until: (true, .home)), "focus out: away")
        #expect(await step(until: (true, .home)), "still away")
        #expect(await step(until: (false, .home)), "focus back: present")
        _ = await step(until: (false, .home))  // the key `2` reaches the reducer here
        #expect(await step(until: (false, .mentions)), "the pane on screen")
        #expect(app.state.notice == nil, "a focus report is not a key: \(String(describing: app.state.notice))")
    }
}
