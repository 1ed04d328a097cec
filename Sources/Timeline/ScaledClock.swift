import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// For runs against a live server on loopback: backoffs and poll intervals are shortened by
/// `scale`, while `now` and waits for a time the server named (a rate-limit reset) stay on the
/// system clock, because the server counts its windows there.
public struct ScaledClock: WallClock {
    public let scale: Double
    public init(scale: Double) { self.scale = scale }
    public func now() -> Double { Date().timeIntervalSince1970 }
    public func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: Checked.nanoseconds(seconds * scale))
    }
    public func sleep(until moment: Double) async throws {
        try await Task.sleep(nanoseconds: Checked.nanoseconds(moment - now()))
    }
}
