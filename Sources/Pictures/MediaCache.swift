import Bedrock
import FoundationEssentials
import Locking
import PrivateFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Picture files kept on disk, so each is fetched once and is there when offline: files 0600 in
/// a folder of Linnet's own, at most `limitBytes` in all, the least recently read dropped first
/// (a read touches the file's time).
public final class MediaCache: Sendable {
    public let folder: URL
    public let limitBytes: Int
    private let lock = Locked<Void>(())

    /// 64 MiB by default: some 300 photos at X's `small` size.
    public init(folder: URL, limitBytes: Int = 64 << 20) {
        self.folder = folder
        self.limitBytes = limitBytes
    }

    /// The file's name for an address (FNV-1a, 64 bits, and the address's length).
    static func name(for key: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return String(h, radix: 16) + "-" + String(key.utf8.count) + ".media"
    }

    /// The bytes kept for an address, if any.
    public func read(_ key: String) -> [UInt8]? {
        let url = folder.appendingPathComponent(Self.name(for: key))
        return lock.withLock { _ in
            guard let bytes = try? PrivateFile.readBytes(url, limit: PictureDecoder.maxFileBytes), !bytes.isEmpty else {
                return nil
            }
            _ = utimensat(AT_FDCWD, url.path, nil, 0)
            return bytes
        }
    }

    /// Keeps the bytes for an address, then drops the oldest files past the bound.
    public func store(_ key: String, _ bytes: [UInt8]) throws(PrivateFileError) {
        let url = folder.appendingPathComponent(Self.name(for: key))
        let written: Result<Void, PrivateFileError> = lock.withLock { _ in
            do throws(PrivateFileError) {
                try PrivateFile.write(Data(bytes), to: url)
            } catch {
                return .failure(error)
            }
            trim()
            return .success(())
        }
        try written.get()
    }

    /// Bytes the cache holds now.
    public var bytesHeld: Int { lock.withLock { _ in files().reduce(0) { $0 + $1.size } } }

    private func files() -> [(path: String, size: Int, time: Double)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var out: [(path: String, size: Int, time: Double)] = []
        for n in names where n.hasSuffix(".media") {
            let path = folder.appendingPathComponent(n).path
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            out.append((path, Int(st.st_size), Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9))
        }
        return out
    }

    private func trim() {
        var all = files().sorted { $0.time < $1.time }
        var total = all.reduce(0) { $0 + $1.size }
        while total > limitBytes, !all.isEmpty {
            let f = all.removeFirst()
            unlink(f.path)
            total -= f.size
        }
    }
}
