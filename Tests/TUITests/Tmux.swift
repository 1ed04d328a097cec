import Foundation
import Spawn

/// A detached tmux session running a command in a real pseudo-terminal: keys in, screen text out.
/// Every call waits on a thread of its own, never on a task-pool thread the in-process simulators need.
struct Tmux {
    let name: String

    @discardableResult
    static func run(_ args: [String]) async throws -> String { try await runProcess("/usr/bin/env", ["tmux"] + args).output }

    /// Asked again when tmux refuses: a server whose last session another test just ended is
    /// exiting, and a session asked of it then is not made ("no server running" after). A
    /// refused session ran nothing, so asking again runs the command once.
    static func start(_ command: String, width: Int, height: Int) async throws -> Tmux {
        let name = "linnet-e2e-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        // This run's temporary folder, not the one the server had when it started: a server
        // left by an earlier run keeps that run's folder, gone since (the editor's draft file
        // could not be made in it).
        let tmp = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let args = [
            "tmux", "new-session", "-d", "-s", name, "-x", String(width), "-y", String(height),
            "-e", "LANG=C.UTF-8", "-e", "TERM=tmux-256color", "-e", "TMPDIR=\(tmp)", command,
        ]
        for _ in 0..<5 {
            if try await runProcess("/usr/bin/env", args).status == 0 { break }
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        return Tmux(name: name)
    }

    func keys(_ keys: String...) async throws { try await Self.run(["send-keys", "-t", name] + keys) }
    func type(_ text: String) async throws { try await Self.run(["send-keys", "-t", name, "-l", text]) }
    func screen() async throws -> String { try await Self.run(["capture-pane", "-p", "-t", name]) }
    /// The pane with its colours and attributes as SGR escapes.
    func colouredScreen() async throws -> String { try await Self.run(["capture-pane", "-p", "-e", "-t", name]) }
    /// The screen with wrapped lines joined (a long URL in one piece).
    func joinedScreen() async throws -> String { try await Self.run(["capture-pane", "-p", "-J", "-t", name]) }
    func resize(_ w: Int, _ h: Int) async throws { try await Self.run(["resize-window", "-t", name, "-x", String(w), "-y", String(h)]) }
    func display(_ format: String) async throws -> String {
        try await Self.run(["display-message", "-p", "-t", name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    /// Ends the session; for `defer`, where nothing can be awaited. kill-session returns at once,
    /// so this waits (up to 5 s) for what ran in it to end: a reader saves its files as it ends
    /// on the hang-up, and must not write them after the test's folders are gone.
    func kill() {
        let panes =
            (try? ChildProcess.run(
                "/usr/bin/env", ["tmux", "list-panes", "-s", "-t", name, "-F", "#{pane_pid}"], environment: childEnvironment))?.text ?? ""
        let running = Self.descendants(of: panes.split(separator: "\n").compactMap { Int32($0) })
        _ = try? ChildProcess.run("/usr/bin/env", ["tmux", "kill-session", "-t", name], environment: childEnvironment)
        let end = Date().addingTimeInterval(5)
        while running.contains(where: { Foundation.kill($0, 0) == 0 && !Self.isZombie($0) }), Date() < end { usleep(20_000) }
    }

    /// The processes and all they started, from /proc.
    static func descendants(of roots: [Int32]) -> [Int32] {
        var parent: [Int32: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After the command's name in parentheses: the state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let ppid = Int32(fields[1]) { parent[pid] = ppid }
        }
        var found = roots
        var changed = true
        while changed {
            changed = false
            for (pid, ppid) in parent where found.contains(ppid) && !found.contains(pid) {
                found.append(pid)
                changed = true
            }
        }
        return found
    }

    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return true
        }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    /// Waits (up to `seconds`) for the screen to satisfy `condition`; returns the last screen.
    func wait(_ seconds: Double = 20, _ condition: (String) -> Bool) async throws -> (ok: Bool, screen: String) {
        let end = Date().addingTimeInterval(seconds)
        var last = ""
        repeat {
            last = try await screen()
            if condition(last) { return (true, last) }
            try await Task.sleep(nanoseconds: 100_000_000)
        } while Date() < end
        return (false, last)
    }

    /// The same, for a condition that asks something else too (a simulator's ground truth).
    func wait(_ seconds: Double = 20, until condition: (String) async -> Bool) async throws -> (ok: Bool, screen: String) {
        let end = Date().addingTimeInterval(seconds)
        var last = ""
        repeat {
            last = try await screen()
            if await condition(last) { return (true, last) }
            try await Task.sleep(nanoseconds: 100_000_000)
        } while Date() < end
        return (false, last)
    }
}

/// This process's environment without the line buffering `Tests/run-swift-tests` asks for,
/// so programs under test (and the tmux server they run in) start as a user's would.
let childEnvironment = ProcessInfo.processInfo.environment.filter { !["LD_PRELOAD", "_STDBUF_O", "_STDBUF_E"].contains($0.key) }

/// Runs a program to its end; its exit status and what it printed (stdout and stderr).
func runProcess(_ path: String, _ args: [String], environment: [String: String] = childEnvironment) async throws -> (
    status: Int32, output: String
) {
    let r = try await ChildProcess.output(path, args, environment: environment)
    return (r.status, r.text)
}
