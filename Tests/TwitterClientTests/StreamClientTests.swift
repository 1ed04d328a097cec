import Foundation
import LinnetTestSupport
import Locking
import Testing
import TwitterAPI
import TwitterSimulator

/// Records reconnect delays instead of sleeping them.
final class RecordingClock: StreamClock {
    private let delays = Locked<[Double]>([])
    var recorded: [Double] { delays.withLock { $0 } }
    func sleep(seconds: Double) async throws {
        delays.withLock { $0.append(seconds) }
        try await Task.sleep(nanoseconds: 20_000_000)
    }
}

/// The stream client against the simulator under each fault; delays checked on the clock.
@Suite(.serialized) struct StreamClientTests {
    /// Reads events until `done` says stop (or a time limit passes); returns them.
    func collect(_ stream: AsyncStream<StreamEvent>, limit: Double = 10, until done: @escaping @Sendable ([StreamEvent]) -> Bool) async
        -> [StreamEvent]
    {
        let box = Locked<[StreamEvent]>([])
        let reader = Task {
            for await e in stream {
                let stop = box.withLock { all -> Bool in
                    all.append(e)
                    return done(all)
                }
                if stop { break }
            }
        }
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(limit * 1e9))
            reader.cancel()
        }
        await reader.value
        timer.cancel()
        return box.withLock { $0 }
    }

    /// Reads events one at a time and hands each to `step` with all seen so far; `step` acts on
    /// what it sees (that is the signal to go on) and returns true to stop. A time limit guards
    /// against a hang; no result depends on it.
    func drive(
        _ stream: AsyncStream<StreamEvent>, limit: Double = 15,
        _ step: @escaping @Sendable (StreamEvent, [StreamEvent]) async throws -> Bool
    ) async -> [StreamEvent] {
        let reader = Task { () -> [StreamEvent] in
            var all: [StreamEvent] = []
            for await e in stream {
                all.append(e)
                if (try? await step(e, all)) ?? true { break }
            }
            return all
        }
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(limit * 1e9))
            reader.cancel()
        }
        let all = await reader.value
        timer.cancel()
        return all
    }

    static func isStreaming(_ e: StreamEvent) -> Bool { if case .state(.streaming) = e { return true } else { return false } }
    static func tweet(_ e: StreamEvent) -> String? { if case .message(.tweet(let t)) = e { return t.text } else { return nil } }

    func tweets(_ events: [StreamEvent]) -> [String] {
        events.compactMap { if case .message(.tweet(let t)) = $0 { return t.text } else { return nil } }
    }

    func inject(_ h: ClientHarness, _ text: String) async throws {
        _ = try await h.control("POST", "/_sim/tweet", body: "author=ada&text=" + PercentEncoding.encode(text))
    }

    func streaming(_ events: [StreamEvent]) -> Int {
        events.filter { if case .state(.streaming) = $0 { return true } else { return false } }.count
    }

    @Test func userStreamDeliversAndDropsAreReconnectedAtOnce() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        #expect(try await h.control("POST", "/_sim/faults", body: #"{"dropStreamAfterMessages":3}"#, json: true).status == 200)
        let clock = RecordingClock()
        let stream = h.client.stream(.user, clock: clock)
        // The next tweet goes in when the stream is up or the last one came through; one
        // sent while the stream is down is missed, and the reconnect sends another.
        let next = Locked(0)
        let events = await drive(stream) { e, all in
            if Self.isStreaming(e) || Self.tweet(e) != nil {
                let i = next.withLock { n -> Int in
                    n += 1
                    return n - 1
                }
                try await inject(h, "hello @linnet_demo \(i)")
            }
            return self.tweets(all).count >= 4
        }
        #expect(tweets(events).prefix(2) == ["hello @linnet_demo 0", "hello @linnet_demo 1"])
        #expect(streaming(events) >= 2, "the client must have reconnected after the drop")
        #expect(clock.recorded.first == 0, "the first reconnect after a drop is immediate")
        #expect(events.contains { if case .message(.friends) = $0 { return true } else { return false } })
    }

    @Test func httpErrorsAnd420BackOffByTheRules() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        _ = try await h.control(
            "POST", "/_sim/faults",
            body:
                #"{"statusFaults":[{"path":"/1.1/statuses/filter.json","status":503,"count":2},{"path":"/1.1/statuses/sample.json","status":420,"count":2},{"path":"/1.1/user.json","status":429,"count":1}]}"#,
            json: true)
        let clock = RecordingClock()
        let filter = h.client.stream(.filter(track: ["zebra"], follow: []), clock: clock)
        let events = await collect(filter) { self.streaming($0) >= 1 }
        #expect(clock.recorded == [5, 10])
        #expect(events.contains { if case .state(.waiting(_, let why)) = $0 { return why.contains("503") } else { return false } })

        let calm = RecordingClock()
        _ = await collect(h.client.stream(.sample, clock: calm)) { self.streaming($0) >= 1 }
        #expect(calm.recorded == [60, 120])

        let limited = RecordingClock()
        _ = await collect(h.client.stream(.user, clock: limited)) { self.streaming($0) >= 1 }
        #expect(limited.recorded == [60])
    }

    @Test func stallIsDetectedByTheWatchdogAndReconnected() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        _ = try await h.control("POST", "/_sim/faults", body: #"{"stallStreamSeconds":30,"stallAfterMessages":0}"#, json: true)
        let clock = RecordingClock()
        let events = await collect(h.client.stream(.sample, stallTimeout: 2, clock: clock), limit: 15) { self.streaming($0) >= 2 }
        #expect(streaming(events) >= 2)
        let waited = events.compactMap { e -> String? in if case .state(.waiting(_, let why)) = e { return why } else { return nil } }
        #expect(waited.first?.contains("no data from the server") == true)
    }

    @Test func brokenFramesAndTruncatedJSONAreSkipped() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let stream = h.client.stream(.sample, clock: RecordingClock())
        // Up: one truncated message, then "two"; once "two" is seen, one broken frame, then "four".
        let all = await drive(stream) { e, _ in
            if Self.isStreaming(e) {
                _ = try await h.control("POST", "/_sim/faults", body: #"{"truncatedMessages":1}"#, json: true)
                try await inject(h, "one")
                try await inject(h, "two")
            }
            if Self.tweet(e) == "two" {
                _ = try await h.control("POST", "/_sim/faults", body: #"{"malformedFrames":1}"#, json: true)
                try await inject(h, "three")
                try await inject(h, "four")
            }
            return Self.tweet(e) == "four"
        }
        let skipped = all.filter { if case .skipped = $0 { return true } else { return false } }
        #expect(skipped.count >= 2)
        #expect(tweets(all).contains("two") && tweets(all).contains("four"))
        #expect(!tweets(all).contains("one"))
    }

    @Test func noticesArriveAsMessages() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let stream = h.client.stream(.sample, clock: RecordingClock())
        // Notices once the stream is up; the disconnect once the last of them came through.
        let events = await drive(stream) { e, all in
            if Self.isStreaming(e) && all.filter(Self.isStreaming).count == 1 {
                _ = try await h.control("POST", "/_sim/notice", body: "kind=limit&track=3")
                _ = try await h.control("POST", "/_sim/notice", body: "kind=unknown")
                _ = try await h.control("POST", "/_sim/notice", body: "kind=warning")
            }
            if case .message(.warning) = e { _ = try await h.control("POST", "/_sim/notice", body: "kind=disconnect&code=7") }
            if case .statistics = e { return true }
            return false
        }
        #expect(events.contains { if case .message(.limit(3)) = $0 { return true } else { return false } })
        #expect(events.contains { if case .message(.warning) = $0 { return true } else { return false } })
        #expect(
            !events.contains { if case .message(.unknown) = $0 { return true } else { return false } }, "unknown kinds are not passed on")
        let stats = events.compactMap { e -> StreamStatistics? in if case .statistics(let s) = e { return s } else { return nil } }.last
        #expect(stats?.unknown == 1 && stats?.reconnects == 1)
    }
}
