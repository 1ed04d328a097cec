import Foundation
import LinnetCore
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// The sync engine reading through API v2: every pane polled (v2 has no user stream), pages of
/// 100, new posts and deletes picked up, threads by conversation.
@Suite(.serialized) struct V2SyncTests {
    /// The demo user's OAuth 1.0a token, used on v2.
    static func v2Client(_ sim: ClientHarness) -> TwitterClient {
        let c = sim.server.credentials
        return TwitterClient(
            endpoints: .single(sim.server.baseURL),
            auth: .user(
                OAuthCredentials(
                    consumerKey: c.consumerKey, consumerSecret: c.consumerSecret, token: c.accessToken, tokenSecret: c.accessTokenSecret)),
            http: sim.client.http, api: .v2)
    }

    /// A v2 engine for the demo user over the simulator, on a fast clock; with a ledger it
    /// counts what X bills, with a page size it asks for that many, with an app client it
    /// follows searches on the filtered stream.
    static func engine(
        _ sim: ClientHarness, ledger: UsageLedger? = nil, pageSize: Int? = nil, streamClient: TwitterClient? = nil,
        fresh: Double = 30
    ) async throws -> (engine: SyncEngine, client: TwitterClient, store: TimelineStore, me: User) {
        let client =
            ledger.map {
                TwitterClient(endpoints: .single(sim.server.baseURL), auth: v2Client(sim).auth, http: sim.client.http, api: .v2, usage: $0)
            }
            ?? v2Client(sim)
        let me = try await client.v2Me()
        ledger?.identify(me.id)
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        o.ledger = ledger
        o.v2PageSize = pageSize
        o.v2StreamClient = streamClient
        o.freshSeconds = fresh
        let store = TimelineStore()
        return (SyncEngine(client: client, store: store, account: me, options: o), client, store, me)
    }

    @Test func homeMentionsAndThreadsOnV2() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = Self.v2Client(sim)
        let me = try await client.v2Me()
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        let store = TimelineStore()
        let engine = SyncEngine(client: client, store: store, account: me, options: o)
        defer { Task { await engine.stop() } }
        func held(_ id: TimelineID) async -> [String] { await store.view(id).ids.map(\.description) }
        func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
            for _ in 0..<300 {
                if try await condition() { return true }
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
            return try await condition()
        }
        await engine.open(.home)
        await engine.open(.mentions)
        let home = try await sim.truth("home")
        #expect(try await eventually { await held(.home) == Array(home.prefix(100)) })
        guard case .polling = engine.board.status(.home).state else {
            Issue.record("home should be polled on v2: \(engine.board.status(.home).state)")
            return
        }
        // A new mention arrives with the next poll; a deleted one leaves.
        let r = try await sim.control("POST", "/_sim/tweet", body: "author=ada&text=hello+%40\(me.screenName)")
        let new = try #require(try JSONValue.parse(r.body)["id_str"]?.stringValue)
        #expect(try await eventually { await held(.mentions).first == new })
        _ = try await sim.control("POST", "/_sim/delete", body: "id=\(new)")
        #expect(try await eventually { !(await held(.mentions)).contains(new) })
        // A thread: a reply and the post it answers.
        let reply = try #require(
            try await client.v2Home(userID: me.id, .init(maxResults: 100)).tweets.first { $0.inReplyToStatusID != nil })
        await engine.open(.thread(reply.id))
        #expect(try await eventually { await held(.thread(reply.id)).contains(reply.inReplyToStatusID!.description) })
        #expect(engine.board.counters.connects == 0, "no stream was opened")

        // Writes go through v2: a post (read back whole), a like kept on the store's copy and
        // on the server, a delete.
        guard case .success(let posted) = await engine.perform(.post("posted through v2 & read back", inReplyTo: nil)) else {
            Issue.record("the post failed")
            return
        }
        #expect(posted.text == "posted through v2 &amp; read back" && posted.user.id == me.id)
        #expect(await held(.home).first == posted.id.description)
        let target = try #require(await store.view(.home).ids.dropFirst().first)
        guard case .success = await engine.perform(.like(target)) else {
            Issue.record("the like failed")
            return
        }
        #expect(await store.tweet(target)?.content.isFavorited == true)
        // v2 timelines carry no like flags: the polls after the like keep what the user did.
        let asked = engine.board.counters.restRequests
        _ = await engine.refresh(.home)
        #expect(try await eventually { engine.board.counters.restRequests > asked + 1 })
        #expect(await store.tweet(target)?.content.isFavorited == true)
        let v1 = TwitterClient(endpoints: .single(sim.server.baseURL), auth: client.auth, http: sim.client.http)
        #expect(try await v1.show(target).isFavorited)
        guard case .success = await engine.perform(.delete(posted.id)) else {
            Issue.record("the delete failed")
            return
        }
        #expect(!(await held(.home)).contains(posted.id.description))
        #expect(try await client.v2Lookup([posted.id]).errors.first?.kind == "resource-not-found")
    }

    /// A self-serve key refuses likes: the first refusal is X's, in words, and the like is undone
    /// on screen; asked again, the engine refuses by itself and sends nothing.
    @Test func likesRefusedByTheAccessLevelAreNotSentAgain() async throws {
        let sim = try await ClientHarness.start { $0.tier = .selfServe }
        defer { Task { await sim.stop() } }
        let (engine, client, store, me) = try await Self.engine(sim)
        defer { Task { await engine.stop() } }
        let page = try await client.v2Home(userID: me.id, .init(maxResults: 20)).tweets
        let strangers = page.filter { $0.retweetedStatus == nil && $0.user.id != me.id }.map(\.id)
        try #require(strangers.count >= 2)
        for t in page { await store.add(t, to: [.home]) }
        func likesSent() async throws -> Int {
            let log = try JSONValue.parse(try await sim.control("GET", "/_sim/requests").body)
            guard case .array(let entries) = log else { return -1 }
            return entries.filter { $0["method"]?.stringValue == "POST" && $0["path"]?.stringValue?.hasSuffix("/likes") == true }.count
        }

        guard case .failure(let first) = await engine.perform(.like(strangers[0])) else {
            Issue.record("a like was accepted on self-serve")
            return
        }
        #expect(first.status == 403 && first.message.contains("project whose access level includes it"), "\(first)")
        #expect(await store.tweet(strangers[0])?.content.isFavorited == false)
        #expect(try await likesSent() == 1)

        guard case .failure(let second) = await engine.perform(.like(strangers[1])) else {
            Issue.record("the second like was accepted")
            return
        }
        #expect(second.message.contains("Nothing was sent") && second.message.contains("project whose access level includes it"))
        #expect(try await likesSent() == 1, "the second like went to the server")
        #expect(await store.tweet(strangers[1])?.content.isFavorited == false)
        // Posting is another kind of write: still sent.
        guard case .success = await engine.perform(.post("still allowed to post", inReplyTo: nil)) else {
            Issue.record("a post was refused after a like was")
            return
        }
    }
}

/// An OAuth 2.0 sign-in the server no longer honours (its refresh token revoked): the panes say
/// to log in again, in words, and what they hold stays.
@Suite(.serialized) struct V2RevokedSignInTests {
    @Test func aRevokedSignInSaysToLogInAgainAndKeepsWhatIsHeld() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let t = sim.server.demoOAuth2Tokens(scopes: OAuth2Flow.scopes)
        let refresh = try #require(t.refreshToken)
        let flow = OAuth2Flow(http: sim.client.http, clientID: sim.server.configuration.oauth2ClientID, apiBase: sim.server.baseURL)
        let session = OAuth2Session(
            tokens: OAuth2Tokens(accessToken: t.accessToken, refreshToken: refresh, expiresAt: t.expiresAt, scopes: OAuth2Flow.scopes),
            flow: flow
        ) { _ in }
        let client = TwitterClient(endpoints: .single(sim.server.baseURL), auth: .oauth2Session(session), http: sim.client.http, api: .v2)
        let me = try await client.v2Me()
        let store = TimelineStore()
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        let engine = SyncEngine(client: client, store: store, account: me, options: o)
        defer { Task { await engine.stop() } }
        await engine.open(.home)
        for _ in 0..<200 where await store.view(.home).ids.isEmpty { try await Task.sleep(nanoseconds: 20_000_000) }
        let held = await store.view(.home).ids
        #expect(!held.isEmpty)

        // The refresh token is revoked and the access token ends: nothing can renew it.
        var revoke = HTTPRequest(method: "POST", url: sim.server.baseURL + "/2/oauth2/revoke")
        revoke.headers = [("Content-Type", "application/x-www-form-urlencoded")]
        revoke.body = Data(
            PercentEncoding.formEncode([("token", refresh), ("client_id", sim.server.configuration.oauth2ClientID)]).utf8)
        #expect(try await sim.client.http.send(revoke).status == 200)
        _ = try await sim.control("POST", "/_sim/expire_tokens")
        _ = await engine.refresh(.home)
        var words = ""
        for _ in 0..<200 {
            words = engine.board.status(.home).lastError ?? ""
            if !words.isEmpty { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(words.contains("log in again (linnet login)"), "\(words)")
        #expect(await store.view(.home).ids == held, "what was held stays")
    }
}

/// A user pane on v2 reads the user's posts by id (looked up once by name), not a 7-day search.
@Suite(.serialized) struct V2UserPaneTests {
    @Test func aUserPaneReadsTheirPostsByID() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let (engine, _, store, _) = try await V2SyncTests.engine(sim)
        defer { Task { await engine.stop() } }
        await engine.open(.user("ada"))
        let r = try await sim.client.http.send(
            HTTPRequest(method: "GET", url: sim.server.baseURL + "/_sim/timeline?name=user&user=ada"))
        guard case .array(let truth)? = try JSONValue.parse(r.body)["ids"] else { return }
        let expected = Array(truth.compactMap(\.stringValue).prefix(100))
        try #require(!expected.isEmpty)
        var held: [String] = []
        for _ in 0..<300 {
            held = await store.view(.user("ada")).ids.map(\.description)
            if held == expected { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(held == expected)
        // The name was looked up once; the posts came from the user's own list, not search.
        let lookups = try await V2CostTests.requests(sim, path: "/2/users/by/username/ada")
        let posts = try await V2CostTests.requests(sim, path: "/tweets").filter { $0["path"]?.stringValue?.hasPrefix("/2/users/") == true }
        #expect(lookups.count == 1 && !posts.isEmpty)
        #expect(try await V2CostTests.requests(sim, path: "/2/tweets/search/recent").isEmpty)
        // A name X does not know says so.
        await engine.open(.user("nobody_by_that"))
        var words = ""
        for _ in 0..<300 {
            words = engine.board.status(.user("nobody_by_that")).lastError ?? ""
            if !words.isEmpty { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(words.contains("Could not find user with username: [nobody_by_that]"), "\(words)")
    }
}
