import Foundation
import Locking
import PrivateFiles
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// X's pay-per-use prices in US dollars per item (docs/PROTOCOL-V2.md §1); config.toml's
/// `[prices]` overrides them.
public struct UsagePrices: Equatable, Sendable {
    public var postRead = 0.005
    public var ownedRead = 0.001
    public var userRead = 0.010
    public var postCreate = 0.015
    public var postCreateWithURL = 0.20
    public var delete = 0.010
    public var interaction = 0.015
    public init() {}

    /// The names config.toml uses, each with the field it sets.
    public static var names: [(String, WritableKeyPath<UsagePrices, Double>)] {
        [
            ("post_read", \.postRead), ("owned_read", \.ownedRead), ("user_read", \.userRead), ("post_create", \.postCreate),
            ("post_create_with_url", \.postCreateWithURL), ("delete", \.delete), ("interaction", \.interaction),
        ]
    }
}

/// What one UTC day was billed for, counted as X bills: a post or user read again the same day
/// is counted once.
public struct DayUsage: Codable, Equatable, Sendable {
    public var postReads = 0
    public var ownedReads = 0
    public var userReads = 0
    public var postsCreated = 0
    public var postsCreatedWithURL = 0
    public var postsDeleted = 0
    public var interactions = 0
    /// Calls not sent because they could have passed the day's budget (not billed).
    public var refusedCalls: Int?
    public init() {}

    public func cost(_ p: UsagePrices) -> Double {
        Double(postReads) * p.postRead + Double(ownedReads) * p.ownedRead + Double(userReads) * p.userRead
            + Double(postsCreated) * p.postCreate + Double(postsCreatedWithURL) * p.postCreateWithURL
            + Double(postsDeleted) * p.delete + Double(interactions) * p.interaction
    }

    /// Each count with its config.toml price name, for `linnet usage`.
    public func items(_ p: UsagePrices) -> [(name: String, count: Int, price: Double)] {
        [
            ("post_read", postReads, p.postRead), ("owned_read", ownedReads, p.ownedRead), ("user_read", userReads, p.userRead),
            ("post_create", postsCreated, p.postCreate), ("post_create_with_url", postsCreatedWithURL, p.postCreateWithURL),
            ("delete", postsDeleted, p.delete), ("interaction", interactions, p.interaction),
        ]
    }

    static func + (a: DayUsage, b: DayUsage) -> DayUsage {
        var s = a
        s.postReads += b.postReads
        s.ownedReads += b.ownedReads
        s.userReads += b.userReads
        s.postsCreated += b.postsCreated
        s.postsCreatedWithURL += b.postsCreatedWithURL
        s.postsDeleted += b.postsDeleted
        s.interactions += b.interactions
        if let r = b.refusedCalls { s.refusedCalls = (s.refusedCalls ?? 0) + r }
        return s
    }

    enum CodingKeys: String, CodingKey {
        case postReads = "post_reads"
        case ownedReads = "owned_reads"
        case userReads = "user_reads"
        case postsCreated = "posts_created"
        case postsCreatedWithURL = "posts_created_with_url"
        case postsDeleted = "posts_deleted"
        case interactions
        case refusedCalls = "refused_calls"
    }
}

/// An account's billable reads and writes per UTC day, kept in
/// `$XDG_STATE_HOME/linnet/<account>/usage.json` (0600). The ids read today are kept too, so a
/// post read again is not counted again, across restarts and by every Linnet process of the
/// account: a save merges with the file under a lock instead of overwriting it.
public final class UsageLedger: UsageRecording {
    public let fileURL: URL?
    public let prices: UsagePrices
    /// Polling slows as today's estimate nears this and stops when it is reached (nil: none).
    public let budgetPerDay: Double?
    private let clock: any WallClock
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

    private let state = Locked(State())

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
        return String(format: "%04d-%02d-%02d", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday))
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

    /// What a call could cost at most, from its worst case (ids unknown: each counted).
    public func price(_ worst: Billable) -> Double {
        let owned = worst.owner != nil && worst.owner == state.withLock { $0.me }
        var u = DayUsage()
        if owned { u.ownedReads = worst.posts.count } else { u.postReads = worst.posts.count }
        u.postReads += worst.includedPosts.count
        u.userReads = worst.users.count
        u.postsCreated = worst.creates
        u.postsCreatedWithURL = worst.createsWithURL
        u.postsDeleted = worst.deletes
        u.interactions = worst.interactions
        return u.cost(prices)
    }

    /// The budget gate (every call the client sends asks it): a call whose worst case would take
    /// today's spending past `budget_per_day` is not sent, and is counted as refused.
    public func admit(_ worst: Billable) -> String? {
        guard let budget = budgetPerDay else { return nil }
        let cost = price(worst)
        let spent = todayCost
        let day = Self.day(clock.now())
        // Held against the budget with what other calls in flight hold, under one lock.
        let admitted = state.withLock { s -> Bool in
            guard cost > 0, spent + s.held + cost > budget + 1e-9 else {
                s.held += cost
                return true
            }
            var w = s.pending[day] ?? DayUsage()
            w.refusedCalls = (w.refusedCalls ?? 0) + 1
            s.pending[day] = w
            s.dirty = true
            return false
        }
        if admitted { return nil }
        return "Not sent: it could cost up to \(UsageFormat.dollars(cost)), and today's budget of \(UsageFormat.dollars(budget)) has "
            + "\(UsageFormat.dollars(max(0, budget - spent))) left. Reads resume at 00:00 UTC, or raise \(budgetSource)."
    }

    public func settle(_ worst: Billable) {
        let cost = price(worst)
        state.withLock { $0.held = max(0, $0.held - cost) }
    }

    /// How many posts, each priced as `perPost` (one post of a page at its worst), today's
    /// budget still pays for; nil without a budget.
    public func affordablePosts(_ perPost: Billable) -> Int? {
        guard let budget = budgetPerDay else { return nil }
        let each = price(perPost)
        guard each > 0 else { return 1_000 }
        let held = state.withLock { $0.held }
        // Bounded before it becomes an Int: a tiny price or an endless budget must not trap.
        let n = ((budget - todayCost - held) / each + 1e-9).rounded(.down)
        return n.isFinite ? Int(max(0, min(1_000, n))) : (n > 0 ? 1_000 : 0)
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
        v > 0 && v < 0.01 ? String(format: "$%.3f", v) : String(format: "$%.2f", v)
    }
}
