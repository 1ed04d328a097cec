import LinnetTestSupport
import Testing
import TwitterAPI

@testable import Timeline

@Suite struct RateScheduleWindowTests {
    @Test func homeIsPolledNoMoreOftenThanEveryMinute() {
        #expect(RateSchedule.interval(window: nil, now: 0) == 60)
        #expect(RateSchedule.interval(window: RateLimit(limit: 15, remaining: 15, reset: 900), now: 0) == 60)
        #expect(RateSchedule.interval(window: RateLimit(limit: 180, remaining: 180, reset: 900), now: 0) == 5)
    }

    @Test func slowsAsTheBudgetRunsOut() {
        let plenty = RateSchedule.interval(window: RateLimit(limit: 15, remaining: 14, reset: 840), now: 0)
        let few = RateSchedule.interval(window: RateLimit(limit: 15, remaining: 2, reset: 840), now: 0)
        #expect(plenty == 60)
        #expect(few == 420)
    }

    @Test func spentWindowWaitsForTheReset() {
        #expect(RateSchedule.interval(window: RateLimit(limit: 15, remaining: 0, reset: 1042), now: 1000) == 42)
        #expect(RateSchedule.interval(window: RateLimit(limit: 15, remaining: 0, reset: 900), now: 1000) == 1)
    }

    @Test func timelinesSharingAnEndpointShareItsBudget() {
        let w = RateLimit(limit: 180, remaining: 180, reset: 900)
        #expect(RateSchedule.interval(window: w, now: 0, sharers: 3) == 15)
    }

    @Test func manualRefreshIsHonest() {
        #expect(RateSchedule.manualRefresh(window: nil, now: 0) == .now)
        #expect(RateSchedule.manualRefresh(window: RateLimit(limit: 15, remaining: 3, reset: 900), now: 0) == .now)
        #expect(
            RateSchedule.manualRefresh(window: RateLimit(limit: 15, remaining: 0, reset: 1042), now: 1000)
                == .wait(seconds: 42, message: "rate limited, next refresh in 42 s"))
    }
}

/// The schedule as events in and decisions out: a 429 with a time, one without, a spent
/// window, and how a poller's wait comes from them, on a manual clock.
@Suite struct RateScheduleTests {
    let home = "/statuses/home_timeline"

    @Test func aRefusalWithATimeHoldsTheEndpointUntilThen() {
        var s = RateSchedule()
        #expect(s.gate(home, now: 1000) == .send)
        s.apply(.refused(endpoint: home, retryAt: 1120, now: 1000))
        #expect(s.gate(home, now: 1000) == .wait(until: 1120, reason: .refused))
        #expect(s.gate("/search/tweets", now: 1000) == .send)
        #expect(s.refresh(home, now: 1000) == .wait(seconds: 120, message: "rate limited, next refresh in 120 s"))
        #expect(s.gate(home, now: 1120) == .send)
        // A server's time is never shortened by a served backoff.
        s.apply(.served(endpoint: home, until: 1120))
        #expect(s.refusedUntil(home) == nil)
    }

    @Test func aRefusalWithoutATimeIsABackoffOfItsOwn() {
        var s = RateSchedule()
        s.apply(.refused(endpoint: home, retryAt: nil, now: 500))
        #expect(s.gate(home, now: 500) == .wait(until: 500 + RateSchedule.backoffSeconds, reason: .backoff))
        // An earlier refusal does not shorten a later one; the served one is let go.
        s.apply(.refused(endpoint: home, retryAt: 520, now: 510))
        #expect(s.refusedUntil(home) == 560)
        s.apply(.served(endpoint: home, until: 540))
        #expect(s.refusedUntil(home) == 560)
        s.apply(.served(endpoint: home, until: 560))
        #expect(s.gate(home, now: 541) == .send)
    }

    @Test func theLaterOfARefusalAndASpentWindowHolds() {
        var s = RateSchedule()
        s.apply(.answered(endpoint: home, window: RateLimit(limit: 15, remaining: 3, reset: 1900), status: 429))
        #expect(s.windows[home]?.remaining == 0)
        #expect(s.gate(home, now: 1000) == .wait(until: 1900, reason: .windowSpent))
        s.apply(.refused(endpoint: home, retryAt: 2000, now: 1000))
        #expect(s.gate(home, now: 1000) == .wait(until: 2000, reason: .refused))
        s.apply(.answered(endpoint: home, window: RateLimit(limit: 15, remaining: 15, reset: 2800), status: 200))
        #expect(s.gate(home, now: 1950) == .wait(until: 2000, reason: .refused))
        #expect(s.gate(home, now: 2000) == .send)
    }

    @Test func aPollWaitsForTheWindowTheNetworkAndTheBudget() {
        var s = RateSchedule()
        // Before any answer: X's table for home (15 a window) with the user's minimum.
        #expect(s.pollSeconds(home, now: 0, pace: .init()) == 60)
        #expect(s.pollSeconds(home, now: 0, pace: .init(minimumSeconds: 90)) == 90)
        s.apply(.answered(endpoint: home, window: RateLimit(limit: 180, remaining: 180, reset: 900), status: 200))
        #expect(s.pollSeconds(home, now: 0, pace: .init(sharers: 2)) == 10)
        // Offline: the network's retry time, not the window's pace.
        #expect(s.pollSeconds(home, now: 0, pace: .init(offlineUntil: 3)) == 3)
        // A 429 holds the poll until its time; a used budget slows it.
        s.apply(.refused(endpoint: home, retryAt: 300, now: 0))
        #expect(s.pollSeconds(home, now: 0, pace: .init()) == 300)
        #expect(s.pollSeconds(home, now: 300, pace: .init(budgetFraction: 1)) == 50)
    }

    @Test func theClientFeedsItsScheduleFromAnswers() async throws {
        let clock = ManualClock(now: 10_000)
        let book = RateLimitBook(clock: clock)
        book.record(
            endpoint: home, headers: ["x-rate-limit-limit": "15", "x-rate-limit-remaining": "0", "x-rate-limit-reset": "10600"], status: 200
        )
        #expect(book.schedule.gate(home, now: clock.now()) == .wait(until: 10_600, reason: .windowSpent))
        clock.advance(by: 600)
        #expect(book.schedule.gate(home, now: clock.now()) == .send)
    }
}
