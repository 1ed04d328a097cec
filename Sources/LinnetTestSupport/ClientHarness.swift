import Foundation
import Locking
import TwitterAPI
import TwitterSimulator

/// An in-process simulator and a client pointed at it over loopback with real libcurl.
public struct ClientHarness: Sendable {
    public let server: SimulatorServer
    public let client: TwitterClient
    public let traced: TraceLog

    public static func start(_ tweak: (inout SimulatorConfiguration) -> Void = { _ in }) async throws -> ClientHarness {
        var config = SimulatorConfiguration.quiet
        tweak(&config)
        let server = try await SimulatorServer.start(config)
        let c = server.credentials
        let log = TraceLog()
        let http = HTTPClient(options: HTTPClient.Options(trace: { log.append($0) }))
        let client = TwitterClient(
            endpoints: .single(server.baseURL),
            auth: .user(
                OAuthCredentials(
                    consumerKey: c.consumerKey, consumerSecret: c.consumerSecret, token: c.accessToken, tokenSecret: c.accessTokenSecret)),
            http: http)
        return ClientHarness(server: server, client: client, traced: log)
    }

    public func stop() async { await server.stop() }

    public func client(auth: TwitterAuth) -> TwitterClient {
        TwitterClient(endpoints: .single(server.baseURL), auth: auth, http: client.http)
    }

    /// Ground truth from the simulator's control routes, read with the client's own HTTP.
    public func truth(_ name: String) async throws -> [String] {
        let r = try await client.http.send(HTTPRequest(method: "GET", url: server.baseURL + "/_sim/timeline?name=\(name)"))
        guard case .array(let ids)? = try JSONValue.parse(r.body)["ids"] else { return [] }
        return ids.compactMap(\.stringValue)
    }

    /// How many API requests the simulator has answered: unchanged across a call means the
    /// call sent nothing.
    public func requestCount() async throws -> Int {
        guard case .array(let log) = try JSONValue.parse(try await control("GET", "/_sim/requests").body) else { return -1 }
        return log.count
    }

    /// The whole home timeline through v2, every page, newest first.
    public func v2WholeHome(of me: UserID) async throws -> [Tweet] {
        var all: [Tweet] = []
        var token: String?
        repeat {
            let page = try await client.v2Home(userID: me, .init(maxResults: 100, token: token))
            all += page.tweets
            token = page.meta.nextToken
        } while token != nil
        return all
    }

    /// How many of those went to paths containing `path`.
    public func requestCount(path: String) async throws -> Int {
        guard case .array(let log) = try JSONValue.parse(try await control("GET", "/_sim/requests").body) else { return -1 }
        return log.filter { $0["path"]?.stringValue?.contains(path) == true }.count
    }

    public func control(_ method: String, _ path: String, body: String = "", json: Bool = false) async throws -> HTTPResponse {
        var r = HTTPRequest(method: method, url: server.baseURL + path)
        if method == "POST" {
            r.headers = [("Content-Type", json ? "application/json" : "application/x-www-form-urlencoded")]
            r.body = Data(body.utf8)
        }
        return try await client.http.send(r)
    }
}

/// Collects trace lines.
public final class TraceLog: Sendable {
    private let lines = Locked<[String]>([])
    public func append(_ s: String) { lines.withLock { $0.append(s) } }
    public var all: [String] { lines.withLock { $0 } }
}
