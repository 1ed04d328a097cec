import Foundation
import Testing

extension TerminalTests {
    /// `v` in the demo under tmux: the photo drawn with symbols in the photo's colours (tmux
    /// answers no graphics query), and Esc leaves none of them behind.
    @Suite(.serialized) struct ViewerEndToEndTests {
        /// Runs of cells in a capture (`capture-pane -e`, which writes a colour where it changes)
        /// in the photo's colours: the red disc (xterm 160, 196), the sky (the blues near 26).
        static func photoCells(_ escaped: String) -> (red: Int, blue: Int) {
            let red = escaped.components(separatedBy: ";5;160m").count + escaped.components(separatedBy: ";5;196m").count - 2
            let blue = ["25", "26", "32", "33", "61", "67", "68"].reduce(0) { $0 + escaped.components(separatedBy: ";5;\($1)m").count - 1 }
            return (red, blue)
        }

        @Test func viewerDrawsThePhotoAndEscapeLeavesNothing() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let port = DemoEndToEndTests.freePort()
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-viewer-\(port)").path
            defer { try? FileManager.default.removeItem(atPath: dir) }
            // swift test sets NO_COLOR, which would leave the picture shapes only.
            let command =
                "env -u NO_COLOR XDG_CACHE_HOME=\(dir)/cache \(DemoEndToEndTests.binary) demo --port \(port) --tweets-per-minute 0 --state-dir \(dir)/state; sleep 120"
            let tmux = try await Tmux.start(command, width: 100, height: 30)
            defer { tmux.kill() }
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline appeared:\n\(screen)")
            guard ok else { return }
            // Down to the first post with a photo (its card's lines carry the selection bar).
            var found = false
            for _ in 0..<150 {
                try await tmux.keys("j")
                try await Task.sleep(nanoseconds: 60_000_000)
                screen = try await tmux.screen()
                found = screen.split(separator: "\n").contains { $0.hasPrefix("▌") && $0.contains("▣ photo") }
                if found { break }
            }
            #expect(found, "no post with a photo was reached:\n\(screen)")
            guard found else { return }
            let baseline = Self.photoCells(try await tmux.colouredScreen())
            try await tmux.keys("v")
            (ok, screen) = try await tmux.wait(20) {
                $0.contains("▣ photo 1/") && $0.contains("esc back") && !$0.contains("loading the picture")
            }
            #expect(ok, "the viewer did not open:\n\(screen)")
            var colours = (red: 0, blue: 0)
            _ = try await tmux.wait(20) { _ in
                let escaped = (try? await tmux.colouredScreen()) ?? ""
                colours = Self.photoCells(escaped)
                return colours.red > 10 && colours.blue > 20
            }
            #expect(colours.red > 10 && colours.blue > 20, "the photo's colours are not on the screen: \(colours)")
            // The red disc is in the middle of the viewer, the sky at its top.
            let rows = try await tmux.colouredScreen().components(separatedBy: "\n")
            #expect(Self.photoCells(rows[14]).red > 0, "no red in the middle row: \(rows[14].debugDescription)")
            try await tmux.keys("Escape")
            (ok, screen) = try await tmux.wait(10) { !$0.contains("▣ photo 1/1 ·") && !$0.contains("▣ photo 1/2 ·") }
            #expect(ok, "the viewer did not close:\n\(screen)")
            let after = try await tmux.colouredScreen()
            let left = Self.photoCells(after)
            #expect(left.red <= baseline.red && left.blue <= baseline.blue, "cells of the photo were left: \(left), before \(baseline)")
        }
    }
}
