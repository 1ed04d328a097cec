import Foundation
import Testing

extension TerminalTests {
    /// The terminal going away (an ssh connection dropping, tmux killed) or a SIGTERM ends the
    /// reader like a quit: the open draft is saved and nothing is left running.
    @Suite(.serialized) struct HangUpEndToEndTests {
        /// Pids of `linnet demo` processes using this state folder.
        func running(_ stateDir: String) async throws -> [Int32] {
            try await runProcess(
                "/usr/bin/pgrep", ["-f", "^\(DemoEndToEndTests.binary) demo --tweets-per-minute 0 --state-dir \(stateDir)"]
            )
            .output
            .split(separator: "\n").compactMap { Int32($0) }
        }

        func gone(_ stateDir: String) async throws -> Bool {
            for _ in 0..<200 {
                if try await running(stateDir).isEmpty { return true }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            return false
        }

        /// Starts the demo with a draft typed into the compose box; its state folder.
        func startWithDraft(_ label: String, _ text: String, shell: String) async throws -> (Tmux, String)? {
            guard DemoEndToEndTests.binaryIsBuilt() else { return nil }
            let stateDir = FileManager.default.temporaryDirectory.appendingPathComponent(
                "linnet-\(label)-\(getpid())-\(Int.random(in: 0..<1_000_000))"
            ).path
            let command = "\(DemoEndToEndTests.binary) demo --tweets-per-minute 0 --state-dir \(stateDir)"
            let tmux = try await Tmux.start(shell.replacingOccurrences(of: "COMMAND", with: command), width: 90, height: 26)
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline:\n\(screen)")
            try await tmux.keys("n")
            try await tmux.type(text)
            (ok, screen) = try await tmux.wait { $0.contains(text) }
            #expect(ok, "the draft was not typed:\n\(screen)")
            return (tmux, stateDir)
        }

        @Test func aHangUpSavesTheDraftAndEnds() async throws {
            // The shell ignores SIGHUP and stays, as make does under `make demo`: linnet gets no
            // signal and must notice the terminal itself.
            guard
                let (tmux, stateDir) = try await startWithDraft("hangup", "kept across a hang-up", shell: "sh -c 'trap \"\" HUP; COMMAND'")
            else { return }
            defer { try? FileManager.default.removeItem(atPath: stateDir) }
            #expect(try await running(stateDir).count == 1)
            tmux.kill()
            #expect(try await gone(stateDir), "linnet kept running without its terminal")
            let draft = try String(contentsOfFile: stateDir + "/draft.json", encoding: .utf8)
            #expect(draft.contains("kept across a hang-up"), "\(draft)")
        }

        /// SIGTERM, and SIGINT (raw mode sends none from the keyboard; `kill -INT` does).
        @Test(arguments: [SIGTERM, SIGINT])
        func aSignalSavesTheDraftAndRestoresTheTerminal(_ sig: Int32) async throws {
            guard
                let (tmux, stateDir) = try await startWithDraft(
                    "signal-\(sig)", "kept across signal \(sig)", shell: "COMMAND; echo LINNET-EXITED=$?; sleep 60")
            else { return }
            defer {
                tmux.kill()
                try? FileManager.default.removeItem(atPath: stateDir)
            }
            let pids = try await running(stateDir)
            #expect(pids.count == 1)
            for pid in pids { kill(pid, sig) }
            let (ok, screen) = try await tmux.wait { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "linnet did not end on signal \(sig):\n\(screen)")
            #expect(try await tmux.display("#{alternate_on}") == "0")
            #expect(try await tmux.display("#{cursor_flag}") == "1")
            let draft = try String(contentsOfFile: stateDir + "/draft.json", encoding: .utf8)
            #expect(draft.contains("kept across signal \(sig)"), "\(draft)")
        }

        /// A crash (a SIGSEGV, a trap from a failed check) hands the terminal back first: the
        /// normal screen, cooked mode, the cursor shown, so the report is readable and the shell
        /// works. The crash itself still ends the process by its signal.
        @Test(arguments: [SIGSEGV, SIGILL, SIGABRT])
        func aCrashRestoresTheTerminalFirst(_ sig: Int32) async throws {
            guard
                let (tmux, stateDir) = try await startWithDraft(
                    "crash-\(sig)", "typed before a crash",
                    shell:
                        "SWIFT_BACKTRACE=interactive=no COMMAND; echo LINNET-EXITED=$?; stty -a | grep -q -- ' icanon' && echo TERMINAL-COOKED; sleep 60"
                )
            else { return }
            defer {
                tmux.kill()
                try? FileManager.default.removeItem(atPath: stateDir)
            }
            let pids = try await running(stateDir)
            #expect(pids.count == 1)
            for pid in pids { kill(pid, sig) }
            let (ok, screen) = try await tmux.wait { $0.contains("LINNET-EXITED=\(128 + sig)") && $0.contains("TERMINAL-COOKED") }
            #expect(ok, "after signal \(sig) the terminal was not given back:\n\(screen)")
            #expect(try await tmux.display("#{alternate_on}") == "0", "still in the alternate screen")
            #expect(try await tmux.display("#{cursor_flag}") == "1", "the cursor is still hidden")
        }
    }
}
