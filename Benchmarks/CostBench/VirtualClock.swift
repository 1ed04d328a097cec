import Foundation
import TwitterAPI

/// A day in a minute: virtual time runs `1 / scale` times faster than the system clock, from
/// `origin`; waits are real waits of `scale` times their length.
struct VirtualClock: WallClock {
    let origin: Double
    let realStart: Double
    let scale: Double

    init(origin: Double, scale: Double) {
        self.origin = origin
        self.scale = scale
        realStart = Date().timeIntervalSince1970
    }

    func now() -> Double { origin + (Date().timeIntervalSince1970 - realStart) / scale }

    func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: Checked.nanoseconds(max(0, seconds) * scale))
    }

    func sleep(until moment: Double) async throws { try await sleep(seconds: moment - now()) }
}
