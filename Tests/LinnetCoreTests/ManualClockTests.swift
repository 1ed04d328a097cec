import LinnetTestSupport
import Testing
import TwitterAPI

@Suite struct ManualClockTests {
    actor Log {
        var woke: [String] = []
        func add(_ s: String) { woke.append(s) }
    }

    /// Sleepers wake in deadline order as time is moved, and not before.
    @Test func sleepersWakeWhenTheirTimeComes() async {
        let clock = ManualClock(now: 100)
        let log = Log()
        let a = Task {
            try? await clock.sleep(seconds: 10)
            await log.add("a")
        }
        let b = Task {
            try? await clock.sleep(until: 105)
            await log.add("b")
        }
        #expect(await clock.waitForSleepers(2))
        #expect(clock.deadlines == [105, 110])
        clock.advance(by: 4)
        #expect(clock.deadlines == [105, 110])
        #expect(clock.advanceToNextDeadline() == 1)
        await b.value
        #expect(await log.woke == ["b"])
        clock.advance(by: 5)
        await a.value
        #expect(await log.woke == ["b", "a"])
        #expect(clock.now() == 110)
    }

    /// A cancelled sleeper leaves at once with an error and no longer counts.
    @Test func cancelledSleeperLeaves() async {
        let clock = ManualClock()
        let t = Task { () -> Bool in
            do {
                try await clock.sleep(seconds: 60)
                return false
            } catch {
                return error is CancellationError
            }
        }
        #expect(await clock.waitForSleepers(1))
        t.cancel()
        #expect(await t.value)
        #expect(clock.deadlines.isEmpty)
    }

    /// A wait for a time already past returns at once; a watcher that is never satisfied
    /// gives up after its limit instead of hanging the run.
    @Test func pastDeadlinesAndUnmetWaits() async throws {
        let clock = ManualClock(now: 50)
        try await clock.sleep(until: 10)
        try await clock.sleep(seconds: 0)
        #expect(await clock.waitForSleepers(1, limit: 0.05) == false)
    }
}
