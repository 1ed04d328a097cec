import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Blocking work (a child process, a socket poll, fsync in a loop) kept off Swift's task pool,
/// which has one thread a core: a task blocked there holds up every other task, the in-process
/// simulator's among them (DECISIONS.md, "make sanitize").
public enum Blocking {
    /// Runs `work` on a thread of its own and hands back its result.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
            startThread { c.resume(with: Result { try work() }) }
        }
    }
}
