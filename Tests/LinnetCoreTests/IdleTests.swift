import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

/// An idle screen changes at most once a minute: ages to the minute, clock times instead of
/// countdowns, and a loop that sleeps until the next change (#29).
@Suite struct IdleTests {
    @Test func clockTimesOnTheReadersClock() {
        // 1795000042 is 11:07:22 UTC (date -u -d @1795000042).
        #expect(Format.at(1_795_000_042, utcOffset: 0) == "11:07:22")
        #expect(Format.at(1_795_000_041.2, utcOffset: 0) == "11:07:22", "a moment is not shown before it comes")
        #expect(Format.at(1_795_000_042, utcOffset: 5 * 3600 + 1800) == "16:37:22")
        #expect(Format.at(1_795_000_042, utcOffset: -12 * 3600) == "23:07:22")
        // A day or more ahead names the day: 1795090000 is Nov 19 2026 12:06:40 UTC.
        #expect(Format.at(1_795_090_000, utcOffset: 0, now: 1_795_000_000) == "Nov 19 12:06:40")
        #expect(Format.at(.infinity, utcOffset: 0).count == 8)
        #expect(Format.at(.nan, utcOffset: 0) == "00:00:00")
    }

    @Test func agesInMinutes() {
        #expect(Format.age(created: 1_000, now: 1_059) == "now")
        #expect(Format.age(created: 1_000, now: 1_060) == "1m")
        #expect(Format.age(created: 1_000, now: 1_000 + 3599) == "59m")
    }

    /// A card's cache key stands for its age's text: two times share a stamp exactly when they
    /// share the text, at every boundary (minutes, hours, days, a week, the year, before 1970,
    /// past either clamp, a clock that is not a number).
    @Test func anAgesStampIsItsText() {
        var state: UInt64 = 41
        func random(_ range: ClosedRange<Int64>) -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int64(state >> 33) % (range.upperBound - range.lowerBound + 1)
        }
        let steps: [Int64] = [0, 1, 59, 60, 61, 3599, 3600, 3601, 86399, 86400, 86401, 7 * 86400 - 1, 7 * 86400, 7 * 86400 + 1]
        let nows: [Double] = [
            1_795_000_042, 1_767_225_600, 1_767_225_599, 86_400 * 3, -86_400 * 400, 0, 2e11, 3e11, -7e10, .nan, .infinity,
        ]
        // A stamp is one text at any time (the cache keeps cards from frame to frame); a text
        // is one stamp at one time ("Mar 4" is another day in another year).
        var textOf: [Int64: String] = [:]
        var pairs = 0
        for now in nows {
            var stampOf: [String: Int64] = [:]
            let base = now.isFinite ? Int64(now) : 1_000
            var ages = steps + steps.map { $0 + 86400 * random(0...900) }
            ages += (0..<200).map { _ in random(-86400...(86400 * 800)) }
            // Past the clamps (years 1 and 9999) on both sides.
            ages += [base + 70_000_000_000, base - 300_000_000_000]
            for d in ages {
                let created = base - d
                let (text, stamp) = (Format.age(created: created, now: now), Format.ageStamp(created: created, now: now))
                #expect(textOf[stamp, default: text] == text, "\(created) at \(now): stamp \(stamp)")
                #expect(stampOf[text, default: stamp] == stamp, "\(created) at \(now): \(text)")
                (textOf[stamp], stampOf[text]) = (text, stamp)
                pairs += 1
            }
        }
        #expect(textOf.count > 300, "texts of every kind were compared: \(textOf.count) of \(pairs)")
    }

    @Test func aFrameStaysTheSameWithinAMinute() async {
        let minute = (Scene.now / 60).rounded(.down) * 60
        var polling = SyncStatus()
        polling.state = .polling(next: minute + 130)
        var frames: [Double: Screen] = [:]
        for at in [minute, minute + 1, minute + 59, minute + 60] {
            var (s, c) = await ViewTests().scene(120, 40, statuses: [.home: polling])
            _ = Reducer.reduce(&s, .tick(now: at), c)
            frames[at] = Views.render(s, c)
        }
        #expect(frames[minute] == frames[minute + 1])
        #expect(frames[minute] == frames[minute + 59])
        #expect(frames[minute] != frames[minute + 60], "ages move on at the minute")
        // 1795000020 + 130 is 11:09:10 UTC.
        #expect(frames[minute]?.text.contains("next at 11:09:10") == true, "\(frames[minute]?.text ?? "")")
    }

    /// The loop sleeps to the next minute, or to a notice's end, or to a draft's save.
    @MainActor @Test func theLoopSleepsUntilTheScreenWouldChange() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clock = ManualClock(now: 1_800_000_030)  // half a minute past 1800000000, a whole minute
        let drafts = DraftStore(directory: dir)
        let terminal = MemoryTerminal(
            width: 100, height: 20, script: [[], [.ctrl("z")], [], [], [.char("n"), .char("h")], [.char("i")]])
        terminal.canStop = false
        let (app, _) = try await AppLoopTests.app(terminal, cacheDir: dir, clock: clock, drafts: drafts)
        await app.step(timeout: 0)
        #expect(abs(app.untilNextChange(longest: 60) - 30.05) < 1e-6)
        #expect(app.untilNextChange(longest: 10) == 10)
        await app.step(timeout: 0)  // ctrl-z, refused: a notice posted by the turn's own effect
        #expect(app.untilNextChange(longest: 60) == 0, "the notice waits for no timeout")
        await app.step(timeout: 0)
        #expect(app.state.notice?.text == Words.cannotSuspend)
        #expect(abs(app.untilNextChange(longest: 60) - (Reducer.noticeLifetime + 0.05)) < 1e-6)
        clock.advance(by: Reducer.noticeLifetime + 1)
        await app.step(timeout: 0)
        #expect(app.state.notice == nil)
        #expect(abs(app.untilNextChange(longest: 60) - (30.05 - Reducer.noticeLifetime - 1)) < 1e-6)
        await app.step(timeout: 0)  // n, h: saved at once
        #expect(drafts.load().map(\.text) == ["h"])
        clock.advance(by: 1)
        await app.step(timeout: 0)  // i: kept until two seconds after the last save
        #expect(drafts.load().map(\.text) == ["h"])
        #expect(abs(app.untilNextChange(longest: 60) - 1.05) < 1e-6)
        // Five seconds before the reader counts as away (no key for 300 s), the loop wakes for it.
        clock.advance(by: App.awayAfter - 5)
        await app.step(timeout: 0)
        #expect(drafts.load().map(\.text) == ["hi"])
        #expect(abs(app.untilNextChange(longest: 60) - 5.05) < 1e-6)
    }
}
