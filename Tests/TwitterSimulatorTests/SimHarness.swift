import Foundation
import LinnetTestSupport
import TwitterAPI

@testable import TwitterSimulator

/// A simulator on a free loopback port plus a signing client built from TwitterAPI's signer and
/// a raw socket, so every request is real HTTP.
struct SimHarness {
    let server: SimulatorServer
    let port: UInt16
    var credentials: OAuthCredentials

    static func start(_ tweak: (inout SimulatorConfiguration) -> Void = { _ in }) async throws -> SimHarness {
        var config = SimulatorConfiguration.quiet
        tweak(&config)
        let server = try await SimulatorServer.start(config)
        let port = UInt16(server.baseURL.split(separator: ":").last.map(String.init) ?? "") ?? 0
        let c = server.credentials
        return SimHarness(
            server: server, port: port,
            credentials: OAuthCredentials(
                consumerKey: c.consumerKey, consumerSecret: c.consumerSecret, token: c.accessToken,
                tokenSecret: c.accessTokenSecret))
    }

    func stop() async { await server.stop() }

    var base: String { server.baseURL }

    /// A signed request; parameters go in the query for GET and in a form body for POST.
    func call(
        _ method: String, _ path: String, _ params: [(String, String)] = [], credentials: OAuthCredentials? = nil,
        signer: OAuth1Signer = OAuth1Signer(), extraHeaders: [(String, String)] = [], extraOAuth: [(String, String)] = []
    ) async throws -> RawHTTP.Response {
        let creds = credentials ?? self.credentials
        let query = method == "GET" && !params.isEmpty ? "?" + PercentEncoding.formEncode(params) : ""
        let form = method == "GET" ? [] : params
        let auth = try signer.authorizationHeader(
            method: method, url: base + path + query, formParameters: form, extraOAuth: extraOAuth, credentials: creds)
        var headers = [("Authorization", auth)] + extraHeaders
        var body = Data()
        if method != "GET" {
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
            body = Data(PercentEncoding.formEncode(form).utf8)
        }
        return try await RawHTTP.send(port: port, method: method, target: path + query, headers: headers, body: body)
    }

    /// An unsigned request.
    func raw(_ method: String, _ target: String, headers: [(String, String)] = [], body: Data = Data()) async throws -> RawHTTP.Response {
        try await RawHTTP.send(port: port, method: method, target: target, headers: headers, body: body)
    }

    func json(_ r: RawHTTP.Response) throws -> JSONValue { try JSONValue.parse(r.body) }

    /// Twitter's error code in an error body.
    func errorCode(_ r: RawHTTP.Response) -> Int? {
        guard let v = try? JSONValue.parse(r.body), case .array(let errors)? = v["errors"] else { return nil }
        return errors.first?["code"]?.intValue.map { Int($0) }
    }

    func control(_ method: String, _ target: String, body: String = "") async throws -> RawHTTP.Response {
        try await RawHTTP.send(
            port: port, method: method, target: target,
            headers: method == "POST" ? [("Content-Type", "application/x-www-form-urlencoded")] : [], body: Data(body.utf8))
    }

    func setFaults(_ json: String) async throws {
        let r = try await RawHTTP.send(
            port: port, method: "POST", target: "/_sim/faults", headers: [("Content-Type", "application/json")],
            body: Data(json.utf8))
        guard r.status == 200 else { throw RawHTTP.Failure(description: "fault plan refused: \(r.text)") }
    }

    /// Ground-truth ids of a timeline.
    func truth(_ name: String) async throws -> [String] {
        let v = try json(try await control("GET", "/_sim/timeline?name=\(name)"))
        guard case .array(let ids)? = v["ids"] else { return [] }
        return ids.compactMap(\.stringValue)
    }
}
