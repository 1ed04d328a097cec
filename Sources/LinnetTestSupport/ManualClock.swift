import Foundation
import Locking
import TwitterAPI

/// A clock that moves only when a test moves it. Code under test that sleeps waits here until
/// `advance` passes its deadline, and `waitForSleepers` tells the test when that code has
/// reached its wait: tests step time explicitly instead of sleeping and hoping.
public final class ManualClock: WallClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Double
        let wake: CheckedContinuation<Void, any Error>
    }
    private struct Watcher {
        let count: Int
        let done: CheckedContinuation<Bool, Never>
    }
    private struct State {
        var now: Double
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var watchers: [UInt64: Watcher] = [:]
    }
    private let state: Locked<State>

    public init(now: Double = 1_800_000_000) {
        state = Locked(State(now: now))
    }

    public func now() -> Double { state.withLock { $0.now } }

    public func sleep(seconds: Double) async throws {
        try await sleep(until: now() + seconds)
    }

    public func sleep(until moment: Double) async throws {
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (wake: CheckedContinuation<Void, any Error>) in
                let ready: [CheckedContinuation<Bool, Never>] = state.withLock { s in
                    if Task.isCancelled {
                        wake.resume(throwing: CancellationError())
                        return []
                    }
                    if moment <= s.now {
                        wake.resume()
                        return []
                    }
                    s.sleepers.append(Sleeper(id: id, deadline: moment, wake: wake))
                    return Self.satisfied(&s)
                }
                for r in ready { r.resume(returning: true) }
            }
        } onCancel: {
            let gone = state.withLock { s -> Sleeper? in
                guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return s.sleepers.remove(at: i)
            }
            gone?.wake.resume(throwing: CancellationError())
        }
    }

    /// Deadlines of the code waiting now, soonest first.
    public var deadlines: [Double] { state.withLock { $0.sleepers.map(\.deadline).sorted() } }

    /// Moves time forward by `seconds` and wakes every sleeper whose deadline has come.
    public func advance(by seconds: Double) {
        let due = state.withLock { s -> [Sleeper] in
            s.now += seconds
            let now = s.now
            let due = s.sleepers.filter { $0.deadline <= now }
            s.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for d in due { d.wake.resume() }
    }

    /// Moves time to the soonest deadline (if any) and wakes what waited for it; returns the
    /// seconds moved.
    @discardableResult
    public func advanceToNextDeadline() -> Double {
        guard let next = deadlines.first else { return 0 }
        let step = max(0, next - now())
        advance(by: step)
        return step
    }

    /// Waits until at least `count` tasks sleep on this clock. Returns false if that has not
    /// happened within `limit` seconds of real time (a guard against a hung test, not a timer
    /// the result depends on).
    public func waitForSleepers(_ count: Int = 1, limit: Double = 30) async -> Bool {
        let key = state.withLock { s -> UInt64 in
            s.nextID += 1
            return s.nextID
        }
        var guardTask: Task<Void, Never>?
        let reached = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            let already = state.withLock { s -> Bool in
                if s.sleepers.count >= count { return true }
                s.watchers[key] = Watcher(count: count, done: done)
                return false
            }
            if already {
                done.resume(returning: true)
                return
            }
            guardTask = Task { [state] in
                try? await Task.sleep(nanoseconds: Checked.nanoseconds(limit))
                let w = state.withLock { $0.watchers.removeValue(forKey: key) }
                w?.done.resume(returning: false)
            }
        }
        guardTask?.cancel()
        return reached
    }

    private static func satisfied(_ s: inout State) -> [CheckedContinuation<Bool, Never>] {
        let n = s.sleepers.count
        let ready = s.watchers.filter { $0.value.count <= n }
        for k in ready.keys { s.watchers[k] = nil }
        return ready.values.map(\.done)
    }
}
