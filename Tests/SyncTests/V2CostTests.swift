import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// What reading on v2 costs: Linnet's ledger counts what the simulator bills, pages are sized
/// to the pane, held posts are not bought again, and a spent budget stops polling.
@Suite(.serialized) struct V2CostTests {
    static func client(_ sim: ClientHarness, ledger: UsageLedger) -> TwitterClient {
        TwitterClient(
            endpoints: .single(sim.server.baseURL), auth: V2SyncTests.v2Client(sim).auth, http: sim.client.http, api: .v2, usage: ledger)
    }

    static func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
        for _ in 0..<300 {
            if try await condition() { return true }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return try await condition()
    }

    static func simUsage(_ sim: ClientHarness) async throws -> DayUsage {
        let u = try JSONValue.parse(try await sim.control("GET", "/_sim/usage").body)
        var d = DayUsage()
        d.postReads = Int(u["post_reads"]?.intValue ?? -1)
        d.ownedReads = Int(u["owned_reads"]?.intValue ?? -1)
        d.userReads = Int(u["user_reads"]?.intValue ?? -1)
        d.postsCreated = Int(u["posts_created"]?.intValue ?? -1)
        d.postsCreatedWithURL = Int(u["posts_created_with_url"]?.intValue ?? -1)
        d.postsDeleted = Int(u["posts_deleted"]?.intValue ?? -1)
        d.interactions = Int(u["interactions"]?.intValue ?? -1)
        return d
    }

    /// The v2 requests for one path, with their paging parameters.
    static func requests(_ sim: ClientHarness, path suffix: String) async throws -> [JSONValue] {
        guard case .array(let entries) = try JSONValue.parse(try await sim.control("GET", "/_sim/requests").body) else { return [] }
        return entries.filter { $0["method"]?.stringValue == "GET" && $0["path"]?.stringValue?.hasSuffix(suffix) == true }
    }

    @Test func theLedgerCountsWhatTheSimulatorBills() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let ledger = UsageLedger(fileURL: nil)
        let (engine, _, store, me) = try await V2SyncTests.engine(sim, ledger: ledger, pageSize: 20)
        defer { Task { await engine.stop() } }
        for id in [TimelineID.home, .mentions] { await engine.open(id) }
        let filled = await Self.eventually {
            let (h, m) = (await store.view(.home).ids, await store.view(.mentions).ids)
            return !h.isEmpty && !m.isEmpty
        }
        #expect(filled)
        // A new mention (an owned read), found by a search too (recent search reads 7 days back).
        let before = await store.view(.mentions).ids.count
        _ = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=costs+%40\(me.screenName)")
        await engine.open(.search("costs"))
        let found = await Self.eventually {
            let (m, q) = (await store.view(.mentions).ids, await store.view(.search("costs")).ids)
            return m.count > before && !q.isEmpty
        }
        #expect(found)
        // Writes of every billed kind.
        guard case .success(let plain) = await engine.perform(.post("no link here", inReplyTo: nil)),
            case .success = await engine.perform(.post("a link: linnet.dev/usage", inReplyTo: nil)),
            case .success = await engine.perform(.like(try #require(await store.view(.home).ids.last))),
            case .success = await engine.perform(.delete(plain.id))
        else {
            Issue.record("a write failed")
            return
        }
        // Polls go on; nothing new is posted, so both counts settle, and must agree.
        var sim2 = DayUsage()
        let agreed = try await Self.eventually {
            sim2 = try await Self.simUsage(sim)
            return sim2 == ledger.today
        }
        #expect(agreed, "Linnet counted \(ledger.today), the simulator billed \(sim2)")
        #expect(sim2.ownedReads > 0 && sim2.postsCreatedWithURL == 1 && sim2.postsCreated == 1 && sim2.interactions == 1)
        let billed = try JSONValue.parse(try await sim.control("GET", "/_sim/usage").body)["cost_usd"]?.doubleValue ?? -1
        #expect(abs(ledger.todayCost - billed) < 0.001)
    }

    @Test func pagesAreSizedToThePaneAndHeldPostsAreNotBoughtAgain() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let (engine, _, store, me) = try await V2SyncTests.engine(sim, ledger: UsageLedger(fileURL: nil), pageSize: 20)
        await engine.open(.home)
        #expect(try await Self.eventually { try await Self.requests(sim, path: "/timelines/reverse_chronological").count >= 3 })
        await engine.stop()
        let first = try await Self.requests(sim, path: "/timelines/reverse_chronological")
        #expect(first.first?["query"]?["max_results"]?.stringValue == "20")
        #expect(first.first?["query"]?["since_id"] == nil)
        let held = await store.view(.home).ids
        #expect(held.count == 20)
        // Later polls look for deletes only among posts read today, half a page deep.
        #expect(first.last?["query"]?["since_id"]?.stringValue == held[10].description, "\(first.last?.serialized ?? "")")

        // The next run starts from the cache on a new ledger: nothing held was read "today" on
        // it, so the first poll asks only for what is newer than the newest held.
        let snapshot = await store.snapshot()
        let fresh = UsageLedger(fileURL: nil)
        let restored = TimelineStore()
        await restored.restore(snapshot)
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        o.ledger = fresh
        o.v2PageSize = 20
        let next = SyncEngine(client: Self.client(sim, ledger: fresh), store: restored, account: me, options: o)
        defer { Task { await next.stop() } }
        await next.open(.home)
        // A poll of the stopped engine may still reach the log after `first` was read, so the
        // new engine's request is waited for, and looked for, among all that came after.
        let newest = held[0].description
        #expect(
            try await Self.eventually {
                let all = try await Self.requests(sim, path: "/timelines/reverse_chronological")
                return all.count > first.count && all[first.count...].contains { $0["query"]?["since_id"]?.stringValue == newest }
            })
        let after = try await Self.requests(sim, path: "/timelines/reverse_chronological")
        let later = after[first.count...].map { $0["query"]?["since_id"]?.stringValue }
        #expect(later.contains(held[0].description), "\(later)")
        #expect(!later.contains(nil), "nothing was read again from the top: \(later)")
        #expect(fresh.today.postReads == 0, "posts already held were bought again: \(fresh.today)")
    }

    @Test func aSpentBudgetStopsPollingAndSaysHowToRaiseIt() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        // After users/me (one cent), four cents do not pay for one post at its worst (a post, the
        // post it references, four users): no page is asked for.
        let ledger = UsageLedger(fileURL: nil, budgetPerDay: 0.05)
        let (engine, _, _, _) = try await V2SyncTests.engine(sim, ledger: ledger, pageSize: 20)
        defer { Task { await engine.stop() } }
        await engine.open(.home)
        let spent = await Self.eventually {
            if case .budgetSpent = engine.board.status(.home).state { return true } else { return false }
        }
        #expect(spent, "\(engine.board.status(.home))")
        let words = engine.board.status(.home).lastError ?? ""
        #expect(words.contains("Today's budget of $0.05 is") && words.contains("Raise budget_per_day in config.toml"), "\(words)")
        let asked = try await Self.requests(sim, path: "/timelines/reverse_chronological").count
        #expect(asked == 0)
        // The day never passes the budget.
        #expect(ledger.todayCost <= 0.05 + 1e-9, "spent \(ledger.todayCost)")
        // Scaled, the wait until midnight is still minutes; a refresh is refused with the same words.
        guard case .wait(_, let message) = await engine.refresh(.home) else {
            Issue.record("a refresh was allowed past the budget")
            return
        }
        #expect(message == words)
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(try await Self.requests(sim, path: "/timelines/reverse_chronological").count == asked)
    }
}
