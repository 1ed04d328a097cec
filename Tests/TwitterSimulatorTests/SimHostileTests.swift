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
        let world = await sim.server.world
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
        let world = await sim.server.world
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

/// A picture's header read as a server reads it: PNG, GIF, JPEG (after an APP segment).
@Suite struct MediaHeaderTests {
    @Test func sizesFromHeaders() {
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 4, 0xB0, 0, 0, 2, 0xA3]
        #expect(MediaHeader.size(png)! == (1200, 675))
        #expect(MediaHeader.size(Array("GIF89a".utf8) + [0x20, 0x03, 0x58, 0x02])! == (800, 600))
        let jpeg: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array(repeating: 0, count: 14) + [0xFF, 0xC0, 0, 17, 8, 0x01, 0xE0, 0x02, 0x80, 3]
            + Array(repeating: 0, count: 12)
        #expect(MediaHeader.size(jpeg)! == (640, 480))
        #expect(MediaHeader.size(Array("hello, world".utf8)) == nil)
        #expect(MediaHeader.fileExtension(png, type: "image/jpeg") == "png")
        #expect(MediaHeader.fileExtension([], type: "video/mp4") == "mp4")
    }
}
