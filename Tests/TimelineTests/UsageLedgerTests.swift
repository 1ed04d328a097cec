import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// The usage ledger counts as X bills (docs/PROTOCOL-V2.md §1): a post or user read again the
/// same UTC day once, owned reads apart, writes each time; and keeps the count on disk for every
/// Linnet process of the account.
@Suite struct UsageLedgerTests {
    /// 2027-01-15 12:00:00 UTC.
    static let noon = 1_800_014_400.0

    static func folder() -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-usage-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func read(posts: [UInt64] = [], owner: UInt64? = nil, included: [UInt64] = [], users: [UInt64] = []) -> Billable {
        var b = Billable()
        b.posts = posts
        b.owner = owner.map(UserID.init)
        b.includedPosts = included
        b.users = users
        return b
    }

    @Test func aReadIsCountedOnceADayAndOwnedReadsApart() {
        let clock = ManualClock(now: Self.noon)
        let ledger = UsageLedger(fileURL: nil, me: UserID(7), clock: clock)
        ledger.record(Self.read(posts: [1, 2, 3], included: [3, 4], users: [10, 11]))
        ledger.record(Self.read(posts: [2, 3], users: [11, 12]))
        // The account's own mentions: owned reads; another user's posts: ordinary reads.
        ledger.record(Self.read(posts: [5, 6], owner: 7))
        ledger.record(Self.read(posts: [8], owner: 99))
        var write = Billable()
        write.createsWithURL = 1
        write.interactions = 2
        ledger.record(write)
        ledger.record(write)
        let u = ledger.today
        #expect(u.postReads == 5)  // 1, 2, 3, 4, 8
        #expect(u.ownedReads == 2)
        #expect(u.userReads == 3)
        #expect(u.postsCreatedWithURL == 2)
        #expect(u.interactions == 4)
        // 5 × 0.005 + 2 × 0.001 + 3 × 0.010 + 2 × 0.20 + 4 × 0.015
        #expect(abs(ledger.todayCost - 0.517) < 1e-9)
        #expect(UsageFormat.dollars(ledger.todayCost) == "$0.52")
        #expect(ledger.readToday(TweetID(4)) && ledger.readToday(TweetID(5)) && !ledger.readToday(TweetID(9)))

        // A new UTC day bills the same posts again; the month holds both days.
        clock.advance(by: 86400)
        ledger.record(Self.read(posts: [1, 2]))
        #expect(ledger.today.postReads == 2)
        #expect(!ledger.readToday(TweetID(4)))
        #expect(ledger.month.postReads == 7)
        #expect(ledger.month.postsCreatedWithURL == 2)
        #expect(UsageLedger.day(Self.noon) == "2027-01-15")
    }

    @Test func pricesComeFromTheTable() {
        var p = UsagePrices()
        p.postRead = 0.01
        let ledger = UsageLedger(fileURL: nil, prices: p, budgetPerDay: 0.05, clock: ManualClock(now: Self.noon))
        ledger.record(Self.read(posts: [1, 2, 3, 4]))
        #expect(abs(ledger.todayCost - 0.04) < 1e-9)
        #expect(abs(ledger.budgetFraction - 0.8) < 1e-9)
        #expect(UsageFormat.dollars(0.004) == "$0.004")
        #expect(UsageFormat.dollars(0) == "$0.00")
    }

    @Test func pollingSlowsFromThreeQuartersOfTheBudget() {
        #expect(SyncEngine.budgetSlowdown(0) == 1)
        #expect(SyncEngine.budgetSlowdown(0.75) == 1)
        #expect(abs(SyncEngine.budgetSlowdown(0.875) - 5.5) < 1e-9)
        #expect(SyncEngine.budgetSlowdown(1) == 10)
        #expect(SyncEngine.budgetSlowdown(3) == 10)
    }

    @Test func twoProcessesOfOneAccountBothCount() throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = UsageLedger.file(in: dir)
        let clock = ManualClock(now: Self.noon)
        let reader = UsageLedger(fileURL: file, clock: clock)
        let poster = UsageLedger(fileURL: file, clock: clock)
        try reader.load()
        try poster.load()
        reader.record(Self.read(posts: [1, 2], users: [10]))
        var post = Billable()
        post.creates = 1
        poster.record(post)
        poster.record(Self.read(posts: [2, 3], users: [10]))
        try reader.save()
        try poster.save()
        // Saving again adds nothing: writes are counted once.
        try poster.save()
        try reader.save()

        let later = UsageLedger(fileURL: file, clock: clock)
        try later.load()
        #expect(later.today.postReads == 3)
        #expect(later.today.userReads == 1)
        #expect(later.today.postsCreated == 1)
        // A post read before the restart is not billed again the same day.
        later.record(Self.read(posts: [1]))
        #expect(later.today.postReads == 3)
        // The reader sees what the poster saved once it saves again.
        reader.record(Self.read(posts: [4]))
        try reader.save()
        #expect(reader.today.postsCreated == 1)
        #expect(reader.today.postReads == 4)

        var st = stat()
        #expect(stat(file.path, &st) == 0 && st.st_mode & 0o777 == 0o600)
    }

    @Test func onlyTodayAndYesterdayKeepTheirIds() throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = UsageLedger.file(in: dir)
        let clock = ManualClock(now: Self.noon)
        let ledger = UsageLedger(fileURL: file, clock: clock)
        ledger.record(Self.read(posts: [1, 2, 3]))
        try ledger.save()
        clock.advance(by: 2 * 86400)
        ledger.record(Self.read(posts: [4]))
        try ledger.save()
        let text = try String(contentsOf: file, encoding: .utf8)
        let json = try JSONValue.parse(Data(text.utf8))
        let old = try #require(json["days"]?["2027-01-15"])
        #expect(old["counts"]?["post_reads"]?.intValue == 3)
        #expect(old["post_ids"] == nil, "ids of a day two days back are dropped: \(text)")
        #expect(json["days"]?["2027-01-17"]?["post_ids"] != nil)
        let reread = UsageLedger(fileURL: file, clock: clock)
        try reread.load()
        #expect(reread.usage(on: "2027-01-15").postReads == 3)
        #expect(reread.month.postReads == 4)
    }

    @Test func aDamagedLedgerIsNamedAndReplaced() throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = UsageLedger.file(in: dir)
        try Data("{\"days\": [1, 2".utf8).write(to: file)
        let ledger = UsageLedger(fileURL: file, clock: ManualClock(now: Self.noon))
        #expect(throws: UsageError.self) { try ledger.load() }
        do {
            try ledger.load()
        } catch {
            #expect("\(error)".contains("usage.json is not a usage ledger Linnet can read"))
        }
        ledger.record(Self.read(posts: [1]))
        try ledger.save()
        let again = UsageLedger(fileURL: file, clock: ManualClock(now: Self.noon))
        try again.load()
        #expect(again.today.postReads == 1)
    }

    @Test func aSaveThatFailsKeepsTheCountForTheNext() throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The ledger's folder is a file: nothing can be written there.
        let blocked = dir.appendingPathComponent("state")
        try Data().write(to: blocked)
        let ledger = UsageLedger(fileURL: UsageLedger.file(in: blocked), clock: ManualClock(now: Self.noon))
        var w = Billable()
        w.deletes = 1
        ledger.record(w)
        #expect(throws: UsageError.self) { try ledger.save() }
        #expect(ledger.today.postsDeleted == 1)
    }
}
