import FoundationEssentials
import PrivateFiles
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The answers the terminal gave last time (`$XDG_STATE_HOME/linnet/terminal`), by what the
/// environment says the terminal is: the first frame is drawn in their theme and widths at
/// once, without waiting for this time's answers, which are taken when they come. A terminal
/// met for the first time is waited for briefly instead (`CursesTerminal.startGrace`).
public enum TerminalMemory {
    /// Terminals kept, the latest first.
    static let kept = 16

    public static func file(environment: [String: String]) -> URL {
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((environment["HOME"] ?? "/") + "/.local/state")
        return URL(fileURLWithPath: state).appendingPathComponent("linnet").appendingPathComponent("terminal")
    }

    /// The terminal as the environment names it: its program and version, its colours, tmux,
    /// and the machine an ssh session comes from.
    static func identity(_ env: [String: String]) -> String {
        let names = ["TERM", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "LC_TERMINAL", "COLORTERM", "VTE_VERSION", "COLORFGBG"]
        var parts = names.map { env[$0] ?? "" }
        parts.append(env["TMUX"] == nil ? "" : "tmux")
        parts.append(String(env["SSH_CONNECTION"]?.split(separator: " ").first ?? ""))
        return parts.joined(separator: "|").filter { $0 != "\t" && $0 != "\n" }
    }

    /// What the file held when last read, by its path, time and size: start-up asks three
    /// times (theme, pictures, widths) and reads it once; a change by another process is seen.
    private static let read = Mutex<(stamp: String, entries: [(id: String, reply: [UInt8])])?>(nil)

    /// The last answers of this terminal, if it was met before.
    public static func recall(environment: [String: String]) -> [UInt8]? {
        let id = identity(environment)
        return entries(environment).first { $0.id == id }?.reply
    }

    /// Keeps this time's answers, the latest terminal first (mode 0600: it names the machine an
    /// ssh session comes from). Nothing is said when the file cannot be written: the next start
    /// only waits a little longer.
    public static func keep(_ reply: [UInt8], environment: [String: String]) {
        let id = identity(environment)
        let reply = Array(reply.prefix(1024))
        var all = entries(environment)
        if let first = all.first, first.id == id, first.reply == reply { return }
        all.removeAll { $0.id == id }
        all.insert((id, reply), at: 0)
        let text = all.prefix(kept).map { $0.id + "\t" + hex($0.reply) }.joined(separator: "\n") + "\n"
        try? PrivateFile.write(Data(text.utf8), to: file(environment: environment))
    }

    static func entries(_ environment: [String: String]) -> [(id: String, reply: [UInt8])] {
        let url = file(environment: environment)
        var st = stat()
        guard stat(url.path, &st) == 0 else { return [] }
        let stamp = "\(url.path) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) \(st.st_size)"
        if let known = read.withLock({ $0 }), known.stamp == stamp { return known.entries }
        var found: [(id: String, reply: [UInt8])] = []
        if let data = try? Data(contentsOf: url), data.count < 64 << 10 {
            found = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count == 2, let reply = bytes(fields[1]) else { return nil }
                return (String(fields[0]), reply)
            }
        }
        read.withLock { $0 = (stamp, found) }
        return found
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes { out += [digits[Int(b >> 4)], digits[Int(b & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    static func bytes(_ hex: Substring) -> [UInt8]? {
        let u = Array(hex.utf8)
        guard u.count % 2 == 0, u.count <= 2048 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < u.count {
            guard let h = UInt8(String(decoding: u[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(h)
            i += 2
        }
        return out
    }
}
