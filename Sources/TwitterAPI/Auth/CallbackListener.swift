import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A one-shot HTTP listener on 127.0.0.1 and an ephemeral port, for the browser sign-in: the
/// authorize page redirects here with `oauth_token` and `oauth_verifier` (or `denied`). Only the
/// request token this session issued is accepted.
public final class CallbackListener: Sendable {
    private let fd: Int32
    public let port: UInt16
    private let closed = Atomic<Bool>(false)

    /// The `oauth_callback` to send with the request token.
    public var callbackURL: String { "http://127.0.0.1:\(port)/callback" }

    /// Listens on 127.0.0.1 at `port` (0: any free one). OAuth 2.0 needs the fixed port of the
    /// redirect URI the app registered (`http://localhost:8080/callback`).
    public init(port wanted: UInt16 = 0) throws {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard s >= 0 else { throw AuthFlowError.refused("cannot open a listening socket") }
        var one: Int32 = 1
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = wanted.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(s, 8) == 0 else {
            Glibc.close(s)
            throw AuthFlowError.refused(
                wanted == 0 ? "cannot listen on 127.0.0.1" : "cannot listen on 127.0.0.1:\(wanted) (is another program using it?)")
        }
        var actual = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &len) }
        }
        fd = s
        port = UInt16(bigEndian: actual.sin_port)
    }

    deinit { close() }

    public func close() {
        if !closed.exchange(true, ordering: .relaxed) { Glibc.close(fd) }
    }

    /// Waits for the browser's redirect; returns the verifier.
    public func waitForVerifier(expectedToken: String, timeout: Double) async throws -> String {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<String, any Error>) in
            let t = Thread { [self] in
                c.resume(with: Result { try self.serve(expectedToken: expectedToken, timeout: timeout) })
            }
            t.start()
        }
    }

    /// Waits for an OAuth 2.0 redirect; returns the code once the `state` matches ours.
    public func waitForCode(expectedState: String, timeout: Double) async throws -> String {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<String, any Error>) in
            let t = Thread { [self] in
                c.resume(
                    with: Result {
                        try self.serve(timeout: timeout) { (params: [String: String]) throws -> String in
                            if let error = params["error"] {
                                throw error == "access_denied" ? AuthFlowError.denied : AuthFlowError.refused(error)
                            }
                            guard params["state"] == expectedState, let code = params["code"], !code.isEmpty else {
                                throw AuthFlowError.wrongToken
                            }
                            return code
                        }
                    })
            }
            t.start()
        }
    }

    private func serve(expectedToken: String, timeout: Double) throws -> String {
        try serve(timeout: timeout) { (params: [String: String]) throws -> String in
            if params["denied"] != nil { throw AuthFlowError.denied }
            guard params["oauth_token"] == expectedToken, let verifier = params["oauth_verifier"], !verifier.isEmpty else {
                throw AuthFlowError.wrongToken
            }
            return verifier
        }
    }

    /// Answers requests until one to `/callback` is read by `handle`: its value, or its error
    /// (said on the page too).
    private func serve(timeout: Double, _ handle: ([String: String]) throws -> String) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw AuthFlowError.timedOut(timeout) }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            defer { Glibc.close(client) }
            guard let target = readRequestTarget(client) else { continue }
            guard target.hasPrefix("/callback") else {
                respond(client, status: "404 Not Found", "Nothing here.")
                continue
            }
            let query = target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            let params = Dictionary(PercentEncoding.parseForm(query), uniquingKeysWith: { _, last in last })
            do {
                let value = try handle(params)
                respond(client, status: "200 OK", "Linnet is signed in. You can close this window and return to the terminal.")
                return value
            } catch AuthFlowError.denied {
                respond(client, status: "200 OK", "Linnet was not authorized. You can close this window.")
                throw AuthFlowError.denied
            } catch AuthFlowError.wrongToken {
                respond(client, status: "400 Bad Request", "This sign-in was not started by this Linnet session.")
                throw AuthFlowError.wrongToken
            } catch {
                respond(client, status: "400 Bad Request", "The sign-in failed: \(error)")
                throw error
            }
        }
    }

    private func readRequestTarget(_ client: Int32) -> String? {
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while !data.contains(10), data.count < 16_384 {
            var p = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 5000) > 0 else { return nil }
            let n = recv(client, &buf, buf.count, 0)
            guard n > 0 else { return nil }
            data += buf[0..<n]
        }
        let line = String(decoding: data.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let parts = line.split(separator: " ")
        return parts.count >= 2 && parts[0] == "GET" ? String(parts[1]) : nil
    }

    private func respond(_ client: Int32, status: String, _ message: String) {
        let body = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Linnet</title></head><body><p>\(message)</p></body></html>"
        let text =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
