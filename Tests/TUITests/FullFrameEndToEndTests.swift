import Foundation
import Testing

extension TerminalTests {
    /// A whole frame (the first, after a resize or Ctrl-L) erases ncurses' window and hands over
    /// only the cells that are not plain blanks: nothing of the last frame may stay behind.
    @Suite(.serialized) struct FullFrameEndToEndTests {
        @Test func aGrownPaneHoldsNothingOfTheLastFrame() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let demo = try await DemoEndToEndTests.Pane.start("full", ownConfig: true, then: "sleep 60", width: 100, height: 24)
            defer { demo.end() }
            let tmux = demo.tmux
            func lines(_ s: String) -> [Substring] { s.split(separator: "\n", omittingEmptySubsequences: false) }
            var (ok, screen) = try await tmux.wait(30) {
                $0.contains("Home: streaming") && lines($0).count >= 24 && lines($0)[23].contains("? help")
            }
            #expect(ok, "no status bar on the last row:\n\(screen)")
            // The status bar's row becomes a row of the timeline, where most of the row is blank.
            try await tmux.resize(100, 36)
            (ok, screen) = try await tmux.wait { lines($0).count >= 36 && lines($0)[35].contains("? help") }
            #expect(ok, "no redraw at 100x36:\n\(screen)")
            try await Task.sleep(for: .milliseconds(300))
            screen = try await tmux.screen()
            #expect(lines(screen).filter { $0.contains("? help") }.count == 1, "the last frame's status bar stayed:\n\(screen)")
            #expect(lines(screen).filter { $0.contains("Home: streaming") }.count == 1, "\(screen)")
        }

        /// The bench counts a start's instructions to its first frame: with the variable set the
        /// demo ends there by itself, the terminal given back.
        @Test func aCountedStartEndsAtItsFirstFrame() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let demo = try await DemoEndToEndTests.Pane.start(
                "count", environment: "LINNET_EXIT_AFTER_FIRST_FRAME=1 ", ownConfig: true, arguments: "", width: 100, height: 24)
            defer { demo.end() }
            let tmux = demo.tmux
            let (ok, screen) = try await tmux.wait(30) { $0.contains("LINNET-EXITED=") }
            #expect(ok && screen.contains("LINNET-EXITED=0"), "\(screen)")
            #expect(try await tmux.display("#{alternate_on}") == "0")
            // The cursor the frame hid is shown again.
            #expect(try await tmux.display("#{cursor_flag}") == "1")
        }
    }
}
