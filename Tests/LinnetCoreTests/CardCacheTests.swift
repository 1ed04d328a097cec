import Screen
import Testing
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
}
