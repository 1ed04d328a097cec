import Foundation
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

@testable import LinnetCore

/// With filters set, a scroll (the reader's place moving) keeps the panes' filtered views and
/// brings only their place up to date; a change of the posts filters them again.
@MainActor @Suite struct FilterCacheTests {
    static func storage(_ f: FilteredView?) -> UnsafeRawPointer? {
        f?.view.ids.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func aScrollKeepsTheFilteredViewsAndMovesTheirPlace() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var f = Filters()
        f.phrases = ["plain old"]
        let (app, store) = try await AppLoopTests.app(MemoryTerminal(width: 100, height: 40, script: []), cacheDir: dir) { $0.filters = f }
        await store.merge(page: Scene.homeTweets, into: .home, request: PageRequest(count: 200))
        let first = app.filtered(await store.snapshot())
        let home = try #require(first[.home])
        #expect(home.hidden == 1 && home.view.ids.count >= 3)
        let target = home.view.ids[2]
        await store.setAnchor(.home, at: target)
        await store.markRead(.home, upTo: home.view.ids[1])
        let moved = app.filtered(await store.snapshot())
        #expect(moved[.home]?.view.anchor == target && moved[.home]?.view.readMarker == home.view.ids[1])
        #expect(moved[.home]?.view.ids == home.view.ids && moved[.home]?.hidden == 1)
        #expect(Self.storage(moved[.home]) == Self.storage(home), "a scroll filtered the pane again")
        // A new post is filtered: the view is made again and shows it.
        let post = Tweet(id: TweetID(9_999_999), createdAt: 1_800_000_000, user: Scene.kenji, text: "A new one")
        await store.add(post, to: [.home])
        let grown = app.filtered(await store.snapshot())
        #expect(grown[.home]?.view.ids.first == post.id && grown[.home]?.view.anchor == target)
    }
}
