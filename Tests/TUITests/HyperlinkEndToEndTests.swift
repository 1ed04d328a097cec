import Foundation
import Testing

extension TerminalTests {
    /// What the reader writes to a real terminal (read raw with tmux's pipe-pane): links as OSC 8
    /// hyperlinks when config.toml asks for them, every target plain printable ASCII; none at all
    /// inside tmux when it does not (tmux is not known to pass them).
    @Suite(.serialized) struct HyperlinkEndToEndTests {
        @Test(arguments: [true, false]) func linksAreHyperlinksOnlyWhereWanted(forced: Bool) async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let port = DemoEndToEndTests.freePort()
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-osc8-\(port)")
            defer { try? FileManager.default.removeItem(at: dir) }
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let config = dir.appendingPathComponent("config.toml").path
            try (forced ? "hyperlinks = true\n" : "").write(toFile: config, atomically: true, encoding: .utf8)
            let out = dir.appendingPathComponent("out.bin").path
            // It waits for Enter, so the pipe is in place before the first byte.
            let tmux = try await Tmux.start(
                "read _; \(DemoEndToEndTests.binary) demo --config \(config) --port \(port) --tweets-per-minute 0 --state-dir \(dir.path)/state; echo LINNET-EXITED=$?; sleep 60",
                width: 100, height: 30)
            defer { tmux.kill() }
            try await Tmux.run(["pipe-pane", "-o", "-t", tmux.name, "cat >> '\(out)'"])
            try await tmux.keys("Enter")
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: streaming") && $0.contains("twitter.com/") }
            #expect(ok, "no timeline with a link:\n\(screen)")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit:\n\(screen)")
            let bytes = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self)
            let opens = bytes.components(separatedBy: "\u{1B}]8;id=linnet-").dropFirst()
            if forced {
                #expect(!opens.isEmpty, "no OSC 8 link written")
                for o in opens {
                    // id;TARGET ESC \ … ESC ] 8 ; ; ESC \
                    let head = o.prefix { $0 != "\u{1B}" }
                    let target = head.drop { $0 != ";" }.dropFirst()
                    #expect(target.hasPrefix("https://") || target.hasPrefix("http://"), "\(head)")
                    #expect(target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "\(head)")
                    #expect(o.contains("\u{1B}]8;;\u{1B}\\"), "a link was not closed")
                }
            } else {
                #expect(!bytes.contains("\u{1B}]8;"), "a hyperlink was written inside tmux without being asked for")
            }
        }
    }
}
