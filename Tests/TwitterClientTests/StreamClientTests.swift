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
        let feeder = Task {
            for i in 0..<6 {
                try await Task.sleep(nanoseconds: 300_000_000)
                try await inject(h, "hello @linnet_demo \(i)")
            }
        }
        let events = await collect(stream) { self.tweets($0).count >= 4 }
        feeder.cancel()
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
        let events = Locked<[StreamEvent]>([])
        let stream = h.client.stream(.sample, clock: RecordingClock())
        let reader = Task {
            for await e in stream { events.withLock { $0.append(e) } }
        }
        try await Task.sleep(nanoseconds: 500_000_000)
        _ = try await h.control("POST", "/_sim/faults", body: #"{"truncatedMessages":1}"#, json: true)
        try await inject(h, "one")
        try await inject(h, "two")
        try await Task.sleep(nanoseconds: 500_000_000)
        _ = try await h.control("POST", "/_sim/faults", body: #"{"malformedFrames":1}"#, json: true)
        try await inject(h, "three")
        try await inject(h, "four")
        try await Task.sleep(nanoseconds: 800_000_000)
        reader.cancel()
        let all = events.withLock { $0 }
        let skipped = all.filter { if case .skipped = $0 { return true } else { return false } }
        #expect(skipped.count >= 2)
        #expect(tweets(all).contains("two") && tweets(all).contains("four"))
        #expect(!tweets(all).contains("one"))
    }

    @Test func noticesArriveAsMessages() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let stream = h.client.stream(.sample, clock: RecordingClock())
        let sender = Task {
            try await Task.sleep(nanoseconds: 500_000_000)
            _ = try await h.control("POST", "/_sim/notice", body: "kind=limit&track=3")
            _ = try await h.control("POST", "/_sim/notice", body: "kind=unknown")
            _ = try await h.control("POST", "/_sim/notice", body: "kind=warning")
            try await Task.sleep(nanoseconds: 300_000_000)
            _ = try await h.control("POST", "/_sim/notice", body: "kind=disconnect&code=7")
        }
        let events = await collect(stream) { all in all.contains { if case .statistics = $0 { return true } else { return false } } }
        sender.cancel()
        #expect(events.contains { if case .message(.limit(3)) = $0 { return true } else { return false } })
        #expect(events.contains { if case .message(.warning) = $0 { return true } else { return false } })
        #expect(
            !events.contains { if case .message(.unknown) = $0 { return true } else { return false } }, "unknown kinds are not passed on")
        let stats = events.compactMap { e -> StreamStatistics? in if case .statistics(let s) = e { return s } else { return nil } }.last
        #expect(stats?.unknown == 1 && stats?.reconnects == 1)
    }
}
