import Testing
import TwitterAPI

@testable import Timeline

@Suite struct PollPlannerTests {
    @Test func homeIsPolledNoMoreOftenThanEveryMinute() {
        #expect(PollPlanner.interval(window: nil, now: 0) == 60)
        #expect(PollPlanner.interval(window: RateLimit(limit: 15, remaining: 15, reset: 900), now: 0) == 60)
        #expect(PollPlanner.interval(window: RateLimit(limit: 180, remaining: 180, reset: 900), now: 0) == 5)
    }

    @Test func slowsAsTheBudgetRunsOut() {
        let plenty = PollPlanner.interval(window: RateLimit(limit: 15, remaining: 14, reset: 840), now: 0)
        let few = PollPlanner.interval(window: RateLimit(limit: 15, remaining: 2, reset: 840), now: 0)
        #expect(plenty == 60)
        #expect(few == 420)
    }

    @Test func spentWindowWaitsForTheReset() {
        #expect(PollPlanner.interval(window: RateLimit(limit: 15, remaining: 0, reset: 1042), now: 1000) == 42)
        #expect(PollPlanner.interval(window: RateLimit(limit: 15, remaining: 0, reset: 900), now: 1000) == 1)
    }

    @Test func timelinesSharingAnEndpointShareItsBudget() {
        let w = RateLimit(limit: 180, remaining: 180, reset: 900)
        #expect(PollPlanner.interval(window: w, now: 0, sharers: 3) == 15)
    }

    @Test func manualRefreshIsHonest() {
        #expect(PollPlanner.manualRefresh(window: nil, now: 0) == .now)
        #expect(PollPlanner.manualRefresh(window: RateLimit(limit: 15, remaining: 3, reset: 900), now: 0) == .now)
        #expect(
            PollPlanner.manualRefresh(window: RateLimit(limit: 15, remaining: 0, reset: 1042), now: 1000)
                == .wait(seconds: 42, message: "rate limited, next refresh in 42 s"))
    }
}
