import Foundation
import LinnetTestSupport
import Locking
import Testing
import TwitterAPI
import TwitterSimulator

/// Pages of posts expand their authors only on a cold start; afterwards the client looks up only
/// the authors it has not read within a day, so a known author is not billed again after
/// midnight (X bills a user once per UTC day it is read).
@Suite struct KnownAuthorsTests {
    final class Bills: UsageRecording {
        let all = Locked<[Billable]>([])
        func record(_ billed: Billable) { all.withLock { $0.append(billed) } }
        var users: [UInt64] { all.withLock { $0.flatMap(\.users) } }
        func reset() { all.withLock { $0 = [] } }
    }

    /// The ids asked for by each `/2/users?ids=` lookup, in order.
    static func lookups(_ h: ClientHarness) async throws -> Int {
        guard case .array(let log) = try JSONValue.parse(try await h.control("GET", "/_sim/requests").body) else { return -1 }
        return log.filter { $0["path"]?.stringValue == "/2/users" }.count
    }

    /// A v2 client of the simulator on a clock the test moves, its bills collected.
    static func signedIn() async throws -> (ClientHarness, ManualClock, Bills, TwitterClient, User) {
        let h = try await ClientHarness.start { $0.users = 30 }
        let clock = ManualClock(now: Date().timeIntervalSince1970)
        let bills = Bills()
        let c = TwitterClient(
            endpoints: .single(h.server.baseURL), auth: h.client.auth, http: h.client.http, clock: clock, api: .v2, usage: bills)
        do { return (h, clock, bills, c, try await c.v2Me()) } catch {
            await h.stop()
            throw error
        }
    }

    @Test func knownAuthorsAreUsedForADayAndLookedUpAfter() async throws {
        let (h, clock, bills, c, me) = try await Self.signedIn()
        defer { Task { await h.stop() } }
        bills.reset()

        // Cold: the authors come in the same answer, no lookup.
        let first = try await c.v2Home(userID: me.id, .init(maxResults: 40))
        let authors = Set(first.tweets.map(\.user.id.rawValue))
        #expect(!first.tweets.isEmpty && !authors.isEmpty)
        #expect(Set(bills.users).isSuperset(of: authors))
        #expect(try await Self.lookups(h) == 0)

        // Warm: the same page again carries no users and needs no lookup; every post keeps its
        // author whole.
        bills.reset()
        clock.advance(by: 3600)
        let again = try await c.v2Home(userID: me.id, .init(maxResults: 40))
        #expect(again.billed.users.isEmpty)
        #expect(bills.users.isEmpty)
        #expect(try await Self.lookups(h) == 0)
        #expect(again.tweets.map(\.id) == first.tweets.map(\.id))
        for (a, b) in zip(again.tweets, first.tweets) {
            #expect(a.user.screenName == b.user.screenName && a.user.name == b.user.name && !a.user.screenName.isEmpty)
        }

        // An older page: only authors not yet known are looked up, once each.
        if let token = first.meta.nextToken {
            bills.reset()
            let older = try await c.v2Home(userID: me.id, .init(maxResults: 100, token: token))
            let looked = Set(bills.users)
            let olderAuthors = Set(
                older.tweets.flatMap { [$0.user.id.rawValue] + [$0.retweetedStatus?.user.id.rawValue].compactMap { $0 } })
            #expect(looked.isDisjoint(with: authors))
            #expect(looked.isSubset(of: olderAuthors.union(older.tweets.compactMap { $0.inReplyToUserID?.rawValue })))
            #expect(bills.users.count == looked.count)
            #expect(older.tweets.allSatisfy { !$0.user.screenName.isEmpty })
        }

        // A day later the authors are read again, by lookup, not by expanding every page.
        bills.reset()
        let before = try await Self.lookups(h)
        clock.advance(by: KnownUsers.defaultFreshness)
        let nextDay = try await c.v2Home(userID: me.id, .init(maxResults: 40))
        #expect(try await Self.lookups(h) == before + 1)
        #expect(Set(bills.users).isSuperset(of: Set(nextDay.tweets.map(\.user.id.rawValue))))
        #expect(nextDay.tweets.allSatisfy { !$0.user.screenName.isEmpty })
    }

    /// A reply's "replying to" name comes from the lookup when the replied-to user is unknown.
    @Test func repliedToUsersAreNamed() async throws {
        let h = try await ClientHarness.start { $0.users = 30 }
        defer { Task { await h.stop() } }
        let c = TwitterClient(endpoints: .single(h.server.baseURL), auth: h.client.auth, http: h.client.http, api: .v2)
        let me = try await c.v2Me()
        _ = try await c.v2Mentions(userID: me.id, .init(maxResults: 5))  // warms the cache
        let viaClient = try await c.v2Home(userID: me.id, .init(maxResults: 100))
        let replies = viaClient.tweets.filter { $0.inReplyToUserID != nil && $0.inReplyToUserID != $0.user.id }
        for r in replies {
            #expect(r.inReplyToScreenName?.isEmpty == false, "post \(r.id) replies to a user with no name")
        }
        #expect(!replies.isEmpty)
    }

    /// A lookup that fails does not lose a page already paid for: it is billed, and shown with
    /// authors read before, however long ago; with an author never read, the read fails (and
    /// is still billed). Users X does not return are not asked for again the same day.
    @Test func aFailedLookupLosesNothingPaidFor() async throws {
        let (h, clock, bills, c, me) = try await Self.signedIn()
        defer { Task { await h.stop() } }
        let first = try await c.v2Home(userID: me.id, .init(maxResults: 40))
        func failLookups(_ n: Int) async throws {
            var plan = FaultPlan()
            plan.statusFaults = [.init(path: "/2/users", status: 503, count: n, query: "ids=")]
            let body = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
            _ = try await h.control("POST", "/_sim/faults", body: body, json: true)
        }
        // A day on, every author is stale and the lookup fails: the page comes with them as read.
        clock.advance(by: KnownUsers.defaultFreshness + 60)
        try await failLookups(3)
        bills.reset()
        let stale = try await c.v2Home(userID: me.id, .init(maxResults: 40))
        #expect(stale.tweets.map(\.id) == first.tweets.map(\.id))
        #expect(stale.tweets.allSatisfy { !$0.user.screenName.isEmpty })
        #expect(bills.all.withLock { $0.flatMap(\.posts) }.count == stale.tweets.count)

        // Older posts by authors never read, and the lookup fails: the read fails, billed.
        if let token = first.meta.nextToken {
            try await failLookups(3)
            bills.reset()
            await #expect(throws: APIError.self) { _ = try await c.v2Home(userID: me.id, .init(maxResults: 100, token: token)) }
            #expect(!bills.all.withLock { $0.flatMap(\.posts) }.isEmpty)
        }

        // Someone X does not return (a deleted account) is asked for once, not on every page.
        let gone = UserID(999_999_999_999)
        c.knownUsers.rememberUnavailable([gone])
        #expect(c.knownUsers.toLookUp([gone], known: [:]).isEmpty)
        clock.advance(by: KnownUsers.defaultFreshness + 1)
        #expect(c.knownUsers.toLookUp([gone], known: [:]) == [gone])
    }
}
