import Screen
import Testing
import TweetText
import TwitterAPI

@testable import LinnetCore

/// A card is laid out once: the height scrolling asks for in the frame's theme leaves the card
/// laid out for the frame to draw.
@Suite struct CardCacheTests {
    static let ann = User(id: UserID(5), screenName: "ann", name: "Ann")

    @Test func aHeightAskedInTheFramesThemeIsTheCardTheFrameDraws() {
        let now = 1_795_000_100.0
        let theme = Theme.fallback
        let drawn = Tweet(id: TweetID(77_001), createdAt: 1_795_000_000, user: Self.ann, text: "laid out once, drawn from the cache")
        let height = TweetCard.height(drawn, width: 80, now: now, theme: theme)
        let key = CardCache.Key(
            tweet: ObjectIdentifier(drawn), width: 80, theme: theme.fingerprint, age: TweetCard.cacheAge(drawn, now: now))
        let found = CardCache.shared.lookup(key, drawn)
        #expect(found?.count == height)
        #expect(found == TweetCard.layout(drawn, width: 80, theme: theme, now: now))

        // Without the frame's theme, only the height is kept.
        let other = Tweet(id: TweetID(77_002), createdAt: 1_795_000_000, user: Self.ann, text: "measured, not drawn")
        #expect(TweetCard.height(other, width: 80, now: now) == height)
        let otherKey = CardCache.Key(tweet: ObjectIdentifier(other), width: 80, theme: theme.fingerprint, age: key.age)
        #expect(CardCache.shared.lookup(otherKey, other) == nil)
    }

    /// After a frame, the card the next key brings in (the one after the first that does not
    /// fit) is laid out, in the terminal's width mode, and no further.
    @Test(arguments: [WidthMode.perScalar, .grapheme]) func theNextCardIsLaidOutAfterAFrame(mode: WidthMode) async {
        let snapshot = await Scene.store().snapshot()
        var c = Scene.context(snapshot)
        c.cardTheme = .fallback
        c.widthMode = mode
        var s = Scene.state(60, 12)
        _ = Scene.run(&s, c, [.storeChanged])
        let ids = c.ids(s.pane)
        // Down until the view has scrolled past the first card.
        while s.pane.top == ids.first, s.pane.selected != ids.last { _ = Scene.run(&s, c, [Scene.keys("j")]) }
        guard let top = s.pane.top.flatMap({ ids.firstIndex(of: $0) }) else {
            Issue.record("no top card")
            return
        }
        let whole = DisplayWidth.$mode.withValue(mode) { Reducer.visibleCount(s, c) }
        #expect(top >= 1 && top + whole + 2 < ids.count, "top \(top), \(whole) whole of \(ids.count)")
        func laidOut(_ i: Int) -> Bool {
            guard let t = c.snapshot.tweets[ids[i]] else { return false }
            return DisplayWidth.$mode.withValue(mode) {
                let key = CardCache.Key(
                    tweet: ObjectIdentifier(t), width: 60, theme: Theme.fallback.fingerprint, age: TweetCard.cacheAge(t, now: s.shownNow))
                return CardCache.shared.lookup(key, t) != nil
            }
        }
        #expect(!laidOut(top + whole + 1))
        Reducer.layOutNeighbours(s, c)
        #expect(laidOut(top + whole + 1))
        #expect(!laidOut(top + whole + 2))
    }
}
