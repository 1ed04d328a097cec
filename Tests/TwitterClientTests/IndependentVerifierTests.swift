import Foundation
import Spawn
import Testing
import TwitterAPI

/// Linnet's signatures checked by oauthlib in a Python server (from the virtual environment
/// `make test` builds), not only by our own simulator.
@Suite(.serialized) struct IndependentVerifierTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Starts the verifier; returns the process and its base URL.
    func startVerifier(_ c: OAuthCredentials) async throws -> (ChildProcess, String) {
        let python = Self.root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw VerifierMissing(description: "\(python) is missing: run `make test`, which creates the virtual environment with oauthlib")
        }
        // Its own stderr, so it never holds the test runner's output open.
        let p = try ChildProcess(
            python,
            [
                Self.root.appendingPathComponent("Tests/python/oauth_verifier.py").path, c.consumerKey, c.consumerSecret, c.token ?? "",
                c.tokenSecret ?? "",
            ],
            stdin: .pipe, stdout: .pipe, stderr: .null)
        var line = ""
        let deadline = Date().addingTimeInterval(60)
        while !line.contains("\n"), Date() < deadline {
            guard let d = p.read(timeout: 0) else { break }
            if d.isEmpty { try await Task.sleep(nanoseconds: 50_000_000) } else { line += String(decoding: d, as: UTF8.self) }
        }
        guard let base = line.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines), base.hasPrefix("http://") else {
            p.send(SIGTERM)
            p.wait()
            throw VerifierMissing(description: "the verifier did not start: \(line)")
        }
        return (p, base)
    }

    struct VerifierMissing: Error, CustomStringConvertible { let description: String }

    @Test func oauthlibAcceptsLinnetSignatures() async throws {
        let creds = OAuthCredentials(
            consumerKey: "linnet-consumer", consumerSecret: "c-secret/with+odd&chars", token: "123-token", tokenSecret: "t-secret=")
        let (process, base) = try await startVerifier(creds)
        defer {
            // Closing its input ends the verifier.
            process.closeInput()
            process.send(SIGTERM)
            process.wait()
        }
        let client = TwitterClient(endpoints: .single(base), auth: .user(creds))
        let cases: [(String, String, [(String, String)])] = [
            ("GET", "/1.1/statuses/home_timeline.json", [("count", "5"), ("since_id", "12345")]),
            ("GET", "/1.1/search/tweets.json", [("q", "日本語 \"exact phrase\" -nope #tag @who"), ("result_type", "recent")]),
            ("POST", "/1.1/statuses/update.json", [("status", "Hello Ladies + Gentlemen, a signed OAuth request! ☃ & 🐦")]),
            ("POST", "/1.1/statuses/update.json", [("status", "reply"), ("in_reply_to_status_id", "210462857140252672")]),
            ("GET", "/1.1/users/show.json", [("screen_name", "a b~c*d'e(f)g!")]),
        ]
        #expect(base.contains(":") && !base.hasSuffix(":80"), "the verifier runs on a non-default port")
        for (method, path, params) in cases {
            let r = try await client.send(method, path, params)
            let answer = try JSONValue.parse(r.body)
            #expect(r.status == 200, "\(method) \(path) was not verified")
            #expect(answer["valid"] == .bool(true))
            for (k, v) in params { #expect(answer["params"]?[k]?.stringValue == v, "\(k) arrived changed") }
            #expect(answer["headers"]?["user-agent"]?.stringValue?.hasPrefix("Linnet/") == true)
            #expect(answer["headers"]?["accept-encoding"]?.stringValue?.contains("gzip") == true)
        }
        var wrong = creds
        wrong.tokenSecret = "not-it"
        let forged = try await TwitterClient(endpoints: .single(base), auth: .user(wrong)).send("GET", "/1.1/statuses/home_timeline.json")
        #expect(forged.status == 401, "a wrong secret must not verify")
    }
}
