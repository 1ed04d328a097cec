import Bedrock
import FoundationEssentials
import PrivateFiles
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The on-disk cache of timelines, users and reading state, so the first frame shows the last
/// session's tweets before any network call. One file per account, written atomically.
public struct TimelineCache: Sendable {
    public static let magic: [UInt8] = Array("LNNTCACHE".utf8)
    /// 5 has a head section read alone for the first frame, users written once and entities
    /// packed; 3 kept v2's extras, 4 media sizes and alt text; 8 entities as a held tweet keeps
    /// them. 2 to 7 are still read.
    public static let formatVersion: UInt64 = 8
    /// Tweets per timeline in the file's head.
    public static let headPerTimeline = 200
    /// Newest tweets kept per timeline.
    public var keepPerTimeline: Int
    public let directory: URL
    public var fileURL: URL { directory.appendingPathComponent("timelines.cache") }

    public init(directory: URL, keepPerTimeline: Int = 1000) {
        self.directory = directory
        self.keepPerTimeline = keepPerTimeline
    }

    /// `$XDG_CACHE_HOME/linnet/<account>/` (or `~/.cache/linnet/<account>/`).
    public static func defaultDirectory(account: String, environment: [String: String] = ProcessEnvironment.values) -> URL {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? Path.home()) + "/.cache")
        return URL(fileURLWithPath: base).appendingPathComponent("linnet").appendingPathComponent(PrivateFile.folderName(for: account))
    }

    /// What loading found.
    public enum LoadResult: Sendable {
        case loaded(TimelineSnapshot)
        case empty
        /// The file was unreadable and was moved aside; the message says so in one line.
        case setAside(String)
        /// The file or its folder is not one Linnet trusts or can read (a FIFO, too big,
        /// another user's folder); left where it is, and the message says why.
        case refused(String)
    }

    // MARK: - Saving

    /// Writes the newest tweets of each timeline (temporary file, then rename). Throws a plain
    /// error when the directory cannot be written (a full disk, permissions).
    public func save(_ snapshot: TimelineSnapshot) throws {
        try write(Data(Self.encode(snapshot, keepPerTimeline: keepPerTimeline)))
        try saveMessages(snapshot.mailbox)
    }

    private func write(_ data: Data) throws {
        do { try PrivateFile.write(data, to: fileURL) } catch { throw CacheError("the timeline cache was not saved: \(error.description)") }
    }

    static func reason(_ error: any Error) -> String {
        String(describing: error)
    }

    // MARK: - Loading

    /// Reads the cache. A corrupt, truncated or foreign-version file is moved aside and
    /// reported in one line; it never stops the program.
    /// With `headOnly`, only the file's head is read: the newest `headPerTimeline` tweets of
    /// each timeline, enough for the first frame, a small part of the file.
    public func load(headOnly: Bool = false) -> LoadResult {
        var st = stat()
        if lstat(directory.path, &st) == 0 {
            if st.st_mode & S_IFMT != S_IFDIR || st.st_uid != geteuid() || st.st_mode & 0o002 != 0 {
                return .refused(
                    "the cache folder \(directory.path) is not a private folder of yours (a link, another user's, or writable by anyone); it was not read"
                )
            }
        }
        PrivateFile.removeLeftovers(in: directory, for: [fileURL.lastPathComponent])
        var bytes: [UInt8]
        do {
            // A head is read whatever the file's size (its own length is bounded); a whole
            // file only up to the bound.
            guard
                let read = try PrivateFile.readBytes(
                    fileURL, limit: headOnly ? .max : Self.maxFileBytes, prefix: headOnly ? Self.headGuess : .max)
            else { return .empty }
            bytes = read
            if headOnly {
                // Older formats have no head of their own: the whole file then.
                let need = Self.headEnd(bytes) ?? .max
                if need > bytes.count, bytes.count == Self.headGuess {
                    bytes = try PrivateFile.readBytes(fileURL, limit: need == .max ? Self.maxFileBytes : .max, prefix: need) ?? []
                }
            }
        } catch {
            return .refused("the timeline cache was not read: \(error.description)")
        }
        do {
            return .loaded(try Self.decode(bytes, headOnly: headOnly))
        } catch {
            let aside = fileURL.path + ".unreadable-\(Int(Date().timeIntervalSince1970))"
            let moved = rename(fileURL.path, aside) == 0
            return .setAside(
                "the timeline cache \(fileURL.path) could not be read (\(error)); "
                    + (moved ? "moved it to \(aside) and starting fresh" : "starting fresh"))
        }
    }

    /// The largest cache file read (a cache of 10,000 tweets is about 3.4 MB).
    public static let maxFileBytes = 256 << 20
    /// Bytes read first for a head: most heads fit, so one read.
    static let headGuess = 256 << 10
}

/// A cache failure, in words.
public struct CacheError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ d: String) { description = d }
}
