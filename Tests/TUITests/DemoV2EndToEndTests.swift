import Foundation
import Testing
import TwitterAPI

extension TerminalTests {
    /// `linnet demo --api v2` under tmux: the reader signs in with OAuth 2.0 tokens, polls the
    /// simulator's v2 face (on self-serve, where v1.1 answers 453, so nothing else could fill the
    /// panes), and shows the tier's refusal of a like in words.
    @Suite(.serialized) struct DemoV2EndToEndTests {
        @Test func readsThroughV2OnSelfServeAndSaysWhatTheTierRefuses() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let demo = try await DemoEndToEndTests.Pane.start(
                "e2e-v2", arguments: "--api v2 --tier self-serve --tweets-per-minute 0", then: "echo LINNET-EXITED=$?; sleep 120",
                width: 140,
                height: 30)
            defer { demo.end() }
            let tmux = demo.tmux
            let base = demo.base

            var (ok, screen) = try await tmux.wait(30) {
                $0.contains("@linnet_demo · ≈ $") && $0.contains("Home: polling") && $0.contains("Mentions: polling") && $0.contains("▌")
            }
            #expect(ok, "no timeline appeared through v2:\n\(screen)")
            guard ok else { return }
            func simUsage() async throws -> JSONValue {
                try JSONValue.parse(try await HTTPClient().send(HTTPRequest(method: "GET", url: base + "/_sim/usage")).body)
            }
            let usage = try await simUsage()
            #expect(usage["tier"]?.stringValue == "self-serve")
            #expect((usage["post_reads"]?.intValue ?? 0) > 0, "the simulator billed no post reads: \(usage)")
            // The meter shows what the simulator billed (nothing new is posted, so it settles).
            var expected = ""
            (ok, screen) = try await tmux.wait(
                20,
                until: { screen in
                    guard let cost = try? await simUsage()["cost_usd"]?.doubleValue else { return false }
                    expected = "≈ " + String(format: cost < 0.01 ? "$%.3f" : "$%.2f", cost) + " today"
                    return screen.contains(expected)
                })
            #expect(ok, "the meter does not show the simulator's \(expected):\n\(screen)")

            // Self-serve has no likes: the refusal is on screen in words, and the reader goes on.
            try await tmux.keys("f")
            (ok, screen) = try await tmux.wait { $0.contains("does not include this") }
            #expect(ok, "no refusal shown:\n\(screen)")

            // It polled as config.toml's default minute says, not every few seconds: one read of
            // each pane so far (the test ran well under a minute).
            let homeReads = try await HTTPClient().send(HTTPRequest(method: "GET", url: base + "/_sim/requests")).body
            let requests =
                (try? JSONValue.parse(homeReads)).flatMap { v -> [JSONValue]? in if case .array(let a) = v { return a } else { return nil }
                } ?? []
            let home = requests.filter { $0["path"]?.stringValue?.hasSuffix("/timelines/reverse_chronological") == true }
            #expect(home.count <= 2, "\(home.count) home reads")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "linnet did not exit cleanly:\n\(screen)")
            // What the demo counted is said as it ends, and that it is not kept.
            #expect(screen.contains("The demo's reading would have cost ≈ $") && screen.contains("It is not kept"), "\(screen)")
        }
    }
}
