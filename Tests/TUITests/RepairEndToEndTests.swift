import Foundation
import Testing
import TweetText

extension TerminalTests {
    /// The screen repairs itself under a real terminal: a message written over it by another
    /// program goes away with ctrl-l, and a process stopped and continued draws itself whole.
    @Suite(.serialized) struct RepairEndToEndTests {
        @Test func outsideWritesAreRepairedAndAStopIsSurvived() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let demo = try await DemoEndToEndTests.Pane.start("repair", width: 90, height: 24)
            defer { demo.end() }
            let tmux = demo.tmux
            // The first tweets shown are marked read a moment later (the tab's count goes), and
            // the messages come in (their tab's count comes): the screen compared with is the one
            // after that.
            var (ok, screen) = try await tmux.wait(30) {
                $0.contains("Home: streaming") && $0.contains("▌") && !$0.contains("1 Home (") && $0.contains("Messages (")
            }
            #expect(ok, "no timeline:\n\(screen)")
            let clean = screen

            // Another program writes on the terminal (as `wall` does).
            let tty = try await tmux.display("#{pane_tty}")
            // Line ends as wall writes them: the text starts at the left whatever column the
            // cursor was left in (the terminal is in raw mode: a bare line feed keeps the column).
            try "\r\n\r\n*** Message from root ***\r\n".write(toFile: tty, atomically: false, encoding: .utf8)
            (ok, screen) = try await tmux.wait(10) { $0.contains("Message from root") }
            #expect(ok, "the outside write did not land:\n\(screen)")
            try await tmux.keys("C-l")
            (ok, screen) = try await tmux.wait(10) { !$0.contains("Message from root") && $0.contains("Home: streaming") }
            #expect(ok, "ctrl-l did not repair the screen:\n\(screen)")
            // Row for row as before (the ages may have moved on by a minute).
            #expect(screen.split(separator: "\n").first == clean.split(separator: "\n").first, "the tab bar moved:\n\(screen)")

            // Stopped from outside and continued: drawn whole again.
            let shell = try await tmux.display("#{pane_pid}")
            let found = try await runProcess("/usr/bin/env", ["pgrep", "-P", shell, "-f", "linnet"])
            let pid = try #require(found.output.split(separator: "\n").first.map(String.init), "no linnet process under \(shell)")
            _ = try await runProcess("/usr/bin/env", ["kill", "-STOP", pid])
            try "\n\n*** Written while stopped ***\n".write(toFile: tty, atomically: false, encoding: .utf8)
            _ = try await runProcess("/usr/bin/env", ["kill", "-CONT", pid])
            (ok, screen) = try await tmux.wait(10) { !$0.contains("Written while stopped") && $0.contains("Home: streaming") }
            #expect(ok, "the screen was not drawn whole after SIGCONT:\n\(screen)")

            // ctrl-z with no job-control shell to bring it back (run straight from tmux): not stopped,
            // and said so.
            try await tmux.keys("C-z")
            (ok, screen) = try await tmux.wait(10) { $0.contains("Not suspended") }
            #expect(ok, "ctrl-z without job control was not explained:\n\(screen)")

            // A paste (marked by the terminal) goes into the box with its line break, unsent; text
            // typed with Enter in the same burst is sent.
            try await tmux.keys("n")
            _ = try await tmux.wait(10) { $0.contains("New tweet") }
            _ = try await Tmux.run(["set-buffer", "-b", "linnet-paste", "pasted first line\npasted second line"])
            _ = try await Tmux.run(["paste-buffer", "-p", "-d", "-b", "linnet-paste", "-t", tmux.name])
            (ok, screen) = try await tmux.wait(10) { $0.contains("pasted first line") && $0.contains("pasted second line") }
            #expect(ok && !screen.contains("Tweet sent"), "the paste was not inserted as text:\n\(screen)")
            try await tmux.keys("C-u", "C-k", "Up", "C-u", "C-k")
            try await tmux.keys("-l", "typed quickly")
            try await tmux.keys("Enter")
            (ok, screen) = try await tmux.wait(20) { $0.contains("Tweet sent") }
            #expect(ok, "typed text and Enter were not sent:\n\(screen)")

            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit:\n\(screen)")
        }
    }

    /// A resize wakes the loop by itself: with the loop's idle tick set to an hour, the new size
    /// is still drawn at once (the window-change signal writes to the loop's wake pipe).
    @Suite(.serialized) struct ResizeWakeEndToEndTests {
        @Test func aResizeIsDrawnWithoutWaitingForTheTick() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let demo = try await DemoEndToEndTests.Pane.start("resize", environment: "LINNET_TICK_SECONDS=3600 ", width: 90, height: 24)
            defer { demo.end() }
            let tmux = demo.tmux
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline:\n\(screen)")
            for width in [70, 110, 84] {
                try await tmux.resize(width, 24)
                (ok, screen) = try await tmux.wait(20) { screen in
                    let bar = screen.split(separator: "\n").last { $0.contains("@linnet_demo") } ?? ""
                    return bar.hasSuffix("? help") && DisplayWidth.of(String(bar)) == width - 1
                }
                #expect(ok, "the \(width)-column frame was not drawn:\n\(screen)")
            }
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok)
        }
    }

    /// `y` copies the selected tweet's address to the terminal's clipboard: through tmux (with
    /// `set-clipboard on`) it lands in tmux's paste buffer.
    @Suite(.serialized) struct ClipboardEndToEndTests {
        @Test func yCopiesTheAddressThroughTmux() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let demo = try await DemoEndToEndTests.Pane.start("clip", width: 90, height: 24)
            defer { demo.end() }
            let tmux = demo.tmux
            _ = try await Tmux.run(["set-option", "-s", "set-clipboard", "on"])
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline:\n\(screen)")
            try await tmux.keys("y")
            (ok, screen) = try await tmux.wait(10) { $0.contains("Copied the tweet's address.") }
            #expect(ok, "no notice:\n\(screen)")
            let buffer = try await Tmux.run(["show-buffer"])
            #expect(buffer.hasPrefix("https://x.com/") && buffer.contains("/status/"), "\(buffer)")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok)
        }
    }
}
