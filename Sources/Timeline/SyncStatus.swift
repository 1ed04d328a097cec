import Foundation
import Synchronization
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

/// What one timeline's sync is doing, for the status bar.
public enum SyncState: Equatable, Sendable {
    case idle
    case loading
    case connecting
    case streaming
    /// Polling; the next poll at this Unix time.
    case polling(next: Double)
    /// Failed; the next attempt at this Unix time.
    case offline(retry: Double, reason: String)
    case rateLimited(until: Double)
}

public struct SyncStatus: Equatable, Sendable {
    public var state: SyncState = .idle
    /// The last error in words, and when it happened (Unix time).
    public var lastError: String?
    public var lastErrorAt: Double?
    /// The server refused (a 4xx answer) rather than failed; a search shows "refused".
    public var refused = false
    /// An older page came back empty: nothing more below.
    public var reachedEnd = false
    public var loadingOlder = false
    public init() {}
}

/// Counts over the engine's life, for tests and the soak figures.
public struct SyncCounters: Equatable, Sendable {
    public var connects = 0
    public var catchUps = 0
    public var restRequests = 0
    public var reconciled = 0
    public var skippedMessages = 0
    public var rateLimitWaits = 0
    public var fellBackToPolling = false
    public init() {}
}

/// The engine's observable state, readable from any thread without waiting on the engine.
public final class SyncBoard: Sendable {
    private let state = Mutex<(statuses: [TimelineID: SyncStatus], counters: SyncCounters, version: UInt64)>(([:], SyncCounters(), 0))

    public init() {}

    public var statuses: [TimelineID: SyncStatus] { state.withLock { $0.statuses } }
    public var counters: SyncCounters { state.withLock { $0.counters } }
    /// Bumped on every change, so a reader can tell cheaply whether to redraw.
    public var version: UInt64 { state.withLock { $0.version } }

    public func status(_ id: TimelineID) -> SyncStatus { state.withLock { $0.statuses[id] ?? SyncStatus() } }

    func update(_ id: TimelineID, _ change: (inout SyncStatus) -> Void) {
        state.withLock {
            var s = $0.statuses[id] ?? SyncStatus()
            let before = s
            change(&s)
            guard s != before else { return }
            $0.statuses[id] = s
            $0.version &+= 1
        }
    }

    func count(_ change: (inout SyncCounters) -> Void) { state.withLock { change(&$0.counters) } }

    func forget(_ id: TimelineID) {
        state.withLock {
            $0.statuses[id] = nil
            $0.version &+= 1
        }
    }
}

/// Sleeps for a scaled time: backoffs in tests pass quickly, the rules stay the same.
struct ScaledClock: StreamClock {
    let scale: Double
    func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: Checked.nanoseconds(seconds * scale))
    }
}

/// A write the engine refused or the server refused, in words.
public struct SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// The API's answer, when there was one.
    public var status: Int?
    public init(_ message: String, status: Int? = nil) {
        self.message = message
        self.status = status
    }
    public var description: String { message }
}

extension Tweet {
    /// A copy with new like and retweet state (optimistic updates).
    func with(favorited: Bool? = nil, retweeted: Bool? = nil) -> Tweet {
        let f = favorited ?? isFavorited
        let r = retweeted ?? isRetweeted
        return Tweet(
            id: id, createdAt: createdAt, user: user, text: text, displayRange: displayRange, entities: entities,
            inReplyToStatusID: inReplyToStatusID, inReplyToUserID: inReplyToUserID,
            inReplyToScreenName: inReplyToScreenName, retweetedStatus: retweetedStatus, quotedStatus: quotedStatus,
            quotedStatusID: quotedStatusID,
            retweetCount: max(0, retweetCount + (r == isRetweeted ? 0 : (r ? 1 : -1))),
            favoriteCount: max(0, favoriteCount + (f == isFavorited ? 0 : (f ? 1 : -1))),
            isFavorited: f, isRetweeted: r, isTruncated: isTruncated, lang: lang)
    }

    /// This tweet with `content` in place of what it shows (a retweet whose original changed).
    func replacingContent(_ content: Tweet) -> Tweet {
        guard retweetedStatus != nil else { return content }
        return Tweet(
            id: id, createdAt: createdAt, user: user, text: text, displayRange: displayRange, entities: entities,
            inReplyToStatusID: inReplyToStatusID, inReplyToUserID: inReplyToUserID,
            inReplyToScreenName: inReplyToScreenName, retweetedStatus: content, quotedStatus: quotedStatus,
            quotedStatusID: quotedStatusID, retweetCount: content.retweetCount, favoriteCount: content.favoriteCount,
            isFavorited: content.isFavorited, isRetweeted: content.isRetweeted, isTruncated: isTruncated, lang: lang)
    }
}
