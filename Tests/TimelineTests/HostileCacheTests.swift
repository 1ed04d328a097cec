import Foundation
import LinnetCore
import Testing
import TwitterAPI

@testable import Timeline

#if canImport(Glibc)
    import Glibc
#endif

/// Cache files made to hurt: lengths past the end with a valid checksum, times at the ends of
/// Int64, a FIFO, a sparse 4 GB file, a folder of another user. Never a crash or a hang; a
/// line that says what was wrong.
@Suite struct HostileCacheTests {
    func tempDir() -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-hostile-cache-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return u
    }

    /// A cache whose body is `body` after the header, with a checksum that matches.
    func crafted(_ body: (inout BinaryWriter) -> Void) -> [UInt8] {
        var w = BinaryWriter()
        w.raw(TimelineCache.magic)
        w.varint(TimelineCache.formatVersion)
        body(&w)
        let crc = CRC32.of(w.bytes)
        w.raw([UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
        return w.bytes
    }

    @Test(arguments: [UInt64.max, UInt64(Int64.max), UInt64(Int64.max) + 1, 1 << 40])
    func lengthsPastTheEndAreRefused(_ length: UInt64) {
        var w = BinaryWriter()
        w.varint(length)
        w.raw([1, 2, 3])
        var r = BinaryReader(w.bytes)
        #expect(throws: CacheFormatError.self) { _ = try r.string() }
        var r2 = BinaryReader([1, 2, 3])
        #expect(throws: CacheFormatError.self) { _ = try r2.raw(Int.max) }
        #expect(throws: CacheFormatError.self) { _ = try r2.raw(-1) }
        // In a whole file with a valid checksum: a timeline count that cannot be there.
        let bytes = crafted { $0.varint(length) }
        #expect(throws: CacheFormatError.self) { _ = try TimelineCache.decode(bytes) }
    }

    @Test func timesAtTheEndsOfInt64AreShown() {
        for t in [Int64.min, Int64.max, 0, -1] {
            let s = Format.age(created: t, now: 1_800_000_000)
            #expect(!s.isEmpty)
        }
        #expect(Format.age(created: 0, now: .nan) == "now")
        #expect(Format.wait(.infinity) == Format.wait(1e9))
        #expect(Format.wait(.nan) == "0 s")
    }

    @Test func aFIFOAtTheCachePathIsRefusedWithoutWaiting() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = TimelineCache(directory: dir)
        #expect(mkfifo(cache.fileURL.path, 0o600) == 0)
        guard case .refused(let why) = cache.load() else {
            Issue.record("a FIFO was not refused")
            return
        }
        #expect(why.contains("not a regular file"))
    }

    @Test func aHugeSparseCacheIsNotRead() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = TimelineCache(directory: dir)
        let fd = open(cache.fileURL.path, O_CREAT | O_WRONLY, 0o600)
        #expect(fd >= 0)
        #expect(ftruncate(fd, 4 << 30) == 0)
        close(fd)
        guard case .refused(let why) = cache.load() else {
            Issue.record("a 4 GB cache was not refused")
            return
        }
        #expect(why.contains("more than the \(TimelineCache.maxFileBytes)"))
    }

    @Test func aFolderAnyoneMayWriteIsNotRead() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = TimelineCache(directory: dir)
        _ = FileManager.default.createFile(
            atPath: cache.fileURL.path, contents: Data("not even a cache".utf8), attributes: [.posixPermissions: 0o600])
        #expect(chmod(dir.path, 0o777) == 0)
        guard case .refused(let why) = cache.load() else {
            Issue.record("a world-writable cache folder was read")
            return
        }
        #expect(why.contains("not a private folder"))
        #expect(FileManager.default.fileExists(atPath: cache.fileURL.path), "left where it is")
    }

    @Test func aFolderOfAnotherUserIsNotRead() throws {
        try #require(geteuid() == 0, "needs root to give a folder to another user")
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(chown(dir.path, 65534, 65534) == 0)
        guard case .refused = TimelineCache(directory: dir).load() else {
            Issue.record("another user's cache folder was read")
            return
        }
    }
}
