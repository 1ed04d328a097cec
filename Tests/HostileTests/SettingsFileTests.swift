import Foundation
import LinnetCore
import PrivateFiles
import Screen
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Damaged settings files (config, theme, accounts): every kind is either read or refused with
/// one line that names the file; none crashes, none hangs (a FIFO), none is read whole when it
/// is huge.
@Suite struct SettingsFileTests {
    enum Damage: String, CaseIterable, Sendable {
        case empty, truncated, bitFlipped, invalidUTF8, huge, fifo, directory, nul
    }

    static let good: [String: String] = [
        "config.toml": "theme = \"dark\"\nconfirm_before_post = true\npanes = [\"home\", \"mentions\"]\n[poll]\nminimum_seconds = 30\n",
        "theme.toml": "name = \"mine\"\n[styles]\ntext = {}\nname = { bold = true }\nurl = { underline = true }\n",
        "accounts.toml":
            "active = \"work\"\n[accounts.work]\nscreen_name = \"work\"\nconsumer_key = \"ck\"\nconsumer_secret = \"cs\"\ntoken = \"1-t\"\ntoken_secret = \"ts\"\n",
    ]

    /// Writes `name` damaged in the given way into a fresh folder; returns its path.
    static func damaged(_ name: String, _ damage: Damage) throws -> URL {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linnet-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let url = dir.appendingPathComponent(name)
        let good = Array(Self.good[name]!.utf8)
        var bytes: [UInt8]?
        switch damage {
        case .empty: bytes = []
        case .truncated: bytes = Array(good.prefix(good.count / 2 + 3))
        case .bitFlipped:
            bytes = good
            for i in stride(from: 5, to: good.count, by: 17) { bytes![i] ^= 0x40 }
        case .invalidUTF8: bytes = good + [0xFF, 0xC0, 0x80, 0xED, 0xA0, 0x80]
        case .nul: bytes = Array(good.prefix(10)) + [0] + Array(good.dropFirst(10))
        case .huge:
            // 64 MiB without writing them: a sparse file.
            let fd = open(url.path, O_CREAT | O_WRONLY, 0o600)
            #expect(fd >= 0)
            #expect(ftruncate(fd, 64 << 20) == 0)
            close(fd)
        case .fifo: #expect(mkfifo(url.path, 0o600) == 0)
        case .directory: try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        }
        if let bytes {
            #expect(FileManager.default.createFile(atPath: url.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]))
        }
        return url
    }

    /// An error is one line that names the file and holds no control character.
    static func checkWords(_ message: String, _ url: URL) {
        #expect(message.contains(url.lastPathComponent), "\(message)")
        #expect(!message.contains("\n"))
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(message)")
        #expect(!message.contains("NSCocoaErrorDomain"))
    }

    /// The undamaged files load, so a refusal below is the damage's doing.
    @Test func theUndamagedFilesLoad() throws {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linnet-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in Self.good {
            #expect(
                FileManager.default.createFile(
                    atPath: dir.appendingPathComponent(name).path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        }
        #expect(try Config.load(dir.appendingPathComponent("config.toml")).confirmBeforePost)
        #expect(try Theme.load(dir.appendingPathComponent("theme.toml").path, environment: [:]).name == "mine")
        #expect(try AccountStore(fileURL: dir.appendingPathComponent("accounts.toml")).load().accounts.map(\.token) == ["1-t"])
    }

    @Test(arguments: Damage.allCases)
    func configIsReadOrRefusedInWords(_ damage: Damage) throws {
        let url = try Self.damaged("config.toml", damage)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        do {
            _ = try Config.load(url)
            #expect([.empty, .truncated, .bitFlipped].contains(damage), "a \(damage) config was accepted")
        } catch {
            Self.checkWords(error.description, url)
            if damage == .huge { #expect(error.description.contains("more than")) }
        }
    }

    @Test(arguments: Damage.allCases)
    func themeIsReadOrRefusedInWords(_ damage: Damage) throws {
        let url = try Self.damaged("theme.toml", damage)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        do {
            _ = try Theme.load(url.path, environment: [:])
            #expect([.empty, .truncated, .bitFlipped].contains(damage), "a \(damage) theme was accepted")
        } catch {
            Self.checkWords(error.description, url)
        }
    }

    @Test(arguments: Damage.allCases)
    func accountsAreReadOrRefusedInWords(_ damage: Damage) throws {
        let url = try Self.damaged("accounts.toml", damage)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        do {
            let c = try AccountStore(fileURL: url).load()
            #expect([.empty, .truncated, .bitFlipped].contains(damage), "a \(damage) accounts file was accepted")
            // What was read is what the file said, nothing invented.
            for a in c.accounts { #expect(a.name == "work") }
        } catch {
            Self.checkWords(error.description, url)
        }
    }
}
