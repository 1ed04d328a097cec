import Foundation
import Testing
import TwitterAPI
import TwitterSimulator

extension TerminalTests {
    /// `linnet` for an app-only account (`login --app-only`) under tmux: it reads searches and user
    /// timelines by polling, and answers every write key with why it cannot.
    @Suite(.serialized) struct AppOnlyEndToEndTests {
        @Test func appOnlyReaderSearchesAndRefusesWrites() async throws {
            guard let home = try await AccountHome.start("apponly-e2e") else { return }
            defer { home.end() }
            let (server, c, vars) = (home.server, home.server.credentials, home.variables)
            let (status, output) = try await home.linnet([
                "login", "--app-only", "--api", "v1.1", "--api-base", server.baseURL,
                "--consumer-key", c.consumerKey, "--consumer-secret", c.consumerSecret, "--name", "reader",
            ])
            #expect(status == 0, "\(output)")

            // With no search or user pane to open, it says what it can read and exits with 2.
            do {
                let bare = try await Tmux.start(
                    "env \(vars) \(DemoEndToEndTests.binary); echo LINNET-EXITED=$?; sleep 60", width: 100, height: 10)
                defer { bare.kill() }
                let (ok, screen) = try await bare.wait(20) { $0.contains("LINNET-EXITED=") }
                #expect(ok && screen.contains("LINNET-EXITED=2") && screen.contains("linnet --search QUERY"), "\(screen)")
            }

            let tmux = try await Tmux.start(
                "env \(vars) \(DemoEndToEndTests.binary) --search linnet --user linnet_demo; echo LINNET-EXITED=$?; sleep 60",
                width: 100, height: 30)
            defer { tmux.kill() }
            var (ok, screen) = try await tmux.wait(30) { $0.contains("reader (app-only) · Search: linnet: polling") && $0.contains("▌") }
            #expect(ok, "no search results for the app-only reader:\n\(screen)")
            #expect(!screen.contains("1 Home"), "an app-only reader has no Home pane:\n\(screen)")

            // Write keys are answered in words; nothing opens (ReducerTests covers every write key).
            for key in ["n", "r", "f", "t"] {
                try await tmux.keys(key)
                (ok, screen) = try await tmux.wait { $0.contains("app-only account is read-only") }
                #expect(ok, "key \(key) was not refused:\n\(screen)")
                #expect(!screen.contains("New tweet") && !screen.contains("── Reply ") && !screen.contains("Retweet this"))
            }

            // The selected tweet's author: a user timeline, polled too.
            try await tmux.keys("u")
            (ok, screen) = try await tmux.wait {
                $0.contains("3 @") && $0.contains(": polling") && $0.contains("▌") && !$0.contains("Nothing here yet")
            }
            #expect(ok, "the author's timeline did not load:\n\(screen)")

            // Nothing was attempted that the bearer token may not do.
            let log = try await HTTPClient().send(HTTPRequest(method: "GET", url: server.baseURL + "/_sim/requests"))
            guard case .array(let requests) = try JSONValue.parse(log.body) else {
                Issue.record("the request log is not a list")
                return
            }
            let paths = requests.compactMap { $0["path"]?.stringValue }
            #expect(!requests.contains { $0["auth"]?.stringValue == "user" }, "an app-only reader signed as a user")
            #expect(paths.contains { $0.contains("search/tweets") } && paths.contains { $0.contains("user_timeline") }, "\(paths)")
            #expect(
                !paths.contains {
                    $0.contains("home_timeline") || $0.contains("mentions") || $0.contains("stream") || $0.contains("update")
                },
                "an app-only reader asked for \(paths)")

            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "the app-only reader did not quit cleanly:\n\(screen)")
        }
    }
}
