import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// The engine's waits on a clock the test moves: the backoff schedule and the poll pace are
/// read off the clock's sleepers, against the simulator, with no sleeps in the test.
@Suite(.serialized) struct ClockedSyncTests {
    func homeRequests(_ h: SyncHarness) async throws -> Int {
        try await h.requests().filter { ($0["path"]?.stringValue ?? "").hasPrefix("/1.1/statuses/home_timeline") }.count
    }

    @Test func backoffThenPollPaceFollowTheClock() async throws {
        let clock = ManualClock(now: Date().timeIntervalSince1970.rounded(.down))
        var o = SyncOptions()
        o.useStreams = false
        o.clock = clock
        let h = try await SyncHarness.start(options: o)
        try await h.faults(#"{"statusFaults":[{"path":"/1.1/statuses/home_timeline.json","status":503,"count":2}]}"#)
        let start = clock.now()
        await h.engine.open(.home)

        // The first answer is a 503: the next try is 5 s away, and nothing is sent before it.
        #expect(await clock.waitForSleepers(1))
        #expect(clock.deadlines == [start + 5])
        #expect(try await homeRequests(h) == 1)
        guard case .offline(let retry, let why) = h.engine.board.status(.home).state else {
            Issue.record("expected offline, got \(h.engine.board.status(.home).state)")
            await h.stop()
            return
        }
        #expect(retry == start + 5)
        #expect(why.contains("over capacity"))

        // The second 503 doubles the wait.
        clock.advance(by: 5)
        #expect(await clock.waitForSleepers(1))
        #expect(clock.deadlines == [start + 15])
        #expect(try await homeRequests(h) == 2)

        // Then the page arrives, and polling goes on at the pace the window allows (15
        // requests per 900 s: never sooner than 60 s).
        clock.advance(by: 10)
        #expect(await clock.waitForSleepers(1))
        #expect(try await homeRequests(h) >= 3)
        #expect(!(await h.held(.home)).isEmpty)
        let pace = (clock.deadlines.first ?? 0) - clock.now()
        #expect((60...80).contains(pace), "poll pace \(pace) s")
        if case .polling(let next) = h.engine.board.status(.home).state {
            #expect(next == clock.now() + pace)
        } else {
            Issue.record("expected polling, got \(h.engine.board.status(.home).state)")
        }
        await h.stop()
    }

    /// A polled timeline whose catch-up fails on its second page: the next poll starts again
    /// from where that catch-up started, so the tweets between are fetched, not left as a hole.
    @Test func aFailedPolledCatchUpIsResumedFromItsCeiling() async throws {
        let clock = ManualClock(now: Date().timeIntervalSince1970.rounded(.down))
        var o = SyncOptions()
        o.useStreams = false
        o.clock = clock
        o.pageSize = 20
        o.reconcileDepth = 5
        let h = try await SyncHarness.start(options: o)
        await h.engine.open(.home)
        #expect(await clock.waitForSleepers(1))
        let first = await h.held(.home)
        #expect(first.count == 20)
        for i in 0..<50 { _ = try await h.sim.control("POST", "/_sim/tweet", body: "text=burst+\(i)") }
        try await h.faults(#"{"statusFaults":[{"path":"/1.1/statuses/home_timeline.json","status":503,"count":1,"query":"max_id="}]}"#)
        // The next poll: its first page arrives, its second is refused.
        clock.advanceToNextDeadline()
        #expect(await clock.waitForSleepers(1))
        guard case .offline = h.engine.board.status(.home).state else {
            Issue.record("the second page should have failed: \(h.engine.board.status(.home).state)")
            await h.stop()
            return
        }
        // The poll after it fetches the rest.
        clock.advanceToNextDeadline()
        #expect(await clock.waitForSleepers(1))
        let held = await h.held(.home)
        let truth = try await h.sim.truth("home")
        let expected = Array(truth.prefix(while: { TweetID($0)! >= TweetID(first.last!)! }))
        #expect(expected.count > 2 * 20, "the burst must reach past the first page")
        #expect(Set(expected).subtracting(held).isEmpty, "missing \(Set(expected).subtracting(held).count) of \(expected.count)")
        await h.stop()
    }
}
