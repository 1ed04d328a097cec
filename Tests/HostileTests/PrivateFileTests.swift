import Foundation
import LinnetCore
import Locking
import PrivateFiles
import Synchronization
import Testing
import Timeline

#if canImport(Glibc)
    import Glibc
#endif

/// Secrets on disk: never readable by another user, not even for an instant while saving; never
/// written outside Linnet's folders; no temporary file left behind by a killed process.
@Suite struct PrivateFileTests {
    static func scratch() -> URL {
        let u = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linnet-private-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    static let account = Account(
        name: "work", screenName: "work", userID: "1", consumerKey: "ck", consumerSecret: "cs", token: "1-t",
        tokenSecret: "very-secret", bearerToken: nil, secretCommand: nil, apiBase: nil)

    /// A second thread lists the folder over and over while the accounts file is saved 300
    /// times; no entry it sees (the temporary file included) may be open to group or others.
    @Test func noFileIsEverReadableByOthersWhileSaving() async throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = root.appendingPathComponent("linnet")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let store = AccountStore(fileURL: dir.appendingPathComponent("accounts.toml"))
        let done = Atomic<Bool>(false)
        let seen = Locked<(looks: Int, loose: [String])>((0, []))
        let finished = DispatchSemaphore(value: 0)
        let watcher = Thread {
            defer { finished.signal() }
            while !done.load(ordering: .acquiring) {
                for e in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] {
                    let m = Self.mode(dir.appendingPathComponent(e).path)
                    seen.withLock {
                        $0.looks += 1
                        if m != 0 && m & 0o077 != 0 { $0.loose.append("\(e) \(String(m, radix: 8))") }
                    }
                }
            }
        }
        watcher.start()
        // 300 fsyncs and a wait: on a thread of their own, off the task pool.
        try await Blocking.run {
            for _ in 0..<300 { try store.save(.init(active: "work", accounts: [Self.account])) }
            done.store(true, ordering: .releasing)
            finished.wait()
        }
        let result = seen.withLock { $0 }
        #expect(result.looks > 0)
        #expect(result.loose.isEmpty, "seen open to others: \(result.loose.prefix(5))")
        #expect(Self.mode(store.fileURL.path) == 0o600)
        #expect(Self.mode(dir.path) == 0o700, "a 0755 linnet folder is made private")
        #expect(try store.load().accounts.first?.tokenSecret == "very-secret")
    }

    @Test func aSymlinkedAccountsFileIsWrittenThrough() throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let dots = root.appendingPathComponent("dotfiles")
        try PrivateFile.prepareFolder(dots)
        let real = dots.appendingPathComponent("accounts.toml")
        let conf = root.appendingPathComponent("config/linnet")
        try PrivateFile.prepareFolder(conf)
        let link = conf.appendingPathComponent("accounts.toml")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        let store = AccountStore(fileURL: link)
        try store.save(.init(active: "work", accounts: [Self.account]))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == real.path, "the link stays a link")
        #expect(Self.mode(real.path) == 0o600)
        #expect(try store.load().active == "work")
    }

    @Test func aFolderOfAnotherUserIsRefused() throws {
        try #require(geteuid() == 0, "needs root to give a folder to another user")
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let theirs = root.appendingPathComponent("theirs")
        try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        #expect(chown(theirs.path, 65534, 65534) == 0)
        let error = #expect(throws: PrivateFileError.self) {
            try PrivateFile.write(Data("x".utf8), to: theirs.appendingPathComponent("draft.json"))
        }
        #expect(error?.description.contains("belongs to another user") == true)
        #expect(!FileManager.default.fileExists(atPath: theirs.appendingPathComponent("draft.json").path))
    }

    @Test func aSymlinkedFolderIsRefused() throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let elsewhere = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let link = root.appendingPathComponent("cache")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: elsewhere.path)
        #expect(throws: PrivateFileError.self) { try PrivateFile.prepareFolder(link) }
    }

    /// `../../../../tmp/x` as a screen name once put the cache and drafts outside the XDG folders.
    @Test(arguments: ["../../../../tmp/x", "..", ".", "a/b", "", "x-41", String(repeating: "a", count: 300), "név"])
    func accountNamesStayInsideTheirFolder(_ name: String) {
        let env = ["XDG_CACHE_HOME": "/base/cache", "XDG_STATE_HOME": "/base/state"]
        for dir in [
            TimelineCache.defaultDirectory(account: name, environment: env), DraftStore.defaultDirectory(account: name, environment: env),
        ] {
            let parent = dir.deletingLastPathComponent().path
            #expect(parent == "/base/cache/linnet" || parent == "/base/state/linnet", "\(name) → \(dir.path)")
            let last = dir.lastPathComponent
            #expect(!last.contains("/") && last != ".." && last != "." && !last.isEmpty && last.utf8.count < 256)
        }
        #expect(PrivateFile.folderName(for: "linnet_bird") == "linnet_bird")
        #expect(PrivateFile.folderName(for: "work-bot") == "work-bot")
        #expect(PrivateFile.folderName(for: "../x") != PrivateFile.folderName(for: "..x"))
    }

    /// What a `kill -9` during a save leaves behind goes at the next start, and only that.
    @Test func leftoversOfAKilledSaveAreRemoved() throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let drafts = DraftStore(directory: root)
        try drafts.save([DraftRecord(text: "half a thought", replyTo: nil)])
        let left = [".draft.json.tmp-123-456", ".dat.nosync1a2b.XyZ"]
        for l in left { _ = FileManager.default.createFile(atPath: root.appendingPathComponent(l).path, contents: Data("old draft".utf8)) }
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("notes.txt").path, contents: Data())
        #expect(drafts.load().map(\.text) == ["half a thought"])
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: root.path))
        #expect(names == ["draft.json", "notes.txt"])
        #expect(Self.mode(drafts.fileURL.path) == 0o600)
    }

    /// A file large enough that its buffer's pages are made ahead (in one call) reads back byte
    /// for byte, whole, as a prefix, and across an unaligned end.
    @Test func largeFilesReadWholeWherePagesAreMadeAhead() throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("big")
        let count = (9 << 20) + 12_345
        // Each byte from all of its index's bits: no run of the pattern repeats.
        let bytes = (0..<count).map { i -> UInt8 in
            let z = UInt64(i) &* 0x9E37_79B9_7F4A_7C15
            return UInt8(truncatingIfNeeded: (z ^ (z >> 29)) >> 32)
        }
        try Data(bytes).write(to: file)
        #expect(try PrivateFile.readBytes(file, limit: .max) == bytes)
        #expect(try PrivateFile.readBytes(file, limit: .max, prefix: (5 << 20) + 7) == Array(bytes.prefix((5 << 20) + 7)))
        #expect(try PrivateFile.readBytes(file, limit: .max, prefix: 100) == Array(bytes.prefix(100)))
    }
}
