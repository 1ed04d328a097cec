#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a pthread mutex. Used instead of `Synchronization.Mutex`, which on Linux
/// locks with futex calls that ThreadSanitizer cannot see, so `make sanitize` reported every
/// access under it as a race; ThreadSanitizer understands pthread mutexes (DECISIONS.md).
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inline(__always)
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
