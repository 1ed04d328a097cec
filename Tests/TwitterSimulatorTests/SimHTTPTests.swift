import Foundation
import Testing

@testable import TwitterSimulator

#if canImport(Glibc)
    import Glibc
#endif

/// The simulator's HTTP layer: its parser alone, then hostile clients on loopback.
@Suite struct SimHTTPParserTests {
    static let request = Array("GET /1.1/x.json?a=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Twice: one\r\nx-twice: two\r\n\r\nBODY".utf8)

    /// A head sent a byte at a time reads the same as one sent whole, and stops at its end.
    @Test func byteAtATimeEqualsWhole() {
        var whole = SimHTTPHeadParser(limits: SimHTTPLimits())
        let all = whole.parse(Self.request)
        var trickle = SimHTTPHeadParser(limits: SimHTTPLimits())
        var outcome = SimHTTPHeadParser.Outcome.needMore
        for n in 1...Self.request.count {
            outcome = trickle.parse(Array(Self.request[0..<n]))
            if outcome != .needMore { break }
        }
        #expect(outcome == all)
        guard case .head(let head, let consumed) = all else {
            Issue.record("no head: \(all)")
            return
        }
        #expect(head.method == "GET" && head.target == "/1.1/x.json?a=1" && head.version == "HTTP/1.1")
        #expect(head.header("x-twice") == "two")
        #expect(head.headers.filter { $0.0 == "x-twice" }.count == 2)
        #expect(Array(Self.request[consumed...]) == Array("BODY".utf8))
        #expect(head.keepAlive)
    }

    @Test func limitsAreStatuses() {
        var p = SimHTTPHeadParser(limits: SimHTTPLimits())
        #expect(
            p.parse(Array(("GET /" + String(repeating: "a", count: 9000)).utf8))
                == .refuse(status: 414, reason: "The request line is too long."))
        p = SimHTTPHeadParser(limits: SimHTTPLimits())
        let big = Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 70_000)).utf8)
        #expect(p.parse(big) == .refuse(status: 431, reason: "The request head is too large."))
        p = SimHTTPHeadParser(limits: SimHTTPLimits())
        let many = "GET / HTTP/1.1\r\n" + String(repeating: "X: y\r\n", count: 150) + "\r\n"
        #expect(p.parse(Array(many.utf8)) == .refuse(status: 431, reason: "Too many header lines."))
        p = SimHTTPHeadParser(limits: SimHTTPLimits())
        #expect(p.parse(Array("GET / HTTP/2.0\r\n\r\n".utf8)) == .refuse(status: 505, reason: "Only HTTP/1.1 is spoken here."))
        p = SimHTTPHeadParser(limits: SimHTTPLimits())
        #expect(p.parse(Array("GET / HTTP/1.1\r\nno colon\r\n\r\n".utf8)) == .refuse(status: 400, reason: "A header line has no colon."))
        p = SimHTTPHeadParser(limits: SimHTTPLimits())
        #expect(p.parse(Array("\r\n\r\nGET / HTTP/1.0\nConnection: keep-alive\n\n".utf8)) != .needMore)
    }

    /// Chunks are decoded as they come; the body is refused the moment it passes the limit.
    @Test func chunkedBodies() {
        var d = SimChunkedDecoder(limit: 100)
        let body = Array("5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nTrailer: x\r\n\r\nNEXT".utf8)
        var outcome = SimChunkedDecoder.Outcome.needMore
        for n in 1...body.count {
            outcome = d.feed(Array(body[0..<n]))
            if outcome != .needMore { break }
        }
        #expect(outcome == .done(consumed: body.count - 4))
        #expect(d.body == Array("hello world".utf8))
        var small = SimChunkedDecoder(limit: 10)
        #expect(small.feed(Array("8\r\n12345678\r\n8\r\n".utf8)) == .refuse(status: 413, reason: "Request body too large."))
        var bad = SimChunkedDecoder(limit: 10)
        #expect(bad.feed(Array("zz\r\n".utf8)) == .refuse(status: 400, reason: "A chunk size is malformed."))
        var huge = SimChunkedDecoder(limit: 1 << 20)
        #expect(huge.feed(Array("FFFFFFFFFFFFFFFF\r\n".utf8)) == .refuse(status: 400, reason: "A chunk size is malformed."))
    }
}

/// Hostile clients against a running simulator.
@Suite(.serialized) struct SimHTTPHostileTests {
    /// Sends `bytes` (as much as the server takes), then reads until the server closes or
    /// `limit` seconds pass; returns what came back and whether the server closed. Every test
    /// here ends when the server closes; the limit only stops a server that never does, and is
    /// far past what a loaded machine needs (20 s was once too short beside a CI run).
    static func exchange(_ port: UInt16, _ bytes: [UInt8], limit: Double = 180) async -> (String, closed: Bool) {
        await withCheckedContinuation { (done: CheckedContinuation<(String, closed: Bool), Never>) in
            Thread {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var addr = sockaddr_in()
                addr.sin_family = sa_family_t(AF_INET)
                addr.sin_port = port.bigEndian
                addr.sin_addr.s_addr = inet_addr("127.0.0.1")
                _ = withUnsafePointer(to: &addr) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                var sent = 0
                while sent < bytes.count {
                    let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, min($0.count, 65_536), Int32(MSG_NOSIGNAL)) }
                    if n <= 0 { break }
                    sent += n
                }
                var got: [UInt8] = []
                var closed = false
                let end = Date().addingTimeInterval(limit)
                var buf = [UInt8](repeating: 0, count: 65_536)
                while Date() < end {
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&p, 1, 200) > 0 else { continue }
                    let n = recv(fd, &buf, buf.count, 0)
                    if n <= 0 {
                        closed = true
                        break
                    }
                    got += buf[0..<n]
                }
                close(fd)
                done.resume(returning: (String(decoding: got, as: UTF8.self), closed))
            }.start()
        }
    }

    @Test func oversizedHeadsAreRefusedAndClosed() async throws {
        let sim = try await SimulatorServer.start(.quiet)
        defer { Task { await sim.stop() } }
        let port = UInt16(sim.baseURL.split(separator: ":").last!)!
        // A 1 MiB header value (once 169 s of parsing per 64 KB) and a 1 MiB request line.
        let header = Array(
            ("GET /1.1/help/configuration.json HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 1 << 20) + "\r\n\r\n").utf8)
        let (a, closedA) = await Self.exchange(port, header)
        #expect(a.hasPrefix("HTTP/1.1 431 "), "\(a.prefix(80))")
        #expect(closedA)
        let line = Array(("GET /" + String(repeating: "a", count: 1 << 20) + " HTTP/1.1\r\n\r\n").utf8)
        let (b, closedB) = await Self.exchange(port, line)
        #expect(b.hasPrefix("HTTP/1.1 414 "), "\(b.prefix(80))")
        #expect(closedB)
        // The server still answers, and routes: an unknown path is Twitter's 404, code 34.
        let ok = await Self.exchange(port, Array("GET /1.1/no_such.json HTTP/1.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(ok.0.hasPrefix("HTTP/1.1 404 ") && ok.0.contains("\"code\":34"), "\(ok.0.prefix(300))")
    }

    /// A chunked body that never ends is refused once it passes the limit, not buffered whole.
    @Test func aChunkedBodyPastTheLimitIsRefusedBeforeItEnds() async throws {
        let sim = try await SimulatorServer.start(.quiet)
        defer { Task { await sim.stop() } }
        let port = UInt16(sim.baseURL.split(separator: ":").last!)!
        var bytes = Array("POST /1.1/statuses/update.json HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x61, count: 65_536) + Array("\r\n".utf8)
        for _ in 0..<40 { bytes += chunk }  // 2.5 MiB of a body with no last chunk
        let (answer, closed) = await Self.exchange(port, bytes)
        #expect(answer.hasPrefix("HTTP/1.1 413 "), "\(answer.prefix(80))")
        #expect(closed)
    }

    /// A client that sends half a head and then nothing is cut off at the request deadline,
    /// and one that opens a connection and never speaks at the idle deadline.
    @Test func slowAndSilentClientsAreClosed() async throws {
        var config = SimulatorConfiguration.quiet
        config.httpLimits.requestSeconds = 1
        config.httpLimits.idleSeconds = 1
        let sim = try await SimulatorServer.start(config)
        defer { Task { await sim.stop() } }
        let port = UInt16(sim.baseURL.split(separator: ":").last!)!
        let half = await Self.exchange(port, Array("GET /1.1/help/configuration.json HTTP/1.1\r\nX-Slow: ".utf8))
        #expect(half.closed)
        #expect(half.0.isEmpty)
        let silent = await Self.exchange(port, [])
        #expect(silent.closed)
    }
}
