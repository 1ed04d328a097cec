import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI

@testable import TwitterSimulator

/// Users, rate-limit windows and what the simulator answers to bad input, as Twitter did.
@Suite(.serialized) struct SimLimitTests {
    @Test func usersRateLimitStatusAndUnknownEndpoints() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let ada = try V1Decoder().user(from: try await sim.call("GET", "/1.1/users/show.json", [("screen_name", "ada")]).body)
        #expect(ada.name == "Ada Byron")
        #expect(try await sim.call("GET", "/1.1/users/show.json", [("screen_name", "nobody_here")]).status == 404)
        _ = try await sim.call("GET", "/1.1/statuses/home_timeline.json")
        let limits = try V1Decoder().rateLimitStatus(from: try await sim.call("GET", "/1.1/application/rate_limit_status.json").body)
        #expect(limits.context == .user)
        #expect(limits.limit(for: "/statuses/home_timeline")?.limit == 15)
        #expect(limits.limit(for: "/statuses/home_timeline")?.remaining == 14)
        #expect(limits.limit(for: "/search/tweets")?.limit == 180)
        let unknown = try await sim.call("GET", "/1.1/statuses/no_such_thing.json")
        #expect(unknown.status == 404 && sim.errorCode(unknown) == 34)
        #expect(try await sim.raw("GET", "/favicon.ico").status == 404)
    }

    @Test func rateLimitsCountDownThen429UntilTheWindowResets() async throws {
        let sim = try await SimHarness.start { $0.rateLimitWindowSeconds = 120 }
        defer { Task { await sim.stop() } }
        var last: RawHTTP.Response?
        for i in 0..<15 {
            last = try await sim.call("GET", "/1.1/statuses/home_timeline.json", [("count", "1")])
            #expect(last?.status == 200)
            #expect(last?.headers["x-rate-limit-remaining"] == String(14 - i))
        }
        #expect(last?.headers["x-rate-limit-limit"] == "15")
        let limited = try await sim.call("GET", "/1.1/statuses/home_timeline.json")
        #expect(limited.status == 429 && sim.errorCode(limited) == 88)
        let reset = try #require(limited.headers["x-rate-limit-reset"].flatMap(Int64.init))
        #expect(reset >= Int64(Date().timeIntervalSince1970))
        // Other endpoints have their own windows.
        #expect(try await sim.call("GET", "/1.1/statuses/mentions_timeline.json").status == 200)
        // Still limited a second before the reset the server announced; fresh once it has
        // come. The simulator's clock is moved, not waited for (120 s stays inside the 300 s
        // it allows between an OAuth timestamp and its own time).
        let now = Int64(Date().timeIntervalSince1970)
        #expect(try await sim.control("POST", "/_sim/clock", body: "offset=\(reset - now - 2)").status == 200)
        #expect(try await sim.call("GET", "/1.1/statuses/home_timeline.json").status == 429)
        #expect(try await sim.control("POST", "/_sim/clock", body: "offset=\(reset - now + 1)").status == 200)
        #expect(try await sim.call("GET", "/1.1/statuses/home_timeline.json").status == 200)
    }

    @Test func badInputGetsTwitterErrorsNotCrashes() async throws {
        let sim = try await SimHarness.start { $0.maxBodyBytes = 4096 }
        defer { Task { await sim.stop() } }
        let huge = Data(repeating: UInt8(ascii: "a"), count: 10_000)
        let big = try await sim.raw(
            "POST", "/1.1/statuses/update.json", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: huge)
        #expect(big.status == 413)
        // Invalid UTF-8 in a percent-encoded status is answered, not crashed on.
        let target = "/1.1/statuses/update.json?status=%FF%FEbad"
        let auth = try OAuth1Signer().authorizationHeader(
            method: "POST", url: sim.base + "/1.1/statuses/update.json?status=bad", credentials: sim.credentials)
        let invalid = try await sim.raw("POST", target, headers: [("Authorization", auth)])
        #expect(invalid.status == 401)
        let garbage = try await sim.raw("GET", "/1.1/account/verify_credentials.json", headers: [("Authorization", "OAuth garbage")])
        #expect(garbage.status == 400 && sim.errorCode(garbage) == 215)
        #expect(try await sim.call("GET", "/1.1/account/verify_credentials.json").status == 200)
    }
}
