import Foundation

/// A detached tmux session running a command in a real pseudo-terminal: keys in, screen text out.
struct Tmux {
    let name: String

    @discardableResult
    static func run(_ args: [String]) throws -> String { try runProcess("/usr/bin/env", ["tmux"] + args).output }

    static func start(_ command: String, width: Int, height: Int) throws -> Tmux {
        let name = "linnet-e2e-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        try run(["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height),
                 "-e", "LANG=C.UTF-8", "-e", "TERM=tmux-256color", command])
        return Tmux(name: name)
    }

    func keys(_ keys: String...) throws { try Self.run(["send-keys", "-t", name] + keys) }
    func type(_ text: String) throws { try Self.run(["send-keys", "-t", name, "-l", text]) }
    func screen() throws -> String { try Self.run(["capture-pane", "-p", "-t", name]) }
    func resize(_ w: Int, _ h: Int) throws { try Self.run(["resize-window", "-t", name, "-x", String(w), "-y", String(h)]) }
    func display(_ format: String) throws -> String {
        try Self.run(["display-message", "-p", "-t", name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    func kill() { _ = try? Self.run(["kill-session", "-t", name]) }

    /// Waits (up to `seconds`) for the screen to satisfy `condition`; returns the last screen.
    func wait(_ seconds: Double = 20, _ condition: (String) -> Bool) throws -> (ok: Bool, screen: String) {
        let end = Date().addingTimeInterval(seconds)
        var last = ""
        repeat {
            last = try screen()
            if condition(last) { return (true, last) }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < end
        return (false, last)
    }
}

/// Runs a program to its end; its exit status and what it printed (stdout and stderr).
func runProcess(_ path: String, _ args: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    if let environment { p.environment = environment }
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}
