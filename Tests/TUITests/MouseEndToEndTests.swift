import Foundation
import Testing

extension TerminalTests {
    /// The mouse under a real terminal: the reader asks for button and wheel reports only (never
    /// motion), a click on a tab switches pane, and `mouse = false` asks for nothing.
    @Suite(.serialized) struct MouseEndToEndTests {
        @Test(arguments: [true, false]) func clicksAndWhatIsAskedFor(mouse: Bool) async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let port = DemoEndToEndTests.freePort()
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-mouse-\(port)")
            defer { try? FileManager.default.removeItem(at: dir) }
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let config = dir.appendingPathComponent("config.toml").path
            try "mouse = \(mouse)\n".write(toFile: config, atomically: true, encoding: .utf8)
            let out = dir.appendingPathComponent("out.bin").path
            let tmux = try await Tmux.start(
                "read _; \(DemoEndToEndTests.binary) demo --config \(config) --port \(port) --tweets-per-minute 0 --state-dir \(dir.path)/state; echo LINNET-EXITED=$?; sleep 60",
                width: 100, height: 30)
            defer { tmux.kill() }
            try await Tmux.run(["pipe-pane", "-o", "-t", tmux.name, "cat >> '\(out)'"])
            try await tmux.keys("Enter")
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline:\n\(screen)")
            let tabs = screen.split(separator: "\n").first.map(String.init) ?? ""
            let column = tabs.distance(from: tabs.startIndex, to: tabs.range(of: "Mentions")?.lowerBound ?? tabs.startIndex) + 1
            if mouse {
                // As the terminal would report a left click on the Mentions tab (SGR, 1-based).
                try await tmux.keys("-l", "\u{1B}[<0;\(column + 1);1M\u{1B}[<0;\(column + 1);1m")
                (ok, screen) = try await tmux.wait(10) { $0.contains("@linnet_demo") && $0.contains("what do you think") }
                #expect(ok, "the click did not open Mentions:\n\(screen)")
            }
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit:\n\(screen)")
            let bytes = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self)
            #expect(bytes.contains("\u{1B}[?1000h") == mouse && bytes.contains("\u{1B}[?1006h") == mouse)
            #expect(!bytes.contains("\u{1B}[?1002h") && !bytes.contains("\u{1B}[?1003h"), "motion was asked for")
            // Given back on the way out.
            #expect(bytes.contains("\u{1B}[?1000l"))
        }
    }
}
