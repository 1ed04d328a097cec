import Foundation

/// Blocking work (a child process, a socket poll, fsync in a loop) kept off Swift's task pool,
/// which has one thread a core: a task blocked there holds up every other task, the in-process
/// simulator's among them (DECISIONS.md, "make sanitize").
public enum Blocking {
    /// Runs `work` on a thread of its own and hands back its result.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
            Thread { c.resume(with: Result { try work() }) }.start()
        }
    }
}
