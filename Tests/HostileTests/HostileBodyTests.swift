import Foundation
import LinnetTestSupport
import Spawn
import Testing
import TwitterAPI

/// What one hostile answer may cost: a body is bounded after decompression, a request has a
/// deadline however slowly bytes trickle, and a stream read too slowly is closed, not hoarded.
@Suite struct HostileBodyTests {
    static let credentials = OAuthCredentials(consumerKey: "ck", consumerSecret: "cs", token: "1-t", tokenSecret: "ts")

    static func client(_ server: HostileServer, _ options: HTTPClient.Options = .init()) -> TwitterClient {
        TwitterClient(endpoints: .single(server.base), auth: .user(credentials), http: HTTPClient(options: options))
    }

    static func tooLarge(_ error: (any Error)?) -> String? {
        if case .tooLarge(let s) = error as? TransportError { return s }
        return nil
    }

    /// 128 MB of zeros gzipped to about 125 KB: refused at the 32 MB bound after inflating.
    @Test func aGzipBombIsRefusedInWords() async throws {
        let bomb = try await ChildProcess.output("/bin/sh", ["-c", "head -c 134217728 /dev/zero | gzip -1"], stderr: .inherit).output
        #expect(bomb.count < 1 << 20)
        let server = try HostileServer { _ in
            [
                .text(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n"),
                .send(bomb),
            ]
        }
        defer { server.stop() }
        let error = await #expect(throws: TransportError.self) {
            _ = try await Self.client(server).call("GET", "/1.1/statuses/home_timeline.json")
        }
        let words = try #require(Self.tooLarge(error))
        #expect(words.contains("larger than the 32 MB"))
    }

    @Test func aFiftyMegabyteBodyIsRefused() async throws {
        let block = Data(repeating: UInt8(ascii: "a"), count: 1 << 16)
        let server = try HostileServer { _ in
            [.text("HTTP/1.1 200 OK\r\nContent-Length: \(50 << 20)\r\n\r\n"), .flood(block, limit: 50 << 20)]
        }
        defer { server.stop() }
        let error = await #expect(throws: TransportError.self) {
            _ = try await Self.client(server).call("GET", "/1.1/statuses/home_timeline.json")
        }
        #expect(Self.tooLarge(error) != nil)
        #expect(server.bytesSent < 50 << 20, "the client stopped reading")
    }

    /// One byte every half second keeps the idle timeout happy; the request deadline ends it.
    @Test func aSlowlorisAnswerMeetsTheDeadline() async throws {
        let server = try HostileServer { _ in
            [.text("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")]
                + Array(repeating: [HostileServer.Step.text("["), .pause(0.5)], count: 40).flatMap { $0 }
        }
        defer { server.stop() }
        var options = HTTPClient.Options()
        options.requestTimeout = 2
        let error = await #expect(throws: TransportError.self) {
            _ = try await Self.client(server, options).call("GET", "/1.1/statuses/home_timeline.json")
        }
        guard case .timeout = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
    }

    /// A stream that floods without a line feed: the framer drops the line as it comes, and
    /// the client says so and reconnects; it never holds more than its bounds.
    @Test func aStreamWithoutLineFeedsIsSkippedAndReconnected() async throws {
        let block = Data(repeating: UInt8(ascii: "9"), count: 1 << 16)
        let server = try HostileServer { _ in
            [
                .text("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"), .flood(block, limit: 8 << 20),
                .close,
            ]
        }
        defer { server.stop() }
        let client = Self.client(server)
        var skipped: [String] = []
        var waits = 0
        let clock = InstantClock()
        for await event in client.stream(.sample, stallTimeout: 30, clock: clock) {
            switch event {
            case .skipped(let why): skipped.append(why)
            case .state(.waiting): waits += 1
            default: break
            }
            if waits >= 2 { break }
        }
        #expect(skipped.contains { $0.contains("a line longer than") })
        #expect(server.requests >= 2, "the stream reconnected")
    }
}

/// A clock that does not wait, so reconnects follow one another at once.
struct InstantClock: StreamClock {
    func sleep(seconds: Double) async throws { try Task.checkCancellation() }
}

/// Redirects and ids a server should never send.
@Suite struct HostileAnswerTests {
    static let credentials = OAuthCredentials(consumerKey: "ck", consumerSecret: "cs", token: "1-t", tokenSecret: "ts")

    /// A redirect to another host is not followed: the signed Authorization header never
    /// reaches the other server, and the caller gets the redirect as an error.
    @Test func aRedirectIsNotFollowedWithCredentials() async throws {
        let elsewhere = try HostileServer { _ in HostileServer.answer(body: "[]") }
        defer { elsewhere.stop() }
        let server = try HostileServer { _ in
            HostileServer.answer(status: 302, headers: ["Location: http://127.0.0.1:\(elsewhere.port)/steal"], body: "")
        }
        defer { server.stop() }
        let client = TwitterClient(endpoints: .single(server.base), auth: .user(Self.credentials))
        let error = await #expect(throws: APIError.self) { _ = try await client.homeTimeline() }
        #expect(error?.httpStatus == 302)
        #expect(elsewhere.requests == 0, "the redirect was followed")
    }

    /// Ids past 2^64 and malformed ones: the tweet is skipped and counted, the page still read.
    @Test func idsBeyondSixtyFourBitsAreSkippedNotTrusted() async throws {
        let good =
            #"{"id":5,"id_str":"5","created_at":"Wed Jun 06 20:07:10 +0000 2012","full_text":"fine","user":{"id":1,"id_str":"1","screen_name":"a","name":"A"}}"#
        let huge =
            #"{"id":1e30,"id_str":"184467440737095516160","created_at":"Wed Jun 06 20:07:10 +0000 2012","full_text":"huge","user":{"id":1,"id_str":"1","screen_name":"a","name":"A"}}"#
        let negative =
            #"{"id":-1,"id_str":"-1","created_at":"Wed Jun 06 20:07:10 +0000 2012","full_text":"neg","user":{"id":1,"id_str":"1","screen_name":"a","name":"A"}}"#
        let server = try HostileServer { _ in HostileServer.answer(body: "[\(huge),\(good),\(negative)]") }
        defer { server.stop() }
        let client = TwitterClient(endpoints: .single(server.base), auth: .user(Self.credentials))
        let page = try await client.homeTimeline()
        #expect(page.tweets.map(\.id) == [TweetID(5)])
        #expect(page.problems.map(\.index) == [0, 2])
    }
}

/// A reader slower than the server: the transfer pauses and goes on, and every message arrives
/// in order (nothing dropped, no reconnect), while at most 128 chunks wait.
@Suite struct BackPressureTests {
    @Test func aSlowReaderGetsEveryMessage() async throws {
        let count = 3000
        var body = Data()
        for i in 0..<count {
            let json = "{\"n\":\(i),\"pad\":\"\(String(repeating: "x", count: 4000))\"}"
            body += Data("\(json.utf8.count + 2)\r\n\(json)\r\n".utf8)
        }
        let payload = body
        let server = try HostileServer { _ in
            [.text("HTTP/1.1 200 OK\r\nContent-Length: \(payload.count)\r\n\r\n"), .send(payload), .close]
        }
        defer { server.stop() }
        let http = HTTPClient()
        var request = HTTPRequest(method: "GET", url: server.base + "/stream")
        request.receiveBufferBytes = 16 * 1024
        var framer = StreamFramer(framing: .delimited, maxMessageBytes: 1 << 16)
        var seen = 0
        var inOrder = true
        for try await part in http.stream(request) {
            guard case .bytes(let b) = part else { continue }
            for case .message(let m) in framer.feed(b) {
                let text = String(decoding: m, as: UTF8.self)
                if !text.hasPrefix("{\"n\":\(seen),") { inOrder = false }
                seen += 1
            }
            // A reader that stops now and then, far slower than loopback.
            if seen % 200 == 0 { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        #expect(seen == count)
        #expect(inOrder)
    }
}
