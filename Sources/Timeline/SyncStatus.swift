import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

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
    /// Today's budget (`budget_per_day`) is spent: no polling until this Unix time (00:00 UTC).
    case budgetSpent(until: Double)
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
