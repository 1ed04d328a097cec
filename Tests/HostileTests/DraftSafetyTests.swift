import Foundation
import LinnetCore
import LinnetTestSupport
import PrivateFiles
import Screen
import Testing
import Timeline
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Drafts are the user's words: a damaged file is set aside and named, and a save that fails
/// on a full disk is said in words, and the quit does not go ahead as if it had worked.
@MainActor @Suite(.serialized) struct DraftSafetyTests {
    nonisolated static func scratch() -> URL {
        let u = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("linnet-drafts-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return u
    }

    /// An app on a store and an engine whose server refuses connections: the reader runs
    /// offline, as it does on a train.
    static func app(_ terminal: MemoryTerminal, drafts: DraftStore) -> App {
        let store = TimelineStore()
        let client = TwitterClient(
            endpoints: .single("http://127.0.0.1:9"),
            auth: .user(OAuthCredentials(consumerKey: "k", consumerSecret: "s", token: "1-t", tokenSecret: "x")))
        let engine = SyncEngine(client: client, store: store, account: User(id: UserID(1), screenName: "me", name: "Me"))
        var settings = App.Settings()
        settings.drafts = drafts
        settings.themes = ["dark"]
        return App(terminal: terminal, store: store, engine: engine, settings: settings, wake: {})
    }

    static func typed(_ text: String) -> [Key] { text.map { Key.char($0) } }

    @Test(arguments: ["{", "[{\"text\": 5}]", "\u{0}\u{1}binary", "[{\"replyTo\":\"x\"}]", "null", "\"just a string\""])
    func aDamagedDraftFileIsSetAsideAndNamed(_ content: String) async throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let drafts = DraftStore(directory: dir)
        _ = FileManager.default.createFile(
            atPath: drafts.fileURL.path, contents: Data(content.utf8), attributes: [.posixPermissions: 0o600])
        let found = drafts.read()
        #expect(found.drafts.isEmpty)
        let problem = try #require(found.problem)
        #expect(problem.contains("was not used") && problem.contains("moved to"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("draft.json.unreadable-") }
        #expect(aside.count == 1)
        #expect(FileManager.default.contents(atPath: dir.appendingPathComponent(aside[0]).path) == Data(content.utf8), "kept byte for byte")
    }

    @Test func theReaderSaysADamagedDraftFileWasSetAside() async throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let drafts = DraftStore(directory: dir)
        _ = FileManager.default.createFile(
            atPath: drafts.fileURL.path, contents: Data("{ half".utf8), attributes: [.posixPermissions: 0o600])
        let terminal = MemoryTerminal(width: 220, height: 20, script: [[], []])
        await Self.app(terminal, drafts: drafts).run()
        #expect(terminal.frames.contains { $0.text.contains("The drafts file") && $0.text.contains("was not used") })
    }

    /// A 64 KB tmpfs filled to the brim: the draft cannot be saved. The first quit is called
    /// off with a notice; the second goes ahead. Needs root to mount.
    @Test func aFullDiskCallsOffTheFirstQuit() async throws {
        try #require(geteuid() == 0, "mounting a small tmpfs needs root; skipped")
        let mountPoint = Self.scratch()
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        try #require(mount("tmpfs", mountPoint.path, "tmpfs", 0, "size=64k") == 0, "mount refused here (errno \(errno)); skipped")
        defer { umount(mountPoint.path) }
        let dir = mountPoint.appendingPathComponent("linnet/me")
        try PrivateFile.prepareFolder(dir)
        let filler = open(mountPoint.appendingPathComponent("filler").path, O_CREAT | O_WRONLY, 0o600)
        let block = [UInt8](repeating: 0x41, count: 4096)
        while write(filler, block, block.count) > 0 {}
        close(filler)
        let drafts = DraftStore(directory: dir)
        let terminal = MemoryTerminal(
            width: 220, height: 20,
            script: [
                [.char("n")], Self.typed("a thought worth keeping"), [.escape], [.char("q")], [.char("y")], [],
                [.char("q")], [.char("y")], [.char("z")],
            ])
        let app = Self.app(terminal, drafts: drafts)
        await app.run()
        #expect(app.state.quitting, "the second quit went ahead")
        #expect(terminal.remaining == 1, "the reader ended at the second quit, not before")
        let said = terminal.frames.map(\.text)
        #expect(said.contains { $0.contains("The draft was NOT saved") && $0.contains("No space left on device") })
        #expect(!FileManager.default.fileExists(atPath: drafts.fileURL.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(leftovers.isEmpty, "no temporary file left: \(leftovers)")
    }
}

/// The timeline cache on a full disk: the save fails in words and the last good cache stays.
@Suite struct CacheFullDiskTests {
    static func snapshot(_ count: Int, from first: UInt64) -> TimelineSnapshot {
        let user = User(id: UserID(7), screenName: "ann", name: "Ann")
        var table = TweetTable()
        var ids: [TweetID] = []
        for i in 0..<UInt64(count) {
            let id = TweetID(first + i)
            table[id] = Tweet(
                id: id, createdAt: 1_800_000_000 + Int64(i), user: user, text: "tweet \(i) " + String(repeating: "words ", count: 40))
            ids.insert(id, at: 0)
        }
        return TimelineSnapshot(version: 1, tweets: table, timelines: [.home: TimelineView(ids: ids)])
    }

    @Test func aFullDiskKeepsTheLastGoodCache() throws {
        try #require(geteuid() == 0, "mounting a small tmpfs needs root; skipped")
        let mountPoint = DraftSafetyTests.scratch()
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        try #require(mount("tmpfs", mountPoint.path, "tmpfs", 0, "size=256k") == 0, "mount refused here (errno \(errno)); skipped")
        defer { umount(mountPoint.path) }
        let dir = mountPoint.appendingPathComponent("linnet/me")
        let cache = TimelineCache(directory: dir)
        try cache.save(Self.snapshot(20, from: 1000))
        // Fill what is left, then try to save a larger picture.
        let filler = open(mountPoint.appendingPathComponent("filler").path, O_CREAT | O_WRONLY, 0o600)
        let block = [UInt8](repeating: 0x41, count: 4096)
        while write(filler, block, block.count) > 0 {}
        close(filler)
        let error = #expect(throws: (any Error).self) { try cache.save(Self.snapshot(400, from: 5000)) }
        let words = "\(error.map { "\($0)" } ?? "")"
        #expect(words.contains("No space left on device"), "\(words)")
        #expect(!words.contains("NSCocoaErrorDomain"))
        // The cache that was there loads whole; no temporary file is left beside it.
        guard case .loaded(let kept) = cache.load() else {
            Issue.record("the last good cache did not load")
            return
        }
        #expect(kept.timelines[.home]?.ids.count == 20)
        #expect(kept.timelines[.home]?.ids.first == TweetID(1019))
        let entries = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(entries.allSatisfy { !$0.hasPrefix(".") }, "leftovers: \(entries)")
    }
}
