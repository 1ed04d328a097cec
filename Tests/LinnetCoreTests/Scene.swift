import Foundation
import LinnetCore
import Screen
import Timeline
import TwitterAPI

/// A fixed world for view tests: a store with tweets in many scripts, a fixed clock.
enum Scene {
    // On a whole minute, as the screen's clock shows time (AppState.shownNow).
    static let now: Double = 1_795_000_020
    static let me = User(id: UserID(1), screenName: "linnet_demo", name: "Linnet Demo")
    static let ann = User(id: UserID(2), screenName: "ann", name: "Ann Lee")
    static let kenji = User(id: UserID(3), screenName: "kenji", name: "山田 健二")
    static let noor = User(id: UserID(4), screenName: "noor", name: "نور")
    static let zoe = User(id: UserID(5), screenName: "zoe", name: "Zoë \u{1B}[31mRed\u{1B}[0m")

    static func tweet(
        _ id: UInt64, _ user: User, _ text: String, age: Double, replyTo: (TweetID, String)? = nil,
        retweets: Int = 0, likes: Int = 0, liked: Bool = false
    ) -> Tweet {
        Tweet(
            id: TweetID(id), createdAt: Int64(now - age), user: user, text: text,
            inReplyToStatusID: replyTo?.0, inReplyToScreenName: replyTo?.1,
            retweetCount: retweets, favoriteCount: likes, isFavorited: liked)
    }

    static var homeTweets: [Tweet] {
        let quoted = tweet(90, ann, "The original thought, quoted.", age: 86400 * 3)
        let quoting = Tweet(id: TweetID(108), createdAt: Int64(now - 600), user: kenji, text: "これは引用です 👍🏽 see this", quotedStatus: quoted)
        let original = tweet(95, noor, "مرحبا بالعالم — hello world", age: 7200, retweets: 12, likes: 1500)
        let retweet = Tweet(id: TweetID(107), createdAt: Int64(now - 900), user: ann, text: "RT @noor: مرحبا", retweetedStatus: original)
        return [
            tweet(
                110, ann, "Reading #swift tips from @kenji at https://example.com/a/very/long/path/that/wraps", age: 3, retweets: 3,
                likes: 12),
            tweet(109, zoe, "Combining: e\u{301}te\u{301} and family 👨‍👩‍👧 and flags 🇯🇵🇫🇷", age: 42, replyTo: (TweetID(100), "ann")),
            quoting, retweet,
            tweet(106, kenji, "漢字とかなが混ざった長い文章を折り返して表示できるか確かめるためのツイートです。", age: 3600 * 5, likes: 2, liked: true),
            tweet(105, ann, "Plain old tweet number five.", age: 86400 * 2),
            tweet(104, me, "My own tweet, which I may delete.", age: 86400 * 40),
        ]
    }

    /// A store holding the home tweets (and two mentions), read marker on the newest.
    static func store(extraHome: [Tweet] = []) async -> TimelineStore {
        let store = TimelineStore()
        await store.merge(page: homeTweets + extraHome, into: .home, request: PageRequest(count: 200))
        await store.merge(page: [homeTweets[0], homeTweets[1]], into: .mentions, request: PageRequest(count: 200))
        await store.markRead(.home, upTo: TweetID(110))
        return store
    }

    static func context(_ snapshot: TimelineSnapshot, statuses: [TimelineID: SyncStatus] = [:]) -> Context {
        Context(snapshot: snapshot, statuses: statuses, keyMap: .standard, themes: ["dark", "light", "mono", "solarized-dark"])
    }

    static func state(_ w: Int, _ h: Int) -> AppState {
        AppState(account: "linnet_demo", width: w, height: h, now: now)
    }

    /// Runs actions through the reducer, collecting effects.
    /// Reduces actions in order; the attach prompt's questions of the disk are answered at
    /// once, before the next action, as the app answers them.
    static func run(_ s: inout AppState, _ c: Context, _ actions: [Action], files: FileAccess = .disk) -> [Effect] {
        var fx: [Effect] = []
        var queue = actions[...]
        while let a = queue.popFirst() {
            let out = Reducer.reduce(&s, a, c)
            fx += out
            for e in out.reversed() {
                switch e {
                case .listFiles(let prefix): queue.insert(.filesListed(prefix: prefix, files.complete(prefix)), at: queue.startIndex)
                case .inspectFile(let path): queue.insert(.fileInspected(path: path, files.inspect(path)), at: queue.startIndex)
                default: break
                }
            }
        }
        return fx
    }

    static func keys(_ text: String) -> Action { .keys(text.map { Key.char($0) }) }
}
