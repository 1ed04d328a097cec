import Foundation
import LinnetTestSupport
import Timeline
import TwitterAPI
import TwitterSimulator

/// A simulator, a client, a store and a sync engine logged in as the demo user.
struct SyncHarness: Sendable {
    let sim: ClientHarness
    let store: TimelineStore
    let engine: SyncEngine

    static func start(
        options: SyncOptions = SyncOptions(), _ tweak: (inout SimulatorConfiguration) -> Void = { _ in }
    ) async throws -> SyncHarness {
        let sim = try await ClientHarness.start(tweak)
        let me = try await sim.client.verifyCredentials()
        let store = TimelineStore()
        var o = options
        // Backoffs and polls fifty times faster unless the test brought its own clock.
        if o.clock is SystemClock { o.clock = ScaledClock(scale: 0.02) }
        let engine = SyncEngine(client: sim.client, store: store, account: me, options: o)
        return SyncHarness(sim: sim, store: store, engine: engine)
    }

    func stop() async {
        await engine.stop()
        await sim.stop()
    }

    /// Ids a timeline holds, newest first.
    func held(_ id: TimelineID) async -> [String] {
        await store.view(id).ids.map(\.description)
    }

    /// Waits (up to `seconds`) until the condition holds; returns whether it did.
    func eventually(_ seconds: Double = 30, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try await condition() { return true }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return try await condition()
    }

    /// Sets the simulator's faults from a JSON plan.
    func faults(_ json: String) async throws {
        _ = try await sim.control("POST", "/_sim/faults", body: json, json: true)
    }

    /// The simulator's request log.
    func requests() async throws -> [JSONValue] {
        let r = try await sim.control("GET", "/_sim/requests")
        guard case .array(let items) = try JSONValue.parse(r.body) else { return [] }
        return items
    }
}
