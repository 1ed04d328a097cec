// What a day of reading costs on pay-per-use X API v2: the day in day.txt (8 virtual hours over
// a UTC midnight, the world posting 2 a minute) read once by Linnet's sync engine and once by a
// naive poller, each against a fresh simulator whose billing is the ground truth. Prints
// `bench: <name> <value> <unit>`.
import Foundation
import LinnetTestSupport
import Locking
import Timeline
import TwitterAPI
import TwitterSimulator

let scale = Double(ProcessInfo.processInfo.environment["COSTBENCH_SCALE"] ?? "") ?? 0.002
let postsPerMinute = 2.0
/// Posts a reader sees at the top of a pane (a 30-row terminal's page).
let screen = 30

struct Step {
    let at: Double  // virtual seconds after 20:00
    let action: String
    let pane: TimelineID?
}

func readScript() throws -> [Step] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("day.txt")
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
        let words = line.split(separator: " ").map(String.init)
        guard let time = words.first, !time.hasPrefix("#"), words.count >= 2 else { return nil }
        let hm = time.split(separator: ":").compactMap { Double($0) }
        var at = hm[0] * 3600 + hm[1] * 60 - 20 * 3600
        if at < 0 { at += 86_400 }
        let pane: TimelineID? =
            words.count > 2 ? (words[2] == "home" ? .home : words[2] == "mentions" ? .mentions : .search("linnet")) : nil
        return Step(at: at, action: words[1], pane: pane)
    }
}

/// A simulator for the day: self-serve billing, its clock following the virtual one.
func startWorld(_ clock: VirtualClock) async throws -> (SimulatorServer, HTTPClient) {
    var c = SimulatorConfiguration.quiet
    c.tier = .selfServe
    c.users = 40
    c.backlogTweets = 400
    c.backlogEndsAt = clock.origin - 60
    // Requests are signed on the system clock while the server runs on the virtual one.
    c.timestampWindowSeconds = 2 * 86_400
    let sim = try await SimulatorServer.start(c)
    return (sim, HTTPClient())
}

func control(_ http: HTTPClient, _ sim: SimulatorServer, _ method: String, _ path: String, _ body: String = "") async throws -> Data {
    var r = HTTPRequest(method: method, url: sim.baseURL + path)
    if method == "POST" {
        r.headers = [("Content-Type", "application/x-www-form-urlencoded")]
        r.body = Data(body.utf8)
    }
    return try await http.send(r).body
}

/// The world's side of the day: its clock kept on virtual time, and posts arriving.
func worldRuns(_ sim: SimulatorServer, _ http: HTTPClient, _ clock: VirtualClock, until end: Double) async {
    var posted = 0.0
    while clock.now() < end {
        let offset = Int64(clock.now() - Date().timeIntervalSince1970)
        _ = try? await control(http, sim, "POST", "/_sim/clock", "offset=\(offset)")
        let due = (clock.now() - clock.origin) / 60 * postsPerMinute
        while posted < due {
            _ = try? await control(http, sim, "POST", "/_sim/tweet")
            posted += 1
        }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
}

struct Day {
    var cost = 0.0
    var shown: Set<UInt64> = []
    var shownUsers: Set<UInt64> = []
    var billedPosts: Set<UInt64> = []
    var billedUsers: Set<UInt64> = []
    var missed = 0
}

func client(_ sim: SimulatorServer, _ http: HTTPClient) -> TwitterClient {
    let c = sim.credentials
    return TwitterClient(
        endpoints: .single(sim.baseURL),
        auth: .user(
            OAuthCredentials(
                consumerKey: c.consumerKey, consumerSecret: c.consumerSecret, token: c.accessToken, tokenSecret: c.accessTokenSecret)),
        http: http, api: .v2)
}

/// What X billed, by item, and the day's cost.
func billing(_ sim: SimulatorServer, _ http: HTTPClient, into day: inout Day) async throws {
    let usage = try JSONValue.parse(try await control(http, sim, "GET", "/_sim/usage"))
    day.cost = usage["cost_usd"]?.doubleValue ?? 0
    let billed = try JSONValue.parse(try await control(http, sim, "GET", "/_sim/billed"))
    func ids(_ key: String) -> Set<UInt64> {
        guard case .array(let items)? = billed[key] else { return [] }
        return Set(items.compactMap { $0.stringValue?.split(separator: "|").last.flatMap { UInt64($0) } })
    }
    day.billedPosts = ids("posts").union(ids("owned"))
    day.billedUsers = ids("users")
}

/// One reader's day: `reads(pane)` is what the client holds for a pane, newest first; `tell`
/// passes presence on (Linnet) or not (the naive poller).
func live(
    _ steps: [Step], _ clock: VirtualClock, sim: SimulatorServer, http: HTTPClient, holds: @escaping (TimelineID) async -> [Tweet],
    tell: @escaping (Bool, TimelineID?) async -> Void, open: @escaping (TimelineID) async -> Void
) async throws -> Day {
    var day = Day()
    let end = clock.origin + (steps.last?.at ?? 0)
    let world = Task { await worldRuns(sim, http, clock, until: end) }
    var present: TimelineID?
    var index = 0
    while clock.now() < end {
        while index < steps.count, clock.origin + steps[index].at <= clock.now() {
            let s = steps[index]
            index += 1
            if s.action == "present", let p = s.pane {
                await open(p)
                present = p
                await tell(false, p)
            } else if s.action == "away" {
                present = nil
                await tell(true, .home)
            }
        }
        // The reader sees the top of the pane on screen; mentions reach a notice.
        if let p = present {
            for t in await holds(p).prefix(screen) {
                day.shown.insert(t.id.rawValue)
                day.shownUsers.insert(t.user.id.rawValue)
            }
        }
        for t in await holds(.mentions) {
            day.shown.insert(t.id.rawValue)
            day.shownUsers.insert(t.user.id.rawValue)
        }
        try await clock.sleep(seconds: 30)
    }
    await world.value
    try await billing(sim, http, into: &day)
    return day
}

func linnetDay(_ steps: [Step]) async throws -> Day {
    let clock = VirtualClock(origin: floor(Date().timeIntervalSince1970 / 86_400) * 86_400 + 20 * 3600, scale: scale)
    let (sim, http) = try await startWorld(clock)
    defer { Task { await sim.stop() } }
    // As the reader runs: the account's ledger (in memory here) on the same clock, which
    // keeps re-reads to posts already billed today.
    let ledger = UsageLedger(fileURL: nil, clock: clock)
    let c = TwitterClient(
        endpoints: .single(sim.baseURL), auth: client(sim, http).auth, http: http, clock: clock, api: .v2, usage: ledger)
    let me = try await c.v2Me()
    ledger.identify(me.id)
    var options = SyncOptions()
    options.clock = clock
    options.v2PageSize = screen
    options.ledger = ledger
    let store = TimelineStore()
    let engine = SyncEngine(client: c, store: store, account: me, options: options)
    await engine.setPresence(away: false, showing: .home)
    await engine.open(.mentions)
    let firstNewest = try await control(http, sim, "GET", "/_sim/timeline?name=home")
    var day = try await live(
        steps, clock, sim: sim, http: http,
        holds: { id in
            let snap = await store.snapshot()
            return (snap.timelines[id]?.ids ?? []).compactMap { snap.tweets[$0] }
        },
        tell: { away, showing in await engine.setPresence(away: away, showing: showing) },
        open: { id in await engine.open(id) })
    await engine.stop()
    // Missed: a post of home's ground truth from the day that is neither held nor in a gap.
    let before = Set(idsOf(firstNewest))
    let truth = idsOf(try await control(http, sim, "GET", "/_sim/timeline?name=home")).filter { !before.contains($0) }
    let view = await store.view(.home)
    let held = view.ids.map(\.rawValue)
    var covered = Set(held)
    for (i, id) in held.enumerated() where view.gapsBelow.contains(TweetID(id)) {
        let floor = i + 1 < held.count ? held[i + 1] : 0
        for t in truth where t < id && t > floor { covered.insert(t) }
    }
    day.missed = truth.filter { !covered.contains($0) }.count
    return day
}

func idsOf(_ data: Data) -> [UInt64] {
    guard case .array(let ids)? = try? JSONValue.parse(data)["ids"] else { return [] }
    return ids.compactMap { $0.stringValue.flatMap(UInt64.init) }
}

/// What a careful v1.1-era client does: every open pane every 90 s, `since_id`, 100 a page,
/// paging until it meets what it has, every field and expansion (its own requests, not
/// Linnet's reads, which expand authors only on a cold start).
func naiveDay(_ steps: [Step]) async throws -> Day {
    let clock = VirtualClock(origin: floor(Date().timeIntervalSince1970 / 86_400) * 86_400 + 20 * 3600, scale: scale)
    let (sim, http) = try await startWorld(clock)
    defer { Task { await sim.stop() } }
    let c = client(sim, http)
    let me = try await c.v2Me()
    let held = Locked<[TimelineID: [Tweet]]>([:])
    let open = Locked<Set<TimelineID>>([.home, .mentions])
    let poller = Task {
        while !Task.isCancelled {
            for id in open.withLock({ $0 }) {
                var token: String?
                var got: [Tweet] = []
                let since = held.withLock { $0[id]?.first?.id }
                repeat {
                    // Its own requests: every field and expansion on every page.
                    var query = [("max_results", "100")] + TwitterClient.V2Query.posts
                    if let since { query.append(("since_id", since.description)) }
                    let p: V2PostsPage
                    do {
                        switch id {
                        case .home:
                            if let token { query.append(("pagination_token", token)) }
                            p = try V2Decoder().posts(
                                from: try await c.call("GET", "/2/users/\(me.id)/timelines/reverse_chronological", query))
                        case .mentions:
                            if let token { query.append(("pagination_token", token)) }
                            p = try V2Decoder().posts(from: try await c.call("GET", "/2/users/\(me.id)/mentions", query))
                        default:
                            if let token { query.append(("next_token", token)) }
                            p = try V2Decoder().posts(
                                from: try await c.call("GET", "/2/tweets/search/recent", query + [("query", "linnet")]))
                        }
                    } catch {
                        if ProcessInfo.processInfo.environment["COSTBENCH_DEBUG"] != nil { print("naive \(id): \(error)") }
                        break
                    }
                    got += p.tweets
                    // Paging down to what it holds; a first read is one page.
                    token = since == nil ? nil : p.meta.nextToken
                } while token != nil
                held.withLock { $0[id] = got + ($0[id] ?? []) }
            }
            try? await clock.sleep(seconds: 90)
        }
    }
    let day = try await live(
        steps, clock, sim: sim, http: http, holds: { id in held.withLock { $0[id] ?? [] } }, tell: { _, _ in },
        open: { id in open.withLock { _ = $0.insert(id) } })
    poller.cancel()
    return day
}

let done = DispatchSemaphore(value: 0)
Task.detached {
    do {
        let steps = try readScript()
        // Side by side, each with its own simulator and clock: their sleeps, not their work, are
        // the bench's minutes.
        async let naiveRun = naiveDay(steps)
        async let linnetRun = linnetDay(steps)
        let (naive, linnet) = try await (naiveRun, linnetRun)
        let billed = linnet.billedPosts.count + linnet.billedUsers.count
        let wasted = linnet.billedPosts.subtracting(linnet.shown).count + linnet.billedUsers.subtracting(linnet.shownUsers).count
        print("one reader's day (day.txt, \(Int(postsPerMinute)) posts a minute): Linnet billed \(billed) items")
        bench("cost_linnet_usd", linnet.cost, "usd", decimals: 3)
        bench("cost_naive_poller_usd", naive.cost, "usd", decimals: 3)
        bench("cost_vs_naive_poller_ratio", linnet.cost / max(0.001, naive.cost), "x", decimals: 2, goal: .atMost(0.5))
        bench("cost_waste_ratio", Double(wasted) / Double(max(1, billed)), "x", decimals: 3, goal: .atMost(0.10))
        bench("posts_missed", Double(linnet.missed), "posts", goal: .atMost(0))
    } catch {
        print("CostBench failed: \(error)")
    }
    done.signal()
}
done.wait()
