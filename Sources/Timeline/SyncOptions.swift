import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// How the engine fetches, pages and waits.
public struct SyncOptions: Sendable {
    /// Tweets asked for per REST page.
    public var pageSize = 200
    /// Pages a catch-up fetches before it leaves a gap to fill on demand.
    public var maxCatchUpPages = 8
    /// Held tweets below the newest that a catch-up fetches again, so deletes missed while
    /// disconnected are noticed (deeper ones are not: the API has no other way to tell).
    public var reconcileDepth = 100
    /// Follow the user stream (home, mentions) and filter streams (plain-word searches).
    public var useStreams = true
    /// Read the account's mutes on the server (every `mutesInterval` seconds), so panes hide the
    /// muted accounts' tweets where the server does not (mentions, searches). The reader turns
    /// it on; off by default so a test's requests and clock are its own.
    public var readMutes = false
    public var mutesInterval = 1800.0
    /// Seconds between reads of the direct messages while a messages pane is open: X allows
    /// 15 reads per 15 minutes on either API, so two minutes leaves room for paging back.
    public var messagesInterval = 120.0
    /// Consecutive stream failures without a connection before home and mentions fall back to
    /// polling.
    public var streamFailuresBeforePolling = 3
    public var stallTimeout = 90.0
    /// Where the engine reads the time and waits: the system clock, or a test's own.
    public var clock: any WallClock = SystemClock()
    /// The shortest time between polls of one timeline (`config.toml`'s poll.minimum_seconds).
    public var minimumPollSeconds = 0.0
    /// While the reader is away (no key for a while, the terminal's focus gone), timelines
    /// other than mentions and messages wait this long (6 h: in practice until the reader is
    /// back, when the pane on screen is read at once; posts bought meanwhile would be buried).
    public var awayPollSeconds = 21_600.0
    /// Panes open but not on screen, likewise (mentions and messages keep their pace for the
    /// notices); the pane brought to the front is read at once.
    public var backgroundPollSeconds = 600.0
    /// A pane brought to the front is read at once unless read within this many seconds.
    public var freshSeconds = 30.0
    /// Length of the rate-limit window assumed before the first answer.
    public var windowSeconds = 900.0
    /// On v2, where every post read is billed: the posts a page asks for, matched to what a
    /// pane shows; a poll that finds more leaves a gap to fill on demand instead of paging on.
    public var v2PageSize: Int?
    /// The account's usage ledger: its budget slows and stops polling.
    public var ledger: UsageLedger?
    /// On v2: a client with the app's bearer token, for the filtered stream. With it, search
    /// panes are fed by one shared stream with a rule each (tagged `linnet:search:…`) instead of
    /// polling, and caught up by recent search after every (re)connect.
    public var v2StreamClient: TwitterClient?
    /// The key is on X's self-serve (pay-per-use) access level (`access_level = "self-serve"` on
    /// the account; the demo's `--tier`): likes and quotes are refused on the key, and replies
    /// only go where the author mentioned or quoted the user.
    public var selfServe = false
    public init() {}
}
