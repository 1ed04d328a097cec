import FoundationEssentials
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Runs jobs one after another, in the order they were given, off the main actor: the store
/// and engine calls of a turn's effects land in the order the reducer returned them (two
/// quick `setAnchor`s can no longer overtake each other). A job that waits on the network
/// starts its own task, so it does not hold up the ones behind it.
public final class EffectQueue: Sendable {
    public typealias Job = @Sendable () async -> Void
    private let jobs: AsyncStream<Job>.Continuation
    private let worker: Task<Void, Never>

    public init() {
        let (stream, continuation) = AsyncStream<Job>.makeStream()
        jobs = continuation
        worker = Task.detached {
            for await job in stream { await job() }
        }
    }

    deinit {
        jobs.finish()
    }

    /// Jobs added while held, in order; nil when not held.
    private let held = Locked<[Job]?>(nil)

    public func add(_ job: @escaping Job) {
        held.withLock { h in if h != nil { h!.append(job) } else { jobs.yield(job) } }
    }

    /// Keeps the jobs added from now until `release()`: a turn's effects start once its frame
    /// is written, so the worker's wake-up cannot take the core the frame is being made on.
    public func hold() { held.withLock { if $0 == nil { $0 = [] } } }

    /// Whether jobs added now wait for `release()`.
    public var isHeld: Bool { held.withLock { $0 != nil } }

    /// Starts the jobs kept since `hold()`, in order.
    public func release() {
        held.withLock { h in
            for job in h ?? [] { jobs.yield(job) }
            h = nil
        }
    }

    /// Waits until every job added so far has run.
    public func drain() async {
        release()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            jobs.yield { done.resume() }
        }
    }
}

/// Results from network tasks, waiting for the UI loop.
final class Inbox: Sendable {
    private let items = Locked<[Action]>([])
    func post(_ a: Action) { items.withLock { $0.append(a) } }
    var isEmpty: Bool { items.withLock { $0.isEmpty } }
    func take() -> [Action] {
        items.withLock {
            let all = $0
            $0 = []
            return all
        }
    }
}
