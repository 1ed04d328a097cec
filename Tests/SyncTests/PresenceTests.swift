import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// Reading pays for what is shown: the pane on screen polls at its pace; a pane behind it and
/// an absent reader poll rarely (mentions keep their pace for the notices); coming back reads
/// the pane on screen at once.
@Suite(.serialized) struct PresenceTests {
    @Test func theHiddenAndTheAbsentArePolledRarely() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let (engine, _, _, _) = try await V2SyncTests.engine(sim, fresh: 0)
        defer { Task { await engine.stop() } }
        let clock = engine.options.clock
        func next(_ id: TimelineID) -> Double? {
            if case .polling(let next) = engine.board.status(id).state { return next - clock.now() } else { return nil }
        }
        func settled(_ id: TimelineID, _ check: (Double) -> Bool) async -> Bool {
            for _ in 0..<200 {
                if let n = next(id), check(n) { return true }
                try? await Task.sleep(nanoseconds: 25_000_000)
            }
            return false
        }
        await engine.setPresence(away: false, showing: .home)
        for id: TimelineID in [.home, .mentions, .search("the")] { await engine.open(id) }
        let options = engine.options
        #expect(await settled(.home) { $0 < options.backgroundPollSeconds }, "home on screen: its own pace")
        #expect(await settled(.search("the")) { $0 > options.backgroundPollSeconds - 60 }, "a pane behind: rarely")
        #expect(await settled(.mentions) { $0 < options.backgroundPollSeconds }, "mentions: their pace, for the notices")
        // Away: home too waits; mentions still do not.
        await engine.setPresence(away: true, showing: .home)
        #expect(await settled(.home) { $0 > options.awayPollSeconds - 60 }, "away: home rarely")
        // Back: home is read at once, then at its pace.
        let before = try await sim.requestCount(path: "/timelines/reverse_chronological")
        await engine.setPresence(away: false, showing: .home)
        var read = false
        for _ in 0..<200 where !read {
            read = try await sim.requestCount(path: "/timelines/reverse_chronological") > before
            try? await Task.sleep(nanoseconds: 25_000_000)
        }
        #expect(read, "coming back reads home at once")
        #expect(await settled(.home) { $0 < options.backgroundPollSeconds })
        // The search brought to the front is read at once too (nothing is fresh in this test:
        // its clock's seconds are the system's while its waits are shortened).
        let searched = try await sim.requestCount(path: "/2/tweets/search/recent")
        await engine.setPresence(away: false, showing: .search("the"))
        var again = false
        for _ in 0..<200 where !again {
            again = try await sim.requestCount(path: "/2/tweets/search/recent") > searched
            try? await Task.sleep(nanoseconds: 25_000_000)
        }
        #expect(again, "a pane brought to the front is read at once")
    }
}
