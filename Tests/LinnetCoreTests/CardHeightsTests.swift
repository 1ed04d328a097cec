import Screen
import Testing
import TwitterAPI

@testable import LinnetCore
@testable import Timeline

/// Cards' heights kept from turn to turn (#29): only while the posts, the theme, the width
/// mode and the thumbnails setting they were measured with are those of the turn.
@Suite struct CardHeightsTests {
    static let ann = ScrollReferenceTests.ann

    static func post(_ i: UInt64, words: Int) -> Tweet {
        Tweet(
            id: TweetID(i), createdAt: Int64(Scene.now) - 60 * Int64(i), user: ann,
            text: Array(repeating: "word", count: words).joined(separator: " "))
    }

    @Test func aTableIsOneStorageUntilWrittenTo() async {
        let store = TimelineStore()
        await store.merge(page: [Self.post(1, words: 3)], into: .home, request: PageRequest(count: 20))
        let (a, b) = (await store.snapshot(), await store.snapshot())
        #expect(a.tweets.isSameStorage(as: b.tweets))
        await store.merge(page: [Self.post(2, words: 3)], into: .home, request: PageRequest(count: 20))
        let c = await store.snapshot()
        #expect(!a.tweets.isSameStorage(as: c.tweets))
        // A post replaced by a newer copy of itself (counts, an edit) is a write too.
        let d = await store.snapshot()
        await store.merge(page: [Self.post(2, words: 40)], into: .home, request: PageRequest(count: 20))
        let e = await store.snapshot()
        #expect(c.tweets.isSameStorage(as: d.tweets) && !d.tweets.isSameStorage(as: e.tweets))
        // So is a removal, from a table held elsewhere.
        var removed = e.tweets
        removed.removeValue(forKey: TweetID(1))
        #expect(!removed.isSameStorage(as: e.tweets) && e.tweets[TweetID(1)] != nil)
        // A table of its own, with the same count, is another storage.
        var own = TweetTable()
        own[TweetID(1)] = Self.post(1, words: 3)
        own[TweetID(2)] = Self.post(2, words: 40)
        #expect(own.count == e.tweets.count && !own.isSameStorage(as: e.tweets))
    }

    @Test func heightsStayWhileWhatTheyDependOnDoes() async {
        let store = TimelineStore()
        await store.merge(page: [Self.post(1, words: 3), Self.post(2, words: 3)], into: .home, request: PageRequest(count: 20))
        let snapshot = await store.snapshot()
        let kept = CardHeights()
        func turn(_ change: (inout Context) -> Void = { _ in }) -> Int? {
            var c = Scene.context(snapshot)
            c.cardTheme = .fallback
            change(&c)
            kept.begin(c)
            return kept.lines(TweetID(1), width: 80, now: 10)
        }
        #expect(turn() == nil)
        kept.keep(TweetID(1), width: 80, now: 10, lines: 4)
        // A new turn on the same snapshot (a new context, as every turn makes).
        #expect(turn() == 4)
        var other = Theme.fallback
        other.styles[.name] = Style(fg: .indexed(3))
        var renamed = Theme.fallback
        renamed.name = "renamed"
        let changes: [(String, (inout Context) -> Void)] = [
            ("theme", { $0.cardTheme = other }), ("theme's name", { $0.cardTheme = renamed }), ("no theme", { $0.cardTheme = nil }),
            ("width mode", { $0.widthMode = .grapheme }), ("thumbnails", { $0.thumbnails = true }),
        ]
        for (what, change) in changes {
            #expect(turn(change) == nil, "kept across a change of \(what)")
            kept.keep(TweetID(1), width: 80, now: 10, lines: 4)
            #expect(turn() == nil, "kept across a change back from \(what)")
            kept.keep(TweetID(1), width: 80, now: 10, lines: 4)
        }
        // A write to the store: the next snapshot is other posts, whatever it holds.
        await store.merge(page: [Self.post(3, words: 3)], into: .home, request: PageRequest(count: 20))
        var c = Scene.context(await store.snapshot())
        c.cardTheme = .fallback
        kept.begin(c)
        #expect(kept.lines(TweetID(1), width: 80, now: 10) == nil)
    }

    @Test func theNewestHeightsAreKeptPastTheLimit() {
        let kept = CardHeights()
        let n = CardHeights.most + 36
        for i in 0..<n { kept.keep(TweetID(UInt64(i + 1)), width: 80, now: 10, lines: i % 7 + 1) }
        #expect(kept.count == CardHeights.most)
        for i in 0..<n {
            let found = kept.lines(TweetID(UInt64(i + 1)), width: 80, now: 10)
            #expect(found == (i < n - CardHeights.most ? nil : i % 7 + 1), "card \(i)")
        }
    }

    /// The app's turns: one keeper for all of them. A post that grows between two turns is
    /// measured again, so the selection still shows whole.
    @Test func aPostThatGrowsIsMeasuredAgain() async {
        let store = TimelineStore()
        let posts = (1..<40).map { Self.post(UInt64($0), words: 2) }
        await store.merge(page: posts, into: .home, request: PageRequest(count: 100))
        let kept = CardHeights()
        func context() async -> Context {
            var c = Scene.context(await store.snapshot())
            c.heights = kept
            kept.begin(c)
            return c
        }
        var c = await context()
        var s = Scene.state(60, 20)
        _ = Scene.run(&s, c, [.storeChanged])
        let ids = c.ids(s.pane)
        (s.pane.top, s.pane.selected) = (ids[0], ids[4])
        Reducer.scrollToSelection(&s, c)
        #expect(s.pane.top == ScrollReferenceTests.reference(s, Scene.context(c.snapshot)))
        // The cards above the selection grow to many lines each.
        await store.merge(page: ids[0..<5].map { Self.post($0.rawValue, words: 60) }, into: .home, request: PageRequest(count: 100))
        c = await context()
        let expected = ScrollReferenceTests.reference(s, Scene.context(c.snapshot))
        #expect(expected != ids[0])
        Reducer.scrollToSelection(&s, c)
        #expect(s.pane.top == expected)
    }
}
