import Foundation
import TwitterAPI

/// Sleeps for a scaled time: backoffs in tests pass quickly, the rules stay the same.
struct ScaledClock: StreamClock {
    let scale: Double
    func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: Checked.nanoseconds(seconds * scale))
    }
}
