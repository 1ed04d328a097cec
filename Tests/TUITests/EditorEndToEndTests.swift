import Foundation
import Testing

extension TerminalTests {
    /// ctrl-x ctrl-e under a real terminal: the editor gets the terminal (it reads a line typed
    /// there), the reader takes it back drawn whole, and the edited text is what is sent.
    @Suite(.serialized) struct EditorEndToEndTests {
        @Test func theDraftGoesToTheEditorAndComesBack() async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let port = DemoEndToEndTests.freePort()
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-editor-\(port)")
            defer { try? FileManager.default.removeItem(at: dir) }
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            // An editor that asks on the terminal and appends the answer to the draft.
            let editor = dir.appendingPathComponent("ed.sh").path
            try """
            #!/bin/sh
            printf 'EDITOR-RUNNING: type a line\\n'
            IFS= read -r line
            printf '%s %s\\n' "$(cat "$1")" "$line" > "$1"
            """.write(toFile: editor, atomically: true, encoding: .utf8)
            chmod(editor, 0o755)
            let tmux = try await Tmux.start(
                "VISUAL=\(editor) \(DemoEndToEndTests.binary) demo --port \(port) --tweets-per-minute 0 --state-dir \(dir.path)/state; echo LINNET-EXITED=$?; sleep 60",
                width: 90, height: 24)
            defer { tmux.kill() }
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline:\n\(screen)")
            try await tmux.keys("n")
            _ = try await tmux.wait(10) { $0.contains("New tweet") }
            try await tmux.keys("-l", "from the box")
            _ = try await tmux.wait(10) { $0.contains("from the box") }
            try await tmux.keys("C-x", "C-e")
            (ok, screen) = try await tmux.wait(10) { $0.contains("EDITOR-RUNNING") && !$0.contains("Home: streaming") }
            #expect(ok, "the editor did not get the terminal:\n\(screen)")
            try await tmux.keys("-l", "and from the editor")
            try await tmux.keys("Enter")
            (ok, screen) = try await tmux.wait(10) {
                $0.contains("from the box and from the editor") && $0.contains("Home: streaming") && !$0.contains("EDITOR-RUNNING")
            }
            #expect(ok, "the text did not come back to a whole screen:\n\(screen)")
            try await tmux.keys("Enter")
            (ok, screen) = try await tmux.wait(20) { $0.contains("Tweet sent") }
            #expect(ok, "the edited draft was not sent:\n\(screen)")
            // It arrives above the tweet being read; g g goes to it.
            _ = try await tmux.wait(20) { $0.contains("▲ 1 new") }
            try await tmux.keys("g", "g")
            (ok, screen) = try await tmux.wait(20) { $0.contains("from the box and from the editor") && !$0.contains("New tweet") }
            #expect(ok, "the sent tweet is not on the timeline:\n\(screen)")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit:\n\(screen)")
        }
    }
}
