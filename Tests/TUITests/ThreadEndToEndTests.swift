import Foundation
import Testing
import TwitterAPI

extension TerminalTests {
    /// The thread box under a real terminal on both APIs: three tweets sent in order, each a
    /// reply to the one before (read back from the simulator); a thread whose second tweet the
    /// server refuses keeps the rest in the box, continuing from the first.
    @Suite(.serialized) struct ThreadEndToEndTests {
        @Test(arguments: ["v1", "v2"]) func threadsSendInOrderAndStopKeepingTheRest(api: String) async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let demo = try await DemoEndToEndTests.Pane.start(
                "thread", arguments: "--api \(api) --tweets-per-minute 0", width: 100, height: 30)
            defer { demo.end() }
            let tmux = demo.tmux
            let base = demo.base
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: ") && $0.contains("▌") }
            #expect(ok, "no timeline:\n\(screen)")
            func write(_ parts: [String]) async throws {
                for (i, p) in parts.enumerated() {
                    if i > 0 {
                        try await tmux.keys("C-j")
                        // After `--`: tmux would read a bare `---` as options.
                        try await Tmux.run(["send-keys", "-t", tmux.name, "-l", "--", "---"])
                        try await tmux.keys("C-j")
                    }
                    try await tmux.type(p)
                    _ = try await tmux.wait(10) { $0.contains(p) }
                }
            }
            let stamp = String(demo.port)
            try await tmux.keys("N")
            (ok, screen) = try await tmux.wait(10) { $0.contains("Thread · tweet 1 of 1") }
            #expect(ok, "no thread box:\n\(screen)")
            let parts = ["A thread \(stamp), first 🐦", "second of three", "third and last"]
            try await write(parts)
            (ok, screen) = try await tmux.wait(10) { $0.contains("Thread · tweet 3 of 3") }
            #expect(ok, "not three tweets:\n\(screen)")
            try await tmux.keys("Enter")
            (ok, screen) = try await tmux.wait(20) { $0.contains(Words3.sent) }
            #expect(ok, "the thread was not sent:\n\(screen)")
            let client = try await DemoEndToEndTests.simClient(base)
            let mine = try await client.userTimeline(screenName: "linnet_demo", .init(count: 3)).tweets.reversed().map { $0 }
            #expect(mine.map(\.text) == parts, "\(mine.map(\.text))")
            #expect(mine.count == 3 && mine[1].inReplyToStatusID == mine[0].id && mine[2].inReplyToStatusID == mine[1].id)

            // The second is the first again: X refuses a duplicate of one's last tweet.
            try await tmux.keys("N")
            _ = try await tmux.wait(10) { $0.contains("Thread · tweet 1 of 1") }
            try await write(["again \(stamp)", "again \(stamp)", "the end \(stamp)"])
            try await tmux.keys("Enter")
            (ok, screen) = try await tmux.wait(20) { $0.contains("1 of 3 sent, then") }
            #expect(ok, "no stop:\n\(screen)")
            #expect(screen.contains("Thread · tweet 2 of 2") || screen.contains("again \(stamp)"), "the rest is not in the box:\n\(screen)")
            let after = try await client.userTimeline(screenName: "linnet_demo", .init(count: 1)).tweets[0]
            #expect(after.text == "again \(stamp)" && after.inReplyToStatusID == nil)
            try await tmux.keys("Escape")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") || $0.contains("Quit") || $0.contains("draft") }
            if !screen.contains("LINNET-EXITED=0") { try await tmux.keys("y") }
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit:\n\(screen)")
            // The rest was kept as a draft, continuing from the tweet that went.
            let drafts = try String(contentsOfFile: demo.stateDir + "/draft.json", encoding: .utf8)
            #expect(
                drafts.contains("the end \(stamp)") && drafts.contains(after.id.description) && drafts.contains("\"thread\""), "\(drafts)")
        }
    }
}

private enum Words3 { static let sent = "Thread of 3 sent." }
