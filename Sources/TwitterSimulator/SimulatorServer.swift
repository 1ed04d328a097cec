import FoundationEssentials
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// A running simulated Twitter v1.1 server on loopback: REST, OAuth flows, streams, rate limits
/// and faults. Start it in-process (tests, `linnet demo`) or standalone (`linnet sim`).
public final class SimulatorServer: Sendable {
    public let configuration: SimulatorConfiguration
    /// Ready-to-use keys for the demo user.
    public let credentials: SimulatorCredentials
    /// `http://host:port`; the REST API is under `/1.1/`, OAuth under `/oauth/`.
    public let baseURL: String
    /// The world once made, with the grants handed out before then: the server listens (and
    /// `linnet demo` draws its first frame) while the backlog is written on another thread.
    private let ready: Locked<Task<World, Never>>
    /// The demo app's bearer token as the world starts.
    private let bearer: String
    private let server: SimHTTPServer
    private let tasks: [Task<Void, Never>]

    var world: World {
        get async { await ready.withLock { $0 }.value }
    }

    private init(
        configuration: SimulatorConfiguration, credentials: SimulatorCredentials, bearer: String,
        ready: Locked<Task<World, Never>>, server: SimHTTPServer, baseURL: String, tasks: [Task<Void, Never>]
    ) {
        self.configuration = configuration
        self.credentials = credentials
        self.bearer = bearer
        self.ready = ready
        self.server = server
        self.baseURL = baseURL
        self.tasks = tasks
    }

    /// Reads a saved state (`statePath`) for its keys, or takes the seed's; starts listening;
    /// then makes the world on another thread. Requests wait for it.
    public static func start(_ configuration: SimulatorConfiguration = SimulatorConfiguration()) async throws -> SimulatorServer {
        let saved: SimulatorState?
        if let path = configuration.statePath, FileManager.default.fileExists(atPath: path) {
            saved = try SimulatorState.load(path)
        } else {
            saved = nil
        }
        let bearer = World.newBearer()
        let made = Task.detached { World(config: configuration, state: saved, bearer: bearer) }
        let ready = Locked(made)
        let server: SimHTTPServer
        do {
            server = try await SimHTTPServer(
                host: configuration.host, port: configuration.port, limits: configuration.httpLimits, maxBody: configuration.maxBodyBytes
            ) { request in
                let world = await ready.withLock { $0 }.value
                let response = await Router(world: world).handle(request)
                return (response, Date(timeIntervalSince1970: Double(await world.now)))
            }
        } catch let e as SimulatorError {
            throw e
        } catch {
            throw SimulatorError("the simulator could not listen on \(configuration.host):\(configuration.port): \(error)")
        }
        let port = server.port
        var tasks: [Task<Void, Never>] = []
        if configuration.tweetsPerMinute > 0 {
            let interval = 60 / configuration.tweetsPerMinute
            tasks.append(
                Task {
                    let world = await made.value
                    while !Task.isCancelled {
                        try? await Task.sleep(nanoseconds: SimClock.nanoseconds(interval))
                        if Task.isCancelled { break }
                        await world.liveStep()
                    }
                })
        }
        let url = "http://\(configuration.host):\(port)"
        return SimulatorServer(
            configuration: configuration, credentials: saved?.credentials ?? WorldGenerator.credentials(seed: configuration.seed),
            bearer: bearer, ready: ready, server: server, baseURL: url, tasks: tasks)
    }

    /// Stops listening, ends open streams and saves the state if a state file was given.
    public func stop() async {
        for t in tasks { t.cancel() }
        let world = await world
        await world.closeAllStreams()
        await server.stop()
        if let path = configuration.statePath { try? await world.state().save(path) }
    }

    /// Runs `step` on the world before any request that comes after this call is answered,
    /// without waiting for the world to be made.
    func then(_ step: @escaping @Sendable (World) async -> Void) {
        ready.withLock { r in
            let before = r
            r = Task {
                let world = await before.value
                await step(world)
                return world
            }
        }
    }

    /// The demo app's bearer token (app-only: search, streams, public reads), as the world
    /// starts: until the app invalidates it.
    public func demoBearerToken() -> String { bearer }

    /// OAuth 2.0 tokens for the demo user on the demo app's public client, as if the consent
    /// page had been answered: what `linnet demo --api v2` starts with. The access token lives
    /// `oauth2AccessTokenSeconds`; the refresh token renews it through `/2/oauth2/token`.
    public func demoOAuth2Tokens(scopes: [String]) -> (accessToken: String, refreshToken: String?, expiresAt: Double) {
        let (access, refresh) = World.newGrantTokens(scopes: scopes)
        let (user, client) = (credentials.userID, configuration.oauth2ClientID)
        // By this process's clock, as a client reckons `expires_in`; the world keeps its own.
        let expiresAt = Date().timeIntervalSince1970 + configuration.oauth2AccessTokenSeconds
        then { await $0.keep(access: access, refresh: refresh, userID: user, clientID: client, scopes: scopes) }
        return (access, refresh, expiresAt)
    }

    /// Saves the world now (to the state file).
    public func save() async throws {
        guard let path = configuration.statePath else { return }
        try await world.state().save(path)
    }
}

/// A simulator failure, in words.
public struct SimulatorError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
