import Bedrock
import FoundationEssentials
import Locking
import PrivateFiles
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// An account's billable reads and writes per UTC day, kept in
/// `$XDG_STATE_HOME/linnet/<account>/usage.json` (0600). The ids read today are kept too, so a
/// post read again is not counted again, across restarts and by every Linnet process of the
/// account: a save merges with the file under a lock instead of overwriting it.
public final class UsageLedger: UsageRecording {
    public let fileURL: URL?
    public let prices: UsagePrices
    /// Polling slows as today's estimate nears this and stops when it is reached (nil: none).
    public let budgetPerDay: Double?
    let clock: any WallClock
    /// Days whose ids are kept: today and yesterday (a process running across midnight).
    static let daysWithIDs = 2
    /// Days of counts kept: enough for this month and last year's.
    static let daysKept = 400
    public static let fileLimit = 64 << 20

    struct Seen: Equatable {
        var posts = Set<UInt64>()
        var owned = Set<UInt64>()
        var users = Set<UInt64>()
    }

    struct State {
        /// Counts as last read from or written to the file.
        var days: [String: DayUsage] = [:]
        /// Ids read, for days that keep them (file's and this process's).
        var seen: [String: Seen] = [:]
        /// Writes counted since the last save, per day.
        var pending: [String: DayUsage] = [:]
        /// The account's own user id: its mentions and posts are owned reads.
        var me: UserID?
        var dirty = false
        /// The worst cases of admitted calls still in flight, in dollars.
        var held = 0.0
    }

    let state = Locked(State())

    /// Where the budget was set, for the words that say how to raise it.
    public let budgetSource: String

    public init(
        fileURL: URL?, prices: UsagePrices = UsagePrices(), budgetPerDay: Double? = nil, me: UserID? = nil,
        clock: any WallClock = SystemClock(), budgetSource: String = "budget_per_day in config.toml"
    ) {
        self.fileURL = fileURL
        self.prices = prices
        self.budgetPerDay = budgetPerDay
        self.budgetSource = budgetSource
        self.clock = clock
        state.withLock { $0.me = me }
    }

    /// `usage.json` in the account's state folder (beside its drafts).
    public static func file(in directory: URL) -> URL { directory.appendingPathComponent("usage.json") }

    /// `2026-11-23` for a Unix time, in UTC: X's billing day.
    public static func day(_ unix: Double) -> String {
        var t = time_t(unix.rounded(.down))
        var tm = tm()
        gmtime_r(&t, &tm)
        return cFormat("%04d-%02d-%02d", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday))
    }

    /// The Unix time the current UTC day ends.
    public func endOfDay() -> Double { ((clock.now() / 86400).rounded(.down) + 1) * 86400 }

    public func identify(_ me: UserID) { state.withLock { $0.me = me } }

    /// Whether a post was read today: reading it again costs nothing until 00:00 UTC.
    public func readToday(_ id: TweetID) -> Bool {
        let day = Self.day(clock.now())
        return state.withLock { s in
            guard let seen = s.seen[day] else { return false }
            return seen.posts.contains(id.rawValue) || seen.owned.contains(id.rawValue)
        }
    }

    public func record(_ b: Billable) {
        let day = Self.day(clock.now())
        state.withLock { s in
            var seen = s.seen[day] ?? Seen()
            let owned = b.owner != nil && b.owner == s.me
            if owned { seen.owned.formUnion(b.posts) } else { seen.posts.formUnion(b.posts) }
            seen.posts.formUnion(b.includedPosts)
            seen.users.formUnion(b.users)
            s.seen[day] = seen
            var w = s.pending[day] ?? DayUsage()
            w.postsCreated += b.creates
            w.postsCreatedWithURL += b.createsWithURL
            w.postsDeleted += b.deletes
            w.interactions += b.interactions
            s.pending[day] = w
            s.dirty = true
        }
    }

    /// One day's counts: the file's, with this process's reads and unsaved writes.
    public func usage(on day: String) -> DayUsage {
        state.withLock { s in Self.counts(s, day) }
    }

    private static func counts(_ s: State, _ day: String) -> DayUsage {
        var u = s.days[day] ?? DayUsage()
        if let seen = s.seen[day] {
            u.postReads = seen.posts.count
            u.ownedReads = seen.owned.count
            u.userReads = seen.users.count
        }
        return u + (s.pending[day] ?? DayUsage())
    }

    public var today: DayUsage { usage(on: Self.day(clock.now())) }
    public var todayCost: Double { today.cost(prices) }

    /// The counts of the current month (UTC) so far.
    public var month: DayUsage {
        let prefix = String(Self.day(clock.now()).prefix(8))
        return state.withLock { s in
            Set(s.days.keys).union(s.seen.keys).union(s.pending.keys).filter { $0.hasPrefix(prefix) }
                .reduce(DayUsage()) { $0 + Self.counts(s, $1) }
        }
    }

    /// How far today's estimate is into the budget (0 without one).
    public var budgetFraction: Double {
        guard let b = budgetPerDay else { return 0 }
        guard b > 0 else { return 1 }
        return todayCost / b
    }

    // MARK: - The file

    struct FileDay: Codable {
        var counts: DayUsage
        var postIDs: [UInt64]?
        var ownedIDs: [UInt64]?
        var userIDs: [UInt64]?
        enum CodingKeys: String, CodingKey {
            case counts
            case postIDs = "post_ids"
            case ownedIDs = "owned_ids"
            case userIDs = "user_ids"
        }
    }

    struct FileBody: Codable {
        var version = 1
        var days: [String: FileDay] = [:]
    }

    /// Reads the file (nothing there is an empty ledger). A damaged file is an error in words;
    /// the ledger then starts from this process's counts and the next save replaces it.
    public func load() throws {
        guard let url = fileURL else { return }
        let body = try Self.read(url)
        state.withLock { s in Self.adopt(body, into: &s) }
    }

    private static func read(_ url: URL) throws -> FileBody {
        let data: Data?
        do { data = try PrivateFile.read(url, limit: fileLimit) } catch { throw UsageError(error.description) }
        guard let data else { return FileBody() }
        do {
            return try JSONDecoder().decode(FileBody.self, from: data)
        } catch {
            throw UsageError("\(url.path) is not a usage ledger Linnet can read; it will be replaced by the next save")
        }
    }

    private static func adopt(_ body: FileBody, into s: inout State) {
        s.days = body.days.mapValues(\.counts)
        for (day, d) in body.days {
            guard d.postIDs != nil || d.ownedIDs != nil || d.userIDs != nil else { continue }
            var seen = s.seen[day] ?? Seen()
            seen.posts.formUnion(d.postIDs ?? [])
            seen.owned.formUnion(d.ownedIDs ?? [])
            seen.users.formUnion(d.userIDs ?? [])
            s.seen[day] = seen
        }
    }

    /// Merges what this process counted into the file, under a lock, so two Linnet processes
    /// of one account (the reader and `linnet post`) both count. Nothing to save is a no-op.
    public func persist() throws { try save() }

    public func save() throws {
        guard let url = fileURL, state.withLock({ $0.dirty }) else { return }
        let lock = try Self.lock(url)
        defer { close(lock) }
        var body: FileBody
        do { body = try Self.read(url) } catch { body = FileBody() }
        let today = Self.day(clock.now())
        let snapshot = state.withLock { s -> State in
            let copy = s
            s.pending = [:]
            s.dirty = false
            return copy
        }
        var merged = State()
        merged.me = snapshot.me
        Self.adopt(body, into: &merged)
        for (day, seen) in snapshot.seen {
            // A day the file no longer keeps ids for was settled by another process.
            if body.days[day] != nil, merged.seen[day] == nil { continue }
            var m = merged.seen[day] ?? Seen()
            m.posts.formUnion(seen.posts)
            m.owned.formUnion(seen.owned)
            m.users.formUnion(seen.users)
            merged.seen[day] = m
        }
        for (day, w) in snapshot.pending { merged.days[day] = (merged.days[day] ?? DayUsage()) + w }
        // Counts of days with ids come from the ids; older days drop their ids.
        let keepIDs = Set((0..<Self.daysWithIDs).map { Self.day(clock.now() - Double($0) * 86400) })
        var out = FileBody()
        let oldest = Self.day(clock.now() - Double(Self.daysKept) * 86400)
        for day in Set(merged.days.keys).union(merged.seen.keys) where day >= oldest {
            var counts = merged.days[day] ?? DayUsage()
            if let seen = merged.seen[day] {
                counts.postReads = seen.posts.count
                counts.ownedReads = seen.owned.count
                counts.userReads = seen.users.count
            }
            var d = FileDay(counts: counts)
            if keepIDs.contains(day) || day == today, let seen = merged.seen[day] {
                d.postIDs = seen.posts.sorted()
                d.ownedIDs = seen.owned.sorted()
                d.userIDs = seen.users.sorted()
            } else {
                merged.seen[day] = nil
            }
            merged.days[day] = counts
            out.days[day] = d
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try PrivateFile.write(try encoder.encode(out), to: url)
        } catch {
            // Not saved: what was counted stays to be saved next time.
            state.withLock { s in
                for (day, w) in snapshot.pending { s.pending[day] = (s.pending[day] ?? DayUsage()) + w }
                s.dirty = true
            }
            throw UsageError((error as? PrivateFileError)?.description ?? "cannot save \(url.path)")
        }
        state.withLock { s in
            // Reads and writes recorded while saving stay on top of what the file now holds.
            let newer = s
            s.days = merged.days
            s.seen = merged.seen
            for (day, seen) in newer.seen where s.seen[day] != nil || s.days[day] == nil {
                var m = s.seen[day] ?? Seen()
                m.posts.formUnion(seen.posts)
                m.owned.formUnion(seen.owned)
                m.users.formUnion(seen.users)
                s.seen[day] = m
            }
        }
    }

    /// An exclusive lock on `usage.json.lock` beside the file; released when closed.
    private static func lock(_ url: URL) throws -> Int32 {
        do { try PrivateFile.prepareFolder(url.deletingLastPathComponent()) } catch { throw UsageError(error.description) }
        let path = url.path + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw UsageError("cannot open \(path): \(PrivateFile.reason(errno))") }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let e = errno
            close(fd)
            throw UsageError("cannot lock \(path): \(PrivateFile.reason(e))")
        }
        return fd
    }
}

/// A usage ledger that could not be read or saved, in words.
public struct UsageError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Money as Linnet shows it: dollars and cents, and tenths of a cent below one cent, so a
/// first read does not show as $0.00.
public enum UsageFormat {
    public static func dollars(_ v: Double) -> String {
        v > 0 && v < 0.01 ? cFormat("$%.3f", v) : cFormat("$%.2f", v)
    }
}
