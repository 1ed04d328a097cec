import FlyingFox
import FlyingSocks
import Foundation

/// A running simulated Twitter v1.1 server on loopback: REST, OAuth flows, streams, rate limits
/// and faults. Start it in-process (tests, `linnet demo`) or standalone (`linnet sim`).
public final class SimulatorServer: Sendable {
    public let configuration: SimulatorConfiguration
    /// Ready-to-use keys for the demo user.
    public let credentials: SimulatorCredentials
    /// `http://host:port`; the REST API is under `/1.1/`, OAuth under `/oauth/`.
    public let baseURL: String
    let world: World
    private let server: HTTPServer
    private let tasks: [Task<Void, Never>]

    private init(configuration: SimulatorConfiguration, world: World, server: HTTPServer, baseURL: String, tasks: [Task<Void, Never>]) {
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
        let address = try sockaddr_in.inet(ip4: configuration.host, port: configuration.port)
        let handler = FoxHandler(router: Router(world: world), maxBody: configuration.maxBodyBytes)
        let server = HTTPServer(
            address: address, timeout: 60, pool: NoDelayPool(inner: HTTPServer.defaultPool()), logger: .disabled,
            handler: handler)
        let runner = Task {
            do { try await server.run() } catch {}
        }
        try await server.waitUntilListening(timeout: 10)
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            runner.cancel()
            throw SimulatorError("the simulator could not bind \(configuration.host):\(configuration.port)")
        }
        var tasks = [runner]
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
        for t in tasks.dropFirst() { t.cancel() }
        await world.closeAllStreams()
        await server.stop(timeout: 1)
        tasks.first?.cancel()
        if let path = configuration.statePath { try? await world.state().save(path) }
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

/// Adapts FlyingFox requests and responses to the simulator's own types.
struct FoxHandler: HTTPHandler {
    let router: Router
    let maxBody: Int

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var headers: [String: String] = [:]
        for (k, v) in request.headers { headers[k.rawValue.lowercased()] = v }
        if let length = headers["content-length"].flatMap(Int.init), length > maxBody {
            return Self.convert(.error(413, code: 0, "Request body too large."), now: Date())
        }
        let body = try await request.bodyData
        if body.count > maxBody { return Self.convert(.error(413, code: 0, "Request body too large."), now: Date()) }
        let sim = SimRequest(
            method: request.method.rawValue.uppercased(), rawPath: request.target.path(percentEncoded: true),
            rawQuery: request.target.query(percentEncoded: true), headers: headers, body: body)
        let response = await router.handle(sim)
        return Self.convert(response, now: Date(timeIntervalSince1970: Double(await router.world.now)))
    }

    static func convert(_ r: SimResponse, now: Date) -> HTTPResponse {
        var headers = HTTPHeaders()
        for (k, v) in r.headers { headers.addValue(v, for: HTTPHeader(rawValue: k)) }
        if headers[HTTPHeader(rawValue: "Date")] == nil {
            headers.addValue(SimDate.http(Int64(now.timeIntervalSince1970)), for: HTTPHeader(rawValue: "Date"))
        }
        let status = HTTPStatusCode(r.status, phrase: HTTPReason.text(r.status))
        switch r.body {
        case .bytes(let data):
            return HTTPResponse(statusCode: status, headers: headers, body: data)
        case .stream(let frames):
            return HTTPResponse(
                statusCode: status, headers: headers, body: HTTPBodySequence(from: FrameBytes(frames: frames), suggestedBufferSize: 65_536))
        case .reset(let data, let keep):
            return HTTPResponse(
                statusCode: status, headers: headers,
                body: HTTPBodySequence(from: ResetBytes(bytes: Array(data.prefix(keep))), count: data.count, suggestedBufferSize: 65_536))
        }
    }
}
