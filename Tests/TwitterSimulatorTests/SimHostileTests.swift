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

/// The sign-in page against unauthenticated page loads: parameters bounded as X bounds them,
/// pending sign-ins bounded in count and age, codes gone after 30 s.
@Suite struct SimSignInPageTests {
    static func page(_ world: World, state: String, challenge: String) async -> Int {
        let q = FormCoding.encode([
            ("response_type", "code"), ("client_id", SimulatorConfiguration().oauth2ClientID),
            ("redirect_uri", "http://localhost:8080/callback"), ("scope", "tweet.read users.read"), ("state", state),
            ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ])
        let r = SimRequest(method: "GET", rawPath: "/i/oauth2/authorize", rawQuery: q, headers: [:], body: Data())
        return await world.oauth2AuthorizePage(r).status
    }

    @Test func absurdParametersAreRefusedAndPendingSignInsAreBounded() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let world = sim.server.world
        let challenge = String(repeating: "c", count: 43)
        #expect(await Self.page(world, state: String(repeating: "s", count: 501), challenge: challenge) == 400)
        #expect(await Self.page(world, state: "s", challenge: String(repeating: "c", count: 129)) == 400)
        #expect(await Self.page(world, state: "s", challenge: String(repeating: "c", count: 42)) == 400)
        #expect(await Self.page(world, state: "s", challenge: String(repeating: "<", count: 43)) == 400)
        #expect(await world.oauth2Pending.isEmpty)
        for i in 0..<(World.pendingLimit + 500) {
            #expect(await Self.page(world, state: "s\(i)", challenge: challenge) == 200)
        }
        #expect(await world.oauth2Pending.count == World.pendingLimit)
        // Over HTTP too: the page still loads, and a request of absurd size is refused.
        let q =
            "/i/oauth2/authorize?response_type=code&client_id=\(SimulatorConfiguration().oauth2ClientID)&state="
            + String(repeating: "x", count: 4000)
        #expect(try await RawHTTP.send(port: sim.port, method: "GET", target: q).status == 400)
        // Age: an hour later every one has gone at the next page.
        _ = try await sim.control("POST", "/_sim/clock?offset=3600")
        #expect(await Self.page(world, state: "late", challenge: challenge) == 200)
        #expect(await world.oauth2Pending.count == 1)
    }
}
