import Foundation
import Spawn
import Testing
import TwitterAPI

/// Certificate verification against a stock TLS server (`openssl s_server`) with a CA made in
/// the test: refused without the CA, accepted with `caFile` (`--cacert`).
@Suite(.serialized) struct TLSTests {
    struct Setup {
        let dir: URL
        let server: ChildProcess
        let port: Int
        var caFile: String { dir.appendingPathComponent("ca.pem").path }
    }

    static func run(_ args: [String], in dir: URL) async throws {
        let r = try await ChildProcess.output("/usr/bin/openssl", args, directory: dir.path)
        guard r.status == 0 else { throw Failure(description: "openssl \(args.first ?? "") failed: \(r.text)") }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    func start() async throws -> Setup {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try await Self.run(
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj",
                "/CN=Linnet Test CA",
            ], in: dir)
        try await Self.run(
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"], in: dir)
        try Data("subjectAltName=DNS:localhost,IP:127.0.0.1\n".utf8).write(to: dir.appendingPathComponent("san.ext"))
        try await Self.run(
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days",
                "2", "-extfile", "san.ext",
            ], in: dir)
        let port = Int.random(in: 20_000..<60_000)
        let server = try ChildProcess(
            "/usr/bin/openssl",
            ["s_server", "-quiet", "-accept", "127.0.0.1:\(port)", "-cert", "server.pem", "-key", "server.key", "-www"],
            directory: dir.path, stdin: .pipe, stdout: .null, stderr: .null)
        return Setup(dir: dir, server: server, port: port)
    }

    @Test func certificatesAreVerifiedAndAPrivateCAIsAccepted() async throws {
        let s = try await start()
        defer {
            s.server.send(SIGKILL)
            s.server.wait()
            try? FileManager.default.removeItem(at: s.dir)
        }
        let url = "https://localhost:\(s.port)/"
        // Wait for the server to listen (up to 30 s: on a loaded 2-core machine, with the rest
        // of the suite running, openssl has been seen to take more than 5).
        var ready = false
        for _ in 0..<300 where !ready {
            do {
                _ = try await HTTPClient(options: .init(caFile: s.caFile)).send(HTTPRequest(method: "GET", url: url))
                ready = true
            } catch {
                try await Task.sleep(nanoseconds: 100_000_000)
            }
        }
        #expect(ready, "openssl s_server did not come up")
        do {
            _ = try await HTTPClient().send(HTTPRequest(method: "GET", url: url))
            Issue.record("a certificate from an unknown CA must be refused")
        } catch let e as TransportError {
            guard case .tls = e else {
                Issue.record("expected a TLS error, got \(e)")
                return
            }
            #expect(e.description.contains("certificate"))
        }
        let ok = try await HTTPClient(options: .init(caFile: s.caFile)).send(HTTPRequest(method: "GET", url: url))
        #expect(ok.status == 200)
    }
}
