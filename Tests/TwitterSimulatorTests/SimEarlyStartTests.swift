import Foundation
import Testing
import TwitterAPI

@testable import TwitterSimulator

/// The simulator listens and hands out its keys before its world is made (`linnet demo` draws
/// its first frame meanwhile): what it hands out then is what the world honours, and a request
/// that comes early waits for the world instead of finding it empty.
@Suite struct SimEarlyStartTests {
    /// A world that takes a while to write, so the requests below come before it exists.
    static func slowWorld(_ c: inout SimulatorConfiguration) {
        c.backlogTweets = 6000
        c.seed = 11
    }

    @Test func keysAndTokensHandedOutEarlyAreTheWorldsOwn() async throws {
        let sim = try await SimHarness.start(Self.slowWorld)
        defer { Task { await sim.stop() } }
        let c = sim.server.credentials
        let tokens = sim.server.demoOAuth2Tokens(scopes: ["tweet.read", "users.read", "offline.access"])
        let bearer = sim.server.demoBearerToken()
        #expect(sim.server.demoBearerToken() == bearer)

        // The OAuth 2.0 grant made before the world, asked about first: the user's, renewable.
        let me = try await sim.raw("GET", "/2/users/me", headers: [("Authorization", "Bearer " + tokens.accessToken)])
        #expect(me.status == 200)
        #expect(try sim.json(me)["data"]?["id"]?.stringValue == String(c.userID))
        #expect(tokens.expiresAt > Date().timeIntervalSince1970)
        let refresh = try #require(tokens.refreshToken)
        let form = PercentEncoding.formEncode([
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", sim.server.configuration.oauth2ClientID),
        ])
        let renewed = try await sim.raw(
            "POST", "/2/oauth2/token", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(form.utf8))
        #expect(renewed.status == 200)
        #expect(try sim.json(renewed)["access_token"]?.stringValue?.isEmpty == false)
        // OAuth 1.0a with the early keys: the home timeline is the whole world's.
        let home = try await sim.call("GET", "/1.1/statuses/home_timeline.json", [("count", "200")])
        #expect(home.status == 200)
        #expect(try V1Decoder().timeline(from: home.body).tweets.count == 200)
        // The app's bearer token: the one the app-only flow gives, and it reads search.
        let basic = "Basic " + AppOnlyAuth.basicCredential(consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        let issued = try await sim.raw(
            "POST", "/oauth2/token", headers: [("Authorization", basic), ("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("grant_type=client_credentials".utf8))
        #expect(try sim.json(issued)["access_token"]?.stringValue == bearer)
        let search = try await sim.raw("GET", "/1.1/search/tweets.json?q=the", headers: [("Authorization", "Bearer " + bearer)])
        #expect(search.status == 200)

        let world = await sim.server.world
        #expect(await world.credentials == c)
        #expect(await world.tweets.count >= 6000)
    }

    /// The keys come from a stream of their own: the seed's world is the same with or without
    /// them, and each seed has its own keys.
    @Test func theKeysAreTheSeedsAndLeaveItsWorldAlone() {
        #expect(WorldGenerator.credentials(seed: 5) == WorldGenerator.credentials(seed: 5))
        let (a, b) = (WorldGenerator.credentials(seed: 5), WorldGenerator.credentials(seed: 6))
        #expect(a.consumerKey != b.consumerKey && a.accessToken != b.accessToken && a.consumerSecret != b.consumerSecret)
        var config = SimulatorConfiguration.quiet
        config.seed = 5
        var rng = SimRandom(seed: 5)
        let made = WorldGenerator.generate(config: config, rng: &rng)
        #expect(made.credentials == a)
        #expect(made.users[0].id == a.userID && made.users[0].screenName == a.screenName && made.users[0].password == a.password)
        #expect(a.accessToken.hasPrefix("\(a.userID)-"))
        #expect(made.accessTokens[a.accessToken]?.userID == a.userID)
        #expect(made.consumers[a.consumerKey]?.xauth == false && made.consumers[a.xauthConsumerKey]?.xauth == true)
        // Nothing the world draws after its backlog was spent on keys.
        var alone = SimRandom(seed: 5)
        _ = WorldGenerator.backlog(config: config, start: WorldGenerator.fixedStart, rng: &alone)
        #expect(rng.next() == alone.next())
    }

    /// A step handed to the world comes before any request made after it, however long the
    /// step takes: a token kept late is still honoured by the first request that uses it.
    @Test func aRequestWaitsForTheStepsHandedOutBeforeIt() async throws {
        let sim = try await SimHarness.start()
        defer { Task { await sim.stop() } }
        let (user, client) = (sim.server.credentials.userID, sim.server.configuration.oauth2ClientID)
        let token = "early" + OAuthCheck.randomToken(40)
        sim.server.then { world in
            try? await Task.sleep(nanoseconds: 300_000_000)
            await world.keep(access: token, refresh: nil, userID: user, clientID: client, scopes: ["tweet.read", "users.read"])
        }
        let me = try await sim.raw("GET", "/2/users/me", headers: [("Authorization", "Bearer " + token)])
        #expect(me.status == 200)
    }

    /// Stopped before its world is made, with live posts due and a state file: the stop waits
    /// for the world, saves it with the keys handed out, and ends cleanly.
    @Test func aStopBeforeTheWorldIsMadeSavesItWithItsKeys() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-sim-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var c = SimulatorConfiguration.quiet
        Self.slowWorld(&c)
        c.tweetsPerMinute = 600
        c.statePath = path
        let server = try await SimulatorServer.start(c)
        await server.stop()
        let saved = try SimulatorState.load(path)
        #expect(saved.credentials == server.credentials)
        #expect(saved.tweets.count >= 6000)
    }
}
