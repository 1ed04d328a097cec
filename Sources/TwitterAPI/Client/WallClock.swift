import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Sleeps between reconnects; tests pass one that records instead of waiting.
public protocol StreamClock: Sendable {
    func sleep(seconds: Double) async throws
}

/// Time as the sync engine and the app loop see it. Their logic asks this and nothing else, so
/// tests can drive it by hand (no sleeps) and production reads the system clock.
public protocol WallClock: StreamClock {
    /// Seconds since 1970.
    func now() -> Double
    /// Waits until `moment` on this clock: a time the server named, such as a rate-limit reset.
    func sleep(until moment: Double) async throws
}

extension WallClock {
    public func sleep(until moment: Double) async throws {
        try await sleep(seconds: moment - now())
    }
}

/// The system's clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Double { Date().timeIntervalSince1970 }
    public func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: Checked.nanoseconds(seconds))
    }
}
