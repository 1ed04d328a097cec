import Foundation
import Glibc
import Locking
import Testing

@testable import LinnetCore

/// `secret_command`, `client_secret_command`, `refresh_token_command`: a command that prints
/// without end or never exits is stopped (its whole process group) and named, its output never
/// shown.
@Suite struct SecretCommandTests {
    /// `firstLine` waits on a child process: run on a thread of its own, off the task pool.
    static func firstLine(_ cmd: String, named: String, account: String, seconds: Double = AccountStore.secretDeadline) async throws
        -> String
    {
        try await Blocking.run { try AccountStore.firstLine(of: cmd, named: named, account: account, seconds: seconds) }
    }

    @Test func theFirstLineOfAGoodCommand() async throws {
        #expect(try await Self.firstLine("printf 'abc\\nrest\\n'", named: "secret_command", account: "a") == "abc")
        #expect(try await Self.firstLine("printf '\\r\\nxyz\\r\\nrest'", named: "secret_command", account: "a") == "xyz")
    }

    @Test func endlessOutputIsCutAtTheBoundAndNeverShown() async throws {
        let before = Self.peakKB()
        do {
            _ = try await Self.firstLine("yes SECRETSECRET", named: "refresh_token_command", account: "a")
            Issue.record("endless output must be refused")
        } catch let e as AccountsError {
            #expect(e.description.contains("refresh_token_command for \"a\" printed more than 64 KB"), "\(e)")
            #expect(!e.description.contains("SECRET"))
        }
        // 157 MB at once, as found: refused at the bound, memory not grown by it.
        do {
            _ = try await Self.firstLine("head -c 157000000 /dev/zero | tr '\\0' 'x'", named: "client_secret_command", account: "a")
            Issue.record("157 MB must be refused")
        } catch let e as AccountsError {
            #expect(e.description.contains("printed more than 64 KB"), "\(e)")
        }
        // Printed, not asserted: other tests share this process's peak.
        print("secret command: peak RSS grew \(Self.peakKB() - before) KB reading endless and 157 MB outputs")
    }

    @Test func aCommandThatNeverEndsIsStoppedWithItsGroup() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("pid").path
        do {
            _ = try await Self.firstLine("sleep 300 & echo $! > \(pidFile); wait", named: "secret_command", account: "b", seconds: 3)
            Issue.record("a command that never ends must be stopped")
        } catch let e as AccountsError {
            #expect(e.description == "secret_command for \"b\" did not finish within 3 seconds; it was stopped", "\(e)")
        }
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // The sleep it started went with it (gone, or a zombie waiting for init to reap it).
        var gone = false
        for _ in 0..<100 where !gone {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            gone = stat.isEmpty || stat.contains(") Z ")
            if !gone { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        #expect(gone, "the command's child \(pid) was left running")
    }

    static func peakKB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
}
