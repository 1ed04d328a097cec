import FoundationEssentials

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
    let world: World
    private let server: SimHTTPServer
    private let tasks: [Task<Void, Never>]

    private init(configuration: SimulatorConfiguration, world: World, server: SimHTTPServer, baseURL: String, tasks: [Task<Void, Never>]) {
        self.configuration = configuration
        self.world = world
        self.credentials = world.credentials
        self.server = server
        self.baseURL = baseURL
        self.tasks = tasks
    }

    /// Builds the world (or loads it from `statePath`) and starts listening.
    public static func start(_ configuration: SimulatorConfiguration = SimulatorConfiguration()) async throws -> SimulatorServer {
        let world: World
        if let path = configuration.statePath, FileManager.default.fileExists(atPath: path) {
            world = World(config: configuration, state: try SimulatorState.load(path))
        } else {
            world = World(config: configuration)
        }
        let router = Router(world: world)
        let server: SimHTTPServer
        do {
            server = try await SimHTTPServer(
                host: configuration.host, port: configuration.port, limits: configuration.httpLimits, maxBody: configuration.maxBodyBytes
            ) { request in
                let response = await router.handle(request)
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
                    while !Task.isCancelled {
                        try? await Task.sleep(nanoseconds: SimClock.nanoseconds(interval))
                        if Task.isCancelled { break }
                        await world.liveStep()
                    }
                })
        }
        let url = "http://\(configuration.host):\(port)"
        return SimulatorServer(configuration: configuration, world: world, server: server, baseURL: url, tasks: tasks)
    }

    /// Stops listening, ends open streams and saves the state if a state file was given.
    public func stop() async {
        for t in tasks { t.cancel() }
        await world.closeAllStreams()
        await server.stop()
        if let path = configuration.statePath { try? await world.state().save(path) }
    }

    /// The demo app's bearer token (app-only: search, streams, public reads).
    public func demoBearerToken() async -> String { await world.bearer(for: credentials.consumerKey) }

    /// OAuth 2.0 tokens for the demo user on the demo app's public client, as if the consent
    /// page had been answered: what `linnet demo --api v2` starts with. The access token lives
    /// `oauth2AccessTokenSeconds`; the refresh token renews it through `/2/oauth2/token`.
    public func demoOAuth2Tokens(scopes: [String]) async -> (accessToken: String, refreshToken: String?, expiresAt: Double) {
        let (access, refresh) = await world.grant(
            userID: credentials.userID, clientID: configuration.oauth2ClientID, scopes: scopes)
        return (access, refresh, await world.wallNow + configuration.oauth2AccessTokenSeconds)
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
