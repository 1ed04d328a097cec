import FoundationEssentials
import Locking
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

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

/// How far the upload of a post's files is: file `file` of `of`, `sent` of its `total` bytes.
public struct UploadStatus: Equatable, Sendable {
    public var file: Int
    public var of: Int
    public var sent: Int
    public var total: Int
    public init(file: Int, of: Int, sent: Int, total: Int) {
        self.file = file
        self.of = of
        self.sent = sent
        self.total = total
    }
    public var percent: Int { total > 0 ? min(100, sent * 100 / total) : 100 }
}

/// The engine's observable state, readable from any thread without waiting on the engine.
public final class SyncBoard: Sendable {
    private let state = Locked<(statuses: [TimelineID: SyncStatus], counters: SyncCounters, version: UInt64)>(([:], SyncCounters(), 0))
    private let uploading = Locked<UploadStatus?>(nil)

    /// The upload in progress, if any.
    public var upload: UploadStatus? { uploading.withLock { $0 } }

    func setUpload(_ u: UploadStatus?) {
        let moved = uploading.withLock { old -> Bool in
            guard old != u else { return false }
            old = u
            return true
        }
        if moved {
            state.withLock { $0.version &+= 1 }
            changed()
        }
    }
    private let watchers = Locked<[@Sendable () -> Void]>([])

    public init() {}

    /// Calls `wake` (from any thread) after every change of a status, so the reader redraws
    /// the status bar at once instead of at its next tick.
    public func watch(_ wake: @escaping @Sendable () -> Void) { watchers.withLock { $0.append(wake) } }

    private func changed() {
        for w in watchers.withLock({ $0 }) { w() }
    }

    public var statuses: [TimelineID: SyncStatus] { state.withLock { $0.statuses } }
    public var counters: SyncCounters { state.withLock { $0.counters } }
    /// Bumped on every change, so a reader can tell cheaply whether to redraw.
    public var version: UInt64 { state.withLock { $0.version } }

    public func status(_ id: TimelineID) -> SyncStatus { state.withLock { $0.statuses[id] ?? SyncStatus() } }

    func update(_ id: TimelineID, _ change: (inout SyncStatus) -> Void) {
        let moved = state.withLock {
            var s = $0.statuses[id] ?? SyncStatus()
            let before = s
            change(&s)
            guard s != before else { return false }
            $0.statuses[id] = s
            $0.version &+= 1
            return true
        }
        if moved { changed() }
    }

    func count(_ change: (inout SyncCounters) -> Void) { state.withLock { change(&$0.counters) } }

    func forget(_ id: TimelineID) {
        state.withLock {
            $0.statuses[id] = nil
            $0.version &+= 1
        }
        changed()
    }
}
