import Testing
import TwitterAPI

@testable import LinnetCore
@testable import Timeline

/// Scrolling to the selection measures the cards from the selection up, each once: the same
/// top as measuring every card from each candidate top down to the selection, as it was done
/// before.
@Suite struct ScrollReferenceTests {
    static let ann = User(id: UserID(5), screenName: "ann", name: "Ann")

    /// The top the old loop chose.
    static func reference(_ s: AppState, _ c: Context) -> TweetID? {
        let ids = c.ids(s.pane)
        guard let sel = s.pane.selected.flatMap({ ids.firstIndex(of: $0) }) else { return s.pane.top }
        var top = s.pane.top.flatMap { ids.firstIndex(of: $0) } ?? sel
        if sel < top { top = sel }
        let marker = c.shownGaps(s.pane.id).contains(ids[sel]) ? 1 : 0
        while top < sel {
            var used = (top > 0 ? 1 : 0) + marker
            for i in top...sel { used += Reducer.height(ids[i], s, c) + (i < sel ? 1 : 0) }
            if used <= Layout(s).body.height { break }
            top += 1
        }
        return ids[top]
    }

    @Test func theTopIsTheOneEveryCardMeasuredChose() async {
        await compare(keepingHeights: false)
    }

    /// With the turn's heights kept (one keeper over panes of other widths and times, as a
    /// context from the last turn is used again), the same top as measuring every card afresh.
    @Test func keptHeightsChooseTheSameTop() async {
        await compare(keepingHeights: true)
    }

    /// A jump from the first card to the last of 300 measures the cards that fit above it, not
    /// the 299 it passes (the last of 100k laid out every card on the way).
    @Test func aJumpFarDownMeasuresAScreenOfCards() async {
        let posts = (1..<301).map { i in
            Tweet(
                id: TweetID(UInt64(i)), createdAt: Int64(Scene.now) - 60 * Int64(i), user: Self.ann,
                text: Array(repeating: "word", count: [1, 12, 40][i % 3]).joined(separator: " "))
        }
        let store = Timeline.TimelineStore()
        await store.merge(page: posts, into: .home, request: PageRequest(count: 400))
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(60, 30)
        _ = Scene.run(&s, c, [.storeChanged])
        let ids = c.ids(s.pane)
        s.pane.top = ids[0]
        s.pane.selected = ids[ids.count - 1]
        let expected = Self.reference(s, c)
        var counted = c
        counted.heights = CardHeights()
        Reducer.scrollToSelection(&s, counted)
        #expect(s.pane.top == expected)
        let measured = counted.heights?.count ?? 0
        #expect(measured > 1 && measured < 30, "cards measured: \(measured)")
    }

    @Test func heightsAreKeptForOneWidthAndTime() {
        let kept = CardHeights()
        #expect(kept.lines(TweetID(1), width: 80, now: 10) == nil)
        kept.keep(TweetID(1), width: 80, now: 10, lines: 4)
        kept.keep(TweetID(2), width: 80, now: 10, lines: 7)
        #expect(kept.lines(TweetID(1), width: 80, now: 10) == 4 && kept.lines(TweetID(2), width: 80, now: 10) == 7)
        #expect(kept.lines(TweetID(1), width: 81, now: 10) == nil && kept.lines(TweetID(1), width: 80, now: 11) == nil)
        // Another width or time starts afresh.
        kept.keep(TweetID(3), width: 60, now: 10, lines: 2)
        #expect(kept.lines(TweetID(1), width: 80, now: 10) == nil && kept.lines(TweetID(3), width: 60, now: 10) == 2)
        kept.keep(TweetID(1), width: 60, now: 12, lines: 5)
        #expect(kept.lines(TweetID(3), width: 60, now: 12) == nil && kept.lines(TweetID(1), width: 60, now: 12) == 5)
    }

    func compare(keepingHeights: Bool) async {
        var state: UInt64 = 20_261_128
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        let posts = (1..<80).map { i in
            Tweet(
                id: TweetID(UInt64(i)), createdAt: Int64(Scene.now) - 60 * Int64(i), user: Self.ann,
                text: Array(repeating: "word", count: [1, 2, 30, 1, 3, 45, 2, 1, 1, 20, 160, 1, 8][next(13)]).joined(separator: " "))
        }
        let store = Timeline.TimelineStore()
        await store.merge(page: posts, into: .home, request: PageRequest(count: 200))
        var c = Scene.context(await store.snapshot())
        // Kept heights measured without a theme: cards laid out in one go to the shared card
        // cache, whose lines other tests read (it empties itself when full).
        c.cardTheme = keepingHeights ? nil : .fallback
        var kept = c
        if keepingHeights { kept.heights = CardHeights() }
        var compared = 0
        var moved = 0
        for _ in 0..<400 {
            var s = Scene.state([40, 60, 100][next(3)], [8, 14, 30][next(3)])
            _ = Scene.run(&s, c, [.storeChanged])
            let ids = c.ids(s.pane)
            s.pane.selected = ids[next(ids.count)]
            s.pane.top = ids[next(ids.count)]
            // A third of the panes a minute later: the cards' ages change, their heights not.
            if next(3) == 0 { s.now += 60 }
            let expected = Self.reference(s, c)
            let before = s.pane.top
            Reducer.scrollToSelection(&s, kept)
            #expect(s.pane.top == expected, "selected \(String(describing: s.pane.selected)), top was \(String(describing: before))")
            compared += 1
            // Only panes whose top was above the selection go through the loop.
            if let t = before.flatMap({ ids.firstIndex(of: $0) }), let sel = s.pane.selected.flatMap({ ids.firstIndex(of: $0) }),
                t < sel, s.pane.top != before
            {
                moved += 1
            }
        }
        #expect(compared == 400 && moved > 50, "moved from above the selection: \(moved)")
        // From the first card, every selection near it in every pane: where the cards above
        // the selection just fit, or fit but for the line of newer posts.
        for width in [40, 60, 100] {
            for height in 6...30 {
                for sel in 0..<16 {
                    var s = Scene.state(width, height)
                    _ = Scene.run(&s, c, [.storeChanged])
                    let ids = c.ids(s.pane)
                    (s.pane.top, s.pane.selected) = (ids[0], ids[sel])
                    let expected = Self.reference(s, c)
                    Reducer.scrollToSelection(&s, kept)
                    #expect(s.pane.top == expected, "\(width)x\(height), selected \(sel)")
                }
            }
        }
    }
}
