import Foundation
import TwitterAPI

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
    /// Consecutive stream failures without a connection before home and mentions fall back to
    /// polling.
    public var streamFailuresBeforePolling = 3
    public var stallTimeout = 90.0
    /// Multiplies backoffs and poll intervals (tests shorten them); rate-limit resets are always
    /// waited for on the wall clock.
    public var timeScale = 1.0
    /// The shortest time between polls of one timeline (`config.toml`'s poll.minimum_seconds).
    public var minimumPollSeconds = 0.0
    /// Length of the rate-limit window assumed before the first answer.
    public var windowSeconds = 900.0
    public init() {}
}
