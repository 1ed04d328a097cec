import Foundation
import Testing

extension TerminalTests {
    /// A profile under a real terminal on both APIs: `p` on a tweet shows its author, `f` asks
    /// and unfollows (the server agrees: the profile is read again), `1` lists their followers.
    @Suite(.serialized) struct PeopleEndToEndTests {
        @Test(arguments: ["v1", "v2"]) func profileFollowAndFollowers(api: String) async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let demo = try await DemoEndToEndTests.Pane.start(
                "people", arguments: "--api \(api) --tweets-per-minute 0", width: 110, height: 32)
            defer { demo.end() }
            let tmux = demo.tmux
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: ") && $0.contains("▌") }
            #expect(ok, "no timeline:\n\(screen)")
            // Down to a tweet by someone else: the newest may be the demo account's own.
            let lines = screen.split(separator: "\n").map(String.init)
            let heading = try #require(lines.first { $0.hasPrefix("▌ ") })
            let handle = try #require(heading.split(separator: " ").first { $0.hasPrefix("@") }).dropFirst()
            try #require(handle != "linnet_demo", "the newest tweet is the demo account's own:\n\(screen)")
            try await tmux.keys("p")
            (ok, screen) = try await tmux.wait(15) { $0.contains("Profile") && $0.contains("followers") }
            #expect(ok, "no profile:\n\(screen)")
            #expect(screen.contains("@\(handle)") && screen.contains("you follow them"), "\(screen)")
            try await tmux.keys("f")
            (ok, screen) = try await tmux.wait(10) { $0.contains("Unfollow @\(handle)?") }
            #expect(ok, "not asked:\n\(screen)")
            try await tmux.keys("y")
            (ok, screen) = try await tmux.wait(15) { $0.contains("You no longer follow @\(handle).") }
            #expect(ok, "no unfollow:\n\(screen)")
            #expect(!screen.contains("you follow them"), "the profile still says you follow them:\n\(screen)")
            try await tmux.keys("1")
            (ok, screen) = try await tmux.wait(15) { $0.contains("Followers of @\(handle)") || $0.contains("Nobody here yet.") }
            #expect(ok, "no followers:\n\(screen)")
            try await tmux.keys("Escape")
            try await tmux.keys("Escape")
            (ok, screen) = try await tmux.wait(10) { !$0.contains("Profile") }
            #expect(ok, "the profile did not close:\n\(screen)")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit:\n\(screen)")
        }
    }
}
