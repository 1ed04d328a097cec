import Foundation
import Glibc
import Spawn
import Testing

@Suite struct ChildProcessTests {
    @Test func exitStatusAndBothOutputs() async throws {
        let r = try await ChildProcess.output("/bin/sh", ["-c", "echo out; echo err >&2; exit 7"])
        #expect(r.status == 7)
        #expect(r.text == "out\nerr\n")
        let quiet = try await ChildProcess.output("/bin/sh", ["-c", "echo out; echo err >&2"], stderr: .null)
        #expect(quiet.text == "out\n")
    }

    @Test func signalEndsAsOneHundredTwentyEightPlusIt() throws {
        let child = try ChildProcess("/bin/sleep", ["30"], stdout: .null)
        child.send(SIGKILL)
        #expect(child.wait() == 128 + SIGKILL)
        // Reaped: a second wait answers from memory and a signal goes nowhere.
        #expect(child.wait() == 128 + SIGKILL)
        child.send(SIGKILL)
    }

    @Test func missingProgramIsAnError() {
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess("/nonexistent/linnet-no-such-program", []) }
    }

    /// A process that leaves a daemon holding its output (tmux starting its server, `pass`
    /// starting gpg-agent) is done when it exits, not when the daemon lets go of the pipe.
    @Test func aDaemonHoldingTheOutputDoesNotHoldTheCaller() async throws {
        let r = try await ChildProcess.output("/bin/sh", ["-c", "sleep 300 & echo $!; echo early"])
        #expect(r.status == 0)
        let lines = r.text.split(separator: "\n")
        #expect(lines.last == "early")
        let daemon = try #require(lines.first.flatMap { pid_t($0) })
        #expect(kill(daemon, 0) == 0, "the daemon should still be running: the caller did not wait for it")
        kill(daemon, SIGKILL)
    }

    /// The child gets default signal handling and no blocked signals, whatever this process
    /// ignores (SIGPIPE, for libcurl), and none of this process's descriptors.
    @Test func childStartsClean() async throws {
        signal(SIGPIPE, SIG_IGN)
        let stray = open("/dev/null", O_RDONLY)  // no close-on-exec on purpose
        defer { close(stray) }
        let status = try await ChildProcess.output("/bin/grep", ["-E", "^Sig(Ign|Blk)", "/proc/self/status"])
        func mask(_ name: String) -> UInt64? {
            status.text.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap {
                UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
            }
        }
        let ignored = try #require(mask("SigIgn"), "\(status.text)")
        for s in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] {
            #expect(ignored & (1 << UInt64(s - 1)) == 0, "signal \(s) is ignored in the child: \(status.text)")
        }
        #expect(mask("SigBlk") == 0, "\(status.text)")
        let fds = try await ChildProcess.output("/bin/ls", ["/proc/self/fd"])
        let open = Set(fds.text.split(separator: "\n").compactMap { Int($0) })
        #expect(!open.contains(Int(stray)), "descriptor \(stray) leaked into the child: \(open.sorted())")
        #expect(open.isSuperset(of: [0, 1, 2]))
    }

    @Test func directoryEnvironmentAndInput() async throws {
        let dir = FileManager.default.temporaryDirectory.path
        let r = try await ChildProcess.output(
            "/bin/sh", ["-c", "pwd; printf %s \"$LINNET_SPAWN_TEST\""], environment: ["LINNET_SPAWN_TEST": "a b=c"], directory: dir)
        #expect(r.text == URL(fileURLWithPath: dir).resolvingSymlinksInPath().path + "\na b=c")
        let cat = try ChildProcess("cat", [], stdin: .pipe)
        try cat.write(Data("through the pipe ✓\n".utf8))
        cat.closeInput()
        let echoed = cat.finish()
        #expect(echoed.status == 0)
        #expect(echoed.text == "through the pipe ✓\n")
    }
}
