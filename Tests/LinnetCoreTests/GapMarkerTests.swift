import Foundation
import LinnetCore
import Testing
import Timeline
import TwitterAPI

/// A page of newer posts that did not reach what was held leaves a gap: the pane says so on the
/// line below the page's oldest post, and reaching that post loads the page below it.
@MainActor @Suite struct GapMarkerTests {
    @Test func aGapIsShownAndReachingItFillsIt() async throws {
        let store = await Scene.store()
        // Twelve newer posts, a full page that shares nothing with what is held: a gap below the
        // oldest of them (120).
        let newer = (0..<12).map { Scene.tweet(131 - UInt64($0), Scene.ann, "newer post \($0)", age: 1) }
        await store.merge(page: newer, into: .home, request: PageRequest(count: 12))
        let snapshot = await store.snapshot()
        #expect(snapshot.timelines[.home]?.gapsBelow == [TweetID(120)])
        let c = Scene.context(snapshot)
        var s = Scene.state(100, 20)
        _ = Reducer.reduce(&s, .storeChanged, c)
        #expect(s.pane.selected == TweetID(131))
        #expect(!Views.render(s, c).text.contains("not loaded yet"), "the gap is below the screen")
        // Moving down: no page is asked for until the gap is in sight, then the one below it.
        var asked: [Effect] = []
        var moves = 0
        while asked.isEmpty, moves < 12 {
            asked = Scene.run(&s, c, [Scene.keys("j")]).filter { if case .fillGap = $0 { true } else { false } }
            moves += 1
        }
        #expect(asked == [.fillGap(.home, below: TweetID(120))])
        #expect(moves > 1 && moves < 12, "\(moves) moves")
        let screen = Views.render(s, c).text
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let marker = try #require(lines.firstIndex { $0.contains("posts here not loaded yet: j onto them loads them") }, "\(screen)")
        let last = try #require(lines.firstIndex { $0.contains("newer post 11") })
        let first = try #require(lines.firstIndex { $0.contains("Reading #swift tips") })
        #expect(last < marker && marker < first, "the marker sits between the page and what was held:\n\(screen)")
        // A jump up to the newest passes over nothing it shows: no page is bought for it.
        var below = Scene.state(100, 20)
        _ = Reducer.reduce(&below, .storeChanged, c)
        _ = Scene.run(&below, c, [Scene.keys("G")])
        #expect(!Scene.run(&below, c, [Scene.keys("gg")]).contains { if case .fillGap = $0 { true } else { false } })
        // A jump past it (G) asks for it too, instead of crossing it silently.
        var jump = Scene.state(100, 20)
        _ = Reducer.reduce(&jump, .storeChanged, c)
        #expect(Scene.run(&jump, c, [Scene.keys("G")]).contains(.fillGap(.home, below: TweetID(120))))
        // Filled (a page asked below the gap that reaches what was held), the marker goes.
        await store.merge(
            page: [Scene.tweet(115, Scene.kenji, "the missing one", age: 2)] + Scene.homeTweets.prefix(1), into: .home,
            request: PageRequest(count: 200, maxID: TweetID(119)))
        let after = Scene.context(await store.snapshot())
        #expect(after.view(.home)?.gapsBelow.isEmpty == true)
        #expect(!Views.render(s, after).text.contains("not loaded yet"))
    }
}

extension GapMarkerTests {
    /// A gap below a post a filter hides is marked below the nearest shown post above it.
    @Test func filteredPanesStillShowTheirGaps() async throws {
        let store = await Scene.store()
        let newer = (0..<4).map { Scene.tweet(131 - UInt64($0), Scene.ann, $0 == 3 ? "spoiler ahead" : "newer post \($0)", age: 1) }
        await store.merge(page: newer, into: .home, request: PageRequest(count: 4))
        let snapshot = await store.snapshot()
        #expect(snapshot.timelines[.home]?.gapsBelow == [TweetID(128)])
        var c = Scene.context(snapshot)
        var memo: [TweetID: (ObjectIdentifier, Bool)] = [:]
        var filters = Filters()
        filters.words = ["spoiler"]
        c.filtered = FilteredView.make(snapshot, panes: [.home], filters: filters, mutedUsers: [], memo: &memo)
        #expect(c.shownGaps(.home) == [TweetID(129)], "moved up to the shown post above the hidden one")
        var s = Scene.state(100, 40)
        _ = Reducer.reduce(&s, .storeChanged, c)
        #expect(Views.render(s, c).text.contains("not loaded yet"))
    }
}
