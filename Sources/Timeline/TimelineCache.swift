import Foundation
import PrivateFiles
import TwitterAPI

/// The on-disk cache of timelines, users and reading state, so the first frame shows the last
/// session's tweets before any network call. One file per account, written atomically.
public struct TimelineCache: Sendable {
    public static let magic: [UInt8] = Array("LNNTCACHE".utf8)
    /// 3 kept v2's extras (edits, conversation, withholding, reply settings), 4 media sizes and
    /// alt text; 2 and 3 are still read.
    public static let formatVersion: UInt64 = 4
    /// Newest tweets kept per timeline.
    public var keepPerTimeline: Int
    public let directory: URL
    public var fileURL: URL { directory.appendingPathComponent("timelines.cache") }

    public init(directory: URL, keepPerTimeline: Int = 1000) {
        self.directory = directory
        self.keepPerTimeline = keepPerTimeline
    }

    /// `$XDG_CACHE_HOME/linnet/<account>/` (or `~/.cache/linnet/<account>/`).
    public static func defaultDirectory(account: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
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
        var w = BinaryWriter()
        w.raw(Self.magic)
        w.varint(Self.formatVersion)
        let timelines = snapshot.timelines.sorted { $0.key.description < $1.key.description }
        var kept: [TweetID: Tweet] = [:]
        var lists: [(TimelineID, TimelineView)] = []
        for (id, view) in timelines {
            var v = view
            v.ids = Array(view.ids.prefix(keepPerTimeline))
            v.gapsBelow = v.gapsBelow.filter { gap in v.ids.contains(gap) }
            if let last = v.ids.last, view.ids.count > v.ids.count { v.gapsBelow.insert(last) }
            for t in v.ids { kept[t] = snapshot.tweets[t] }
            lists.append((id, v))
        }
        // Timelines first, then tweets newest first: a first frame needs only the head.
        w.varint(UInt64(lists.count))
        for (id, v) in lists {
            TweetCoding.write(id, &w)
            w.varint(UInt64(v.ids.count))
            for t in v.ids { w.varint(t.rawValue) }
            w.varint(UInt64(v.gapsBelow.count))
            for g in v.gapsBelow.sorted(by: >) { w.varint(g.rawValue) }
            w.varint(v.readMarker?.rawValue ?? 0)
            w.varint(v.anchor?.rawValue ?? 0)
        }
        w.varint(UInt64(kept.count))
        for t in kept.values.sorted(by: { $0.id > $1.id }) { TweetCoding.write(t, &w, depth: 0) }
        let crc = CRC32.of(w.bytes)
        w.raw([UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
        try write(Data(w.bytes))
        try saveMessages(snapshot.mailbox)
    }

    private func write(_ data: Data) throws {
        do { try PrivateFile.write(data, to: fileURL) } catch { throw CacheError("the timeline cache was not saved: \(error.description)") }
    }

    static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }

    // MARK: - Loading

    /// Reads the cache. A corrupt, truncated or foreign-version file is moved aside and
    /// reported in one line; it never stops the program.
    /// With `head`, only the newest `head` tweets of each timeline are decoded: enough for the
    /// first frame, in a fraction of the time (the checksum still covers the whole file).
    public func load(head: Int? = nil) -> LoadResult {
        var st = stat()
        if lstat(directory.path, &st) == 0 {
            if st.st_mode & S_IFMT != S_IFDIR || st.st_uid != geteuid() || st.st_mode & 0o002 != 0 {
                return .refused(
                    "the cache folder \(directory.path) is not a private folder of yours (a link, another user's, or writable by anyone); it was not read"
                )
            }
        }
        PrivateFile.removeLeftovers(in: directory, for: [fileURL.lastPathComponent])
        let bytes: [UInt8]
        do {
            guard let data = try PrivateFile.read(fileURL, limit: Self.maxFileBytes) else { return .empty }
            bytes = [UInt8](data)
        } catch {
            return .refused("the timeline cache was not read: \(error.description)")
        }
        do {
            return .loaded(try Self.decode(bytes, head: head))
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

    /// The snapshot in a cache file's bytes; throws `CacheFormatError` for anything else.
    public static func decode(_ bytes: [UInt8], head: Int? = nil) throws -> TimelineSnapshot {
        guard bytes.count >= magic.count + 4, Array(bytes.prefix(magic.count)) == magic else {
            throw CacheFormatError(description: "not a Linnet cache file")
        }
        let stored = bytes.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard CRC32.of(bytes, count: bytes.count - 4) == stored else {
            throw CacheFormatError(description: "the checksum does not match (damaged or cut short)")
        }
        var r = BinaryReader(bytes, end: bytes.count - 4)
        _ = try r.raw(magic.count)
        let version = try r.varint()
        guard (2...formatVersion).contains(version) else {
            throw CacheFormatError(description: "written by another version of Linnet (format \(version))")
        }
        var views: [TimelineID: TimelineView] = [:]
        for _ in 0..<(try r.varint()) {
            let id = try TweetCoding.readTimelineID(&r)
            var v = TimelineView()
            for _ in 0..<(try r.varint()) { v.ids.append(TweetID(try r.varint())) }
            for _ in 0..<(try r.varint()) { v.gapsBelow.insert(TweetID(try r.varint())) }
            let read = try r.varint()
            let anchor = try r.varint()
            v.readMarker = read == 0 ? nil : TweetID(read)
            v.anchor = anchor == 0 ? nil : TweetID(anchor)
            if let head {
                v.ids = Array(v.ids.prefix(head))
                if let last = v.ids.last { v.gapsBelow = v.gapsBelow.filter { $0 >= last } }
            }
            views[id] = v
        }
        var wanted = Set(views.values.flatMap(\.ids))
        var tweets = TweetTable()
        var users: [UserID: User] = [:]
        let count = try r.varint()
        for _ in 0..<count {
            if head != nil && wanted.isEmpty { return TimelineSnapshot(version: 0, tweets: tweets, timelines: views) }
            let t = try TweetCoding.readTweet(&r, users: &users, depth: 0, version: version)
            tweets[t.id] = t
            wanted.remove(t.id)
        }
        guard r.atEnd else { throw CacheFormatError(description: "unexpected data at the end") }
        return TimelineSnapshot(version: 0, tweets: tweets, timelines: views)
    }
}

/// A cache failure, in words.
public struct CacheError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ d: String) { description = d }
}
