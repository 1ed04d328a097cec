import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A file operation that failed, in words ("No space left on device"), with the path.
public struct PrivateFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Files that hold secrets or a user's words (accounts, drafts, the timeline cache): created
/// mode 0600 from their first byte in a 0700 folder, replaced atomically, and never followed
/// into someone else's folder.
public enum PrivateFile {
    /// The text of an errno.
    public static func reason(_ code: Int32) -> String {
        String(validatingCString: strerror(code)) ?? "error \(code)"
    }

    /// Makes `dir` a private folder: created with 0700 (its parents as `mkdir -p` would); an
    /// existing one of ours that others may enter is set to 0700, like a fresh one. A folder
    /// that is a symlink, belongs to another user, or is not a folder is refused.
    public static func prepareFolder(_ dir: URL) throws(PrivateFileError) {
        let path = dir.path
        var st = stat()
        if lstat(path, &st) != 0 {
            guard errno == ENOENT else { throw PrivateFileError("cannot create the folder \(path): \(reason(errno))") }
            let parent = dir.deletingLastPathComponent()
            if parent.path != path, lstat(parent.path, &st) != 0 {
                do {
                    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
                } catch {
                    throw PrivateFileError(
                        "cannot create the folder \(parent.path): \(error)")
                }
            }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw PrivateFileError("cannot create the folder \(path): \(reason(errno))")
            }
            guard lstat(path, &st) == 0 else { throw PrivateFileError("cannot use the folder \(path): \(reason(errno))") }
        }
        try check(folder: path, st)
        if st.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw PrivateFileError("the folder \(path) can be read by other users and its mode cannot be changed: \(reason(errno))")
        }
    }

    /// Refuses what is not a folder of this user's. The folder's own mode is set by the caller.
    static func check(folder path: String, _ st: stat) throws(PrivateFileError) {
        if st.st_mode & S_IFMT == S_IFLNK {
            throw PrivateFileError(
                "\(path) is a symbolic link; Linnet keeps private files only in a real folder. Remove the link or point XDG_*_HOME elsewhere."
            )
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw PrivateFileError("\(path) is not a folder") }
        guard st.st_uid == geteuid() else {
            throw PrivateFileError(
                "the folder \(path) belongs to another user (uid \(st.st_uid)); Linnet will not keep private files there")
        }
    }

    /// The prefix of the temporary files made while writing `name`.
    static func temporaryPrefix(_ name: String) -> String { ".\(name).tmp-" }

    /// Replaces `url` with `data`: a temporary file beside it, opened with mode 0600 and
    /// `O_EXCL`, written, flushed to disk and renamed over the old file. When anything fails the
    /// old file is untouched and the error says why. A symlink at `url` is written through (its
    /// target is replaced), so a dotfiles setup keeps working. `privateFolder` makes the folder
    /// Linnet's own first (`prepareFolder`); false leaves a folder the user named as it is.
    public static func write(_ data: Data, to url: URL, privateFolder: Bool = true) throws(PrivateFileError) {
        var target = url
        if let dest = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
            target = URL(fileURLWithPath: dest, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
        }
        let dir = target.deletingLastPathComponent()
        if privateFolder { try prepareFolder(dir) }
        var st = stat()
        if lstat(target.path, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
            throw PrivateFileError("\(target.path) is not a regular file; nothing was written")
        }
        let tmp = dir.appendingPathComponent(temporaryPrefix(target.lastPathComponent) + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(tmp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw PrivateFileError("cannot write in \(dir.path): \(reason(errno)); \(target.lastPathComponent) was not changed")
        }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                off += n
            }
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(tmp.path, target.path) != 0 { failure = errno }
        if failure != 0 {
            unlink(tmp.path)
            throw PrivateFileError("cannot save \(target.path): \(reason(failure)); the previous version is kept")
        }
    }

    /// Removes temporary files left by a process killed while writing (ours, and Foundation's
    /// `.dat.nosync*` from older versions). Only names that only a writer makes are touched.
    public static func removeLeftovers(in dir: URL, for names: [String]) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return }
        let prefixes = names.map(temporaryPrefix) + [".dat.nosync"]
        for e in entries where prefixes.contains(where: { e.hasPrefix($0) }) {
            unlink(dir.appendingPathComponent(e).path)
        }
    }

    /// Reads a regular file of at most `limit` bytes without following a FIFO or a device:
    /// nil when there is no file; an error in words when it is something else or too big.
    public static func read(_ url: URL, limit: Int) throws(PrivateFileError) -> Data? {
        try readBytes(url, limit: limit).map { Data($0) }
    }

    /// `read`'s bytes as an array; with `prefix`, only the first `prefix` bytes (the size limit
    /// still applies to the whole file).
    public static func readBytes(_ url: URL, limit: Int, prefix: Int = .max) throws(PrivateFileError) -> [UInt8]? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw PrivateFileError("cannot read \(url.path): \(reason(errno))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw PrivateFileError("cannot read \(url.path): \(reason(errno))") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw PrivateFileError("\(url.path) is not a regular file") }
        guard st.st_size <= limit else {
            throw PrivateFileError("\(url.path) is \(st.st_size) bytes, more than the \(limit) Linnet reads")
        }
        var ok = true
        let out = [UInt8](unsafeUninitializedCapacity: min(Int(st.st_size), max(prefix, 0))) { raw, got in
            got = 0
            prefault(UnsafeMutableRawBufferPointer(raw))
            while got < raw.count {
                let n = Glibc.read(fd, raw.baseAddress! + got, raw.count - got)
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN {
                        continue
                    } else {
                        ok = false
                        break
                    }
                }
                if n == 0 { break }
                got += n
            }
        }
        guard ok else { throw PrivateFileError("cannot read \(url.path): \(reason(errno))") }
        return out
    }

    /// Makes a large fresh buffer's pages before it is read into, in one call (Linux 5.14's
    /// MADV_POPULATE_WRITE) rather than a fault for each 4 KB page, which was a fifth of loading
    /// a 42 MB cache. Refused on older kernels or left to the faults where it fails; the bytes
    /// read are the same either way. Huge pages are not asked for: where the kernel compacts
    /// memory for them on request, a fragmented machine could stall the launch.
    static func prefault(_ buffer: UnsafeMutableRawBufferPointer) {
        let page = max(4096, sysconf(Int32(_SC_PAGESIZE)))
        guard buffer.count >= 4 << 20, let base = buffer.baseAddress else { return }
        let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(page - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, 23)  // MADV_POPULATE_WRITE
    }

    /// Settings files (config, themes, accounts) are a few kilobytes; 1 MiB is far past any
    /// real one and still nothing to hold.
    public static let settingsLimit = 1 << 20

    /// A settings file as text: nil when there is none; an error in words when it is not a
    /// regular file, larger than `limit`, or not UTF-8.
    public static func readText(_ url: URL, limit: Int = settingsLimit) throws(PrivateFileError) -> String? {
        guard let data = try read(url, limit: limit) else { return nil }
        guard let text = String(data: data, encoding: .utf8) else { throw PrivateFileError("\(url.path) is not UTF-8 text") }
        return text
    }

    /// A folder name for an account: the name itself when it is made of letters, digits, `_`
    /// and `-` (1 to 64 of them, as Twitter screen names and Linnet's account names are),
    /// otherwise `x-` and the hex of its UTF-8, so no name can reach outside its folder.
    public static func folderName(for account: String) -> String {
        let safe =
            !account.isEmpty && account.utf8.count <= 64
            && account.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || $0 == 0x2D
            }
            && !account.hasPrefix("-") && !account.hasPrefix("x-")
        if safe { return account }
        return "x-" + account.utf8.prefix(100).map { cFormat("%02x", $0) }.joined()
    }
}
