import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI

@testable import TwitterSimulator

/// Numbers a hostile client can send the simulator: none may crash it.
@Suite struct SimHostileTests {
    @Test(arguments: [Int64.min, Int64.max, -1])
    func extremeTimestampsAreRefusedNotTrappedOn(_ timestamp: Int64) async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let signer = OAuth1Signer(nonce: { UUID().uuidString.replacingOccurrences(of: "-", with: "") }, timestamp: { timestamp })
        let r = try await sim.call("GET", "/1.1/account/verify_credentials.json", signer: signer)
        #expect(r.status == 401 && sim.errorCode(r) == 135)
        // Still serving.
        #expect(try await sim.call("GET", "/1.1/account/verify_credentials.json").status == 200)
    }

    @Test func hugeClockAndFaultNumbersAreClamped() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        #expect(try await sim.control("POST", "/_sim/clock?offset=9223372036854775807").status == 200)
        #expect(try await sim.control("POST", "/_sim/clock?offset=-9223372036854775808").status == 200)
        let plan = #"{"delayMilliseconds": 9223372036854775807, "stallStreamSeconds": 1e300}"#
        let set = try await RawHTTP.send(
            port: sim.port, method: "POST", target: "/_sim/faults",
            headers: [("Content-Type", "application/json")], body: Data(plan.utf8))
        #expect(set.status == 200)
        #expect(try await sim.control("POST", "/_sim/faults", body: "").status != 500)
        let world = sim.server.world
        let faults = await world.faults
        #expect(faults.delayMilliseconds == 600_000)
        #expect(faults.stallStreamSeconds == 3600)
        #expect(await world.clockOffset == -315_360_000)
    }
}
