import Foundation
import Testing
import TweetText
import TwitterAPI

extension TerminalTests {
    /// `linnet demo` in a real pseudo-terminal under tmux, checked through the screen and the
    /// simulator's own record of what it received.
    @Suite(.serialized) struct DemoEndToEndTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        static let binary = root.appendingPathComponent(".build/debug/linnet").path

        /// Whether `linnet` is built; records why not when it is missing.
        static func binaryIsBuilt() -> Bool {
            guard FileManager.default.isExecutableFile(atPath: binary) else {
                Issue.record("\(binary) is missing: build it first (make test does)")
                return false
            }
            return true
        }

        static func freePort() -> UInt16 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = 0
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
            _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
            return UInt16(bigEndian: addr.sin_port)
        }

        /// `linnet demo` in a tmux pane of its own: a free port, a state folder of its own under
        /// the temporary directory (named after the test), and by default the demo's exit
        /// status said and the pane kept open after it ends. `end()` kills the pane, then
        /// removes the folder.
        struct Pane {
            let tmux: Tmux
            let port: UInt16
            let stateDir: String
            var base: String { "http://127.0.0.1:\(port)" }

            /// `environment` goes before the binary; `ownConfig` reads config.toml from the state
            /// folder (none there: the defaults); `arguments` follow `demo --port N`.
            static func start(
                _ name: String, environment: String = "", ownConfig: Bool = false, arguments: String = "--tweets-per-minute 0",
                then: String = "echo LINNET-EXITED=$?; sleep 60", width: Int, height: Int
            ) async throws -> Pane {
                let port = freePort()
                let stateDir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-\(name)-\(port)").path
                let config = ownConfig ? "XDG_CONFIG_HOME=\(stateDir)/config " : ""
                let tmux = try await Tmux.start(
                    "\(environment)\(config)\(binary) demo --port \(port) \(arguments) --state-dir \(stateDir); \(then)", width: width,
                    height: height)
                return Pane(tmux: tmux, port: port, stateDir: stateDir)
            }

            /// For `defer`.
            func end() {
                tmux.kill()
                try? FileManager.default.removeItem(atPath: stateDir)
            }
        }

        /// The simulator's own client view, with the demo user's keys read from its control route.
        static func simClient(_ base: String) async throws -> TwitterClient {
            let r = try await HTTPClient().send(HTTPRequest(method: "GET", url: base + "/_sim/credentials"))
            let j = try JSONValue.parse(r.body)
            let creds = OAuthCredentials(
                consumerKey: j["consumer_key"]?.stringValue ?? "", consumerSecret: j["consumer_secret"]?.stringValue ?? "",
                token: j["access_token"]?.stringValue ?? "", tokenSecret: j["access_token_secret"]?.stringValue ?? "")
            return TwitterClient(endpoints: .single(base), auth: .user(creds))
        }

        @Test func readComposeReplySearchResizeAndQuit() async throws {
            guard Self.binaryIsBuilt() else { return }
            let port = Self.freePort()
            let base = "http://127.0.0.1:\(port)"
            let stateDir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-e2e-\(port)").path
            defer { try? FileManager.default.removeItem(atPath: stateDir) }
            let command =
                "\(Self.binary) demo --port \(port) --tweets-per-minute 0 --state-dir \(stateDir); echo LINNET-EXITED=$?; sleep 120"
            let tmux = try await Tmux.start(command, width: 100, height: 30)
            defer { tmux.kill() }

            // Tweets show within seconds.
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline appeared:\n\(screen)")
            guard ok else { return }

            // Panes switch.
            try await tmux.keys("2")
            (ok, screen) = try await tmux.wait { $0.contains("@linnet_demo · Mentions: ") }
            #expect(ok, "the Mentions pane did not open:\n\(screen)")
            try await tmux.keys("1")
            (ok, screen) = try await tmux.wait { $0.contains("@linnet_demo · Home: ") }
            #expect(ok)

            // The count on screen is TweetText's, for a URL, CJK and an emoji.
            let text = "Linnet test https://example.com/path 漢字かな 🐦✨ done"
            try await tmux.keys("n")
            _ = try await tmux.wait { $0.contains("New tweet") }
            try await tmux.type(text)
            let expected = TweetLength(text).remaining()
            (ok, screen) = try await tmux.wait { $0.contains(text) && $0.contains(" \(expected) ──") }
            #expect(ok, "the count \(expected) for \(text) is not on screen:\n\(screen)")
            try await tmux.keys("Escape")
            (ok, screen) = try await tmux.wait { !$0.contains("New tweet") }
            #expect(ok)

            // Reply to the selected (newest) tweet; the server receives in_reply_to_status_id.
            let client = try await Self.simClient(base)
            let newest = try await client.homeTimeline(.init(count: 1)).tweets[0]
            try await tmux.keys("g", "g", "r")
            (ok, screen) = try await tmux.wait { $0.contains("── Reply ") }
            #expect(ok, "the reply box did not open:\n\(screen)")
            try await tmux.type("end-to-end reply")
            // Enter once the text is drawn: in the same read it would be taken for a pasted line end.
            _ = try await tmux.wait { $0.contains("end-to-end reply") }
            try await tmux.keys("Enter")
            (ok, screen) = try await tmux.wait { $0.contains("Reply sent.") }
            #expect(ok, "no confirmation:\n\(screen)")
            let mine = try await client.userTimeline(screenName: "linnet_demo", .init(count: 1)).tweets[0]
            #expect(mine.text.hasSuffix("end-to-end reply"))
            #expect(mine.text.hasPrefix("@" + newest.content.user.screenName))
            #expect(mine.inReplyToStatusID == newest.content.id)

            // Search shows results.
            try await tmux.keys("/")
            try await tmux.type("linnet")
            _ = try await tmux.wait { $0.contains("Search: linnet") }
            try await tmux.keys("Enter")
            (ok, screen) = try await tmux.wait {
                $0.contains("4 Search: linnet") && $0.contains("▌") && $0.contains("@linnet_demo · Search: linnet: ")
            }
            #expect(ok, "no search results:\n\(screen)")

            // A resize redraws at the new size.
            try await tmux.resize(72, 20)
            (ok, screen) = try await tmux.wait {
                let lines = $0.split(separator: "\n", omittingEmptySubsequences: false)
                return lines.count >= 20 && lines[19].contains("@linnet_demo") && lines.allSatisfy { displayWidth($0) <= 72 }
            }
            #expect(ok, "no redraw at 72x20:\n\(screen)")

            // Quit (the kept draft asks first) and the terminal is restored.
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait { $0.contains("unsent draft") }
            #expect(ok, "no question about the draft:\n\(screen)")
            try await tmux.keys("y")
            (ok, screen) = try await tmux.wait { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "linnet did not exit cleanly:\n\(screen)")
            #expect(try await tmux.display("#{alternate_on}") == "0")
            // The draft survived on disk.
            let draft = try String(contentsOfFile: stateDir + "/draft.json", encoding: .utf8)
            #expect(draft.contains("Linnet test"))
        }

        /// The terminal is taken over while the simulator starts; when it cannot start, the
        /// terminal is given back before the reason is said.
        @Test func aSimulatorThatCannotStartGivesTheTerminalBack() async throws {
            guard Self.binaryIsBuilt() else { return }
            let port = Self.freePort()
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = port.bigEndian
            let bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(bound == 0 && listen(fd, 1) == 0, "could not hold port \(port)")
            let stateDir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-e2e-busy-\(port)").path
            defer { try? FileManager.default.removeItem(atPath: stateDir) }
            let tmux = try await Tmux.start(
                "\(Self.binary) demo --port \(port) --state-dir \(stateDir); echo LINNET-EXITED=$?; sleep 120", width: 100, height: 30)
            defer { tmux.kill() }
            let (ok, screen) = try await tmux.wait { $0.contains("LINNET-EXITED=") }
            #expect(ok, "linnet did not end:\n\(screen)")
            #expect(screen.contains("the simulator could not start"), "\(screen)")
            #expect(screen.contains("LINNET-EXITED=2"), "\(screen)")
            #expect(try await tmux.display("#{alternate_on}") == "0")
        }
    }

    /// Display width of a captured line.

}

func displayWidth(_ s: Substring) -> Int { s.reduce(0) { $0 + DisplayWidth.of($1) } }
