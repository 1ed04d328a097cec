import Foundation
import Glibc
import LinnetTestSupport
import Synchronization
import Testing
import TwitterAPI

/// The loopback sign-in listener against a local attacker: a slow sender, forged redirects,
/// reflected markup, an endless request line.
@Suite struct CallbackListenerHostileTests {
    /// A client that sends `bytes` one at a time, `every` seconds apart, on a thread of its own.
    final class SlowSender: Sendable {
        let done = Atomic<Bool>(false)
        let stop = Atomic<Bool>(false)
        /// Every byte went out (the listener kept the connection that long).
        let sentAll = Atomic<Bool>(false)
        init(port: UInt16, bytes: [UInt8], every: Double) {
            Thread { [self] in
                let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                defer {
                    close(s)
                    done.store(true, ordering: .sequentiallyConsistent)
                }
                var addr = sockaddr_in()
                addr.sin_family = sa_family_t(AF_INET)
                addr.sin_port = port.bigEndian
                addr.sin_addr.s_addr = inet_addr("127.0.0.1")
                let ok = withUnsafePointer(to: &addr) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard ok == 0 else { return }
                for b in bytes {
                    if stop.load(ordering: .sequentiallyConsistent) { return }
                    var one = b
                    guard send(s, &one, 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
                    usleep(UInt32(every * 1_000_000))
                }
                sentAll.store(true, ordering: .sequentiallyConsistent)
            }.start()
        }
        var finished: Bool { done.load(ordering: .sequentiallyConsistent) }
    }

    @Test func aSlowSenderHoldsNeitherTheListenerNorTheDeadline() async throws {
        let listener = try CallbackListener(port: 0)
        defer { listener.close() }
        // 40 bytes, one every 0.5 s: 20 s to send a request line the old listener waited for.
        let slow = SlowSender(port: listener.port, bytes: Array("GET /callback?state=s&code=slow HTTP/1.1\r\n".utf8), every: 0.5)
        defer { slow.stop.store(true, ordering: .sequentiallyConsistent) }
        let started = Date()
        await #expect(throws: AuthFlowError.timedOut(2)) { try await listener.waitForCode(expectedState: "s", timeout: 2) }
        let took = Date().timeIntervalSince(started)
        print("listener: --timeout 2 ended after \(String(format: "%.2f", took)) s with a slow sender still sending")
        let sentAll = slow.sentAll.load(ordering: .sequentiallyConsistent)
        #expect(!sentAll, "the wait outlasted the slow sender")
    }

    @Test func aSlowSenderDoesNotDelayTheRealRedirect() async throws {
        let listener = try CallbackListener(port: 0)
        defer { listener.close() }
        let waiting = Task { try await listener.waitForCode(expectedState: "mine", timeout: 30) }
        var slows: [SlowSender] = []
        for _ in 0..<20 { slows.append(SlowSender(port: listener.port, bytes: Array("GET /callback?state=mine".utf8), every: 1)) }
        defer { for s in slows { s.stop.store(true, ordering: .sequentiallyConsistent) } }
        try await Task.sleep(nanoseconds: 200_000_000)
        let page = try await RawHTTP.send(port: listener.port, method: "GET", target: "/callback?state=mine&code=real")
        #expect(page.status == 200)
        #expect(try await waiting.value == "real")
    }

    @Test func forgedRedirectsAreRefusedAndIgnored() async throws {
        let listener = try CallbackListener(port: 0)
        defer { listener.close() }
        let waiting = Task { try await listener.waitForCode(expectedState: "mine", timeout: 30) }
        try await Task.sleep(nanoseconds: 100_000_000)
        let markup = "<script>alert(1)</script>\u{1B}[2J"
        let q = PercentEncoding.formEncode([("state", "theirs"), ("error", markup)])
        for target in [
            "/callback?state=theirs&code=x", "/callback?" + q, "/callback?error=access_denied", "/callback?code=x",
            "/callback?" + PercentEncoding.formEncode([("error", markup)]),
        ] {
            let page = try await RawHTTP.send(port: listener.port, method: "GET", target: target)
            #expect(page.status == 400, "\(target)")
            #expect(!page.text.contains("<script") && !page.text.contains("alert"), "\(page.text)")
        }
        for junk in ["/elsewhere", "/callbackx"] {
            #expect(try await RawHTTP.send(port: listener.port, method: "GET", target: junk).status == 404)
        }
        // An endless request line is cut off at the bound; the wait goes on.
        let long = try await RawHTTP.send(
            port: listener.port, method: "GET", target: "/callback?state=mine&x=" + String(repeating: "a", count: 20_000))
        #expect(long.status == 400)
        // Our state with an error: the wait ends with it, shown without its controls or markup echoed to the page.
        let mineQ = PercentEncoding.formEncode([("state", "mine"), ("error", markup)])
        let page = try await RawHTTP.send(port: listener.port, method: "GET", target: "/callback?" + mineQ)
        #expect(page.status == 400 && !page.text.contains("<script"))
        do {
            _ = try await waiting.value
            Issue.record("the matching error must end the wait")
        } catch let e as AuthFlowError {
            #expect(!e.description.unicodeScalars.contains { $0.value == 0x1B }, "\(e.description.debugDescription)")
            #expect(e.description.contains("\\u{1B}"))
        }
    }

    @Test func theRequestParserTakesOnlyAWholeGETLine() {
        #expect(CallbackRequest.parse(Array("GET /callback?a=1 HTTP/1.1\r\n".utf8)) == .target("/callback?a=1"))
        #expect(CallbackRequest.parse(Array("GET /callback?a=1 HTTP/1.1".utf8)) == .incomplete)
        #expect(CallbackRequest.parse(Array("POST /callback HTTP/1.1\r\n".utf8)) == .bad)
        #expect(CallbackRequest.parse(Array("GET /a\u{1B}b HTTP/1.1\r\n".utf8)) == .bad)
        #expect(CallbackRequest.parse(Array("GET http://x/ HTTP/1.1\r\n".utf8)) == .bad)
        #expect(CallbackRequest.parse([UInt8](repeating: 65, count: CallbackListener.headLimit + 1)) == .bad)
        #expect(CallbackRequest.callbackQuery("/callback?state=a&state=b&code=%41") == ["state": "b", "code": "A"])
        #expect(CallbackRequest.callbackQuery("/other?state=a") == nil)
    }

    @Test func aPastedAddressWithAnotherStateIsNotItsError() {
        #expect(throws: AuthFlowError.wrongToken) {
            _ = try OAuth2Flow.code(fromPasted: "http://localhost:8080/callback?state=theirs&error=access_denied", state: "mine")
        }
        #expect(throws: AuthFlowError.denied) {
            _ = try OAuth2Flow.code(fromPasted: "http://localhost:8080/callback?state=mine&error=access_denied", state: "mine")
        }
    }
}
