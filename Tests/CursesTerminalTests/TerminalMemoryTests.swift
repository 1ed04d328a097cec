import CursesTerminal
import Foundation
import Testing

/// The terminal's answers kept for its next start, by what the environment says it is.
@Suite struct TerminalMemoryTests {
    let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linnet-memory-\(UUID().uuidString)")
    var env: [String: String] { ["XDG_STATE_HOME": dir.path, "TERM": "xterm-kitty", "TERM_PROGRAM": "kitty"] }
    let light = Array("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[30;3R\u{1B}[?62;22c".utf8)

    @Test func answersAreRecalledForTheSameTerminalOnly() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(TerminalMemory.recall(environment: env) == nil)
        TerminalMemory.keep(light, environment: env)
        #expect(TerminalMemory.recall(environment: env) == light)
        var other = env
        other["TERM_PROGRAM"] = "WezTerm"
        #expect(TerminalMemory.recall(environment: other) == nil)
        // From another machine over ssh: another terminal, perhaps.
        other = env
        other["SSH_CONNECTION"] = "192.0.2.7 50000 192.0.2.1 22"
        #expect(TerminalMemory.recall(environment: other) == nil)
        // The latest answers replace the earlier ones.
        let dark = Array("\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?62;22c".utf8)
        TerminalMemory.keep(dark, environment: env)
        #expect(TerminalMemory.recall(environment: env) == dark)
        let file = TerminalMemory.file(environment: env)
        #expect(try String(contentsOf: file, encoding: .utf8).split(separator: "\n").count == 1)
    }

    @Test func sixteenTerminalsAreKeptAndADamagedFileIsNoAnswer() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        for n in 0..<20 {
            var e = env
            e["TERM_PROGRAM_VERSION"] = "\(n)"
            TerminalMemory.keep(light, environment: e)
        }
        let file = TerminalMemory.file(environment: env)
        #expect(try String(contentsOf: file, encoding: .utf8).split(separator: "\n").count == 16)
        var latest = env
        latest["TERM_PROGRAM_VERSION"] = "19"
        #expect(TerminalMemory.recall(environment: latest) == light)
        latest["TERM_PROGRAM_VERSION"] = "3"
        #expect(TerminalMemory.recall(environment: latest) == nil)
        // Not hex, an odd length, no tab: nothing is recalled, nothing breaks.
        try Data("xterm-kitty|kitty|||||||\tzz\nxterm-kitty|kitty|||||||\tabc\nno tab here\n".utf8).write(to: file)
        #expect(TerminalMemory.recall(environment: env) == nil)
        TerminalMemory.keep(light, environment: env)
        #expect(TerminalMemory.recall(environment: env) == light)
    }
}
