import Bedrock
import FoundationEssentials
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

    /// Longest a connection may take to send its request line, and the most of it read.
    public static let headDeadline: Double = 3
    public static let headLimit = 8192
    /// Connections read at once; past it the oldest is dropped.
    public static let openLimit = 16

    /// Waits for the browser's redirect; returns the verifier. Only a redirect naming the
    /// request token this session issued ends the wait (a denial too); any other is answered 400.
    public func waitForVerifier(expectedToken: String, timeout: Double) async throws -> String {
        try await wait(timeout: timeout) { params in
            if let denied = params["denied"] { return denied == expectedToken ? .fail(AuthFlowError.denied) : .ignore }
            guard params["oauth_token"] == expectedToken else { return .ignore }
            guard let verifier = params["oauth_verifier"], !verifier.isEmpty else {
                return .fail(AuthFlowError.malformedAnswer("the browser came back without a verifier"))
            }
            return .done(verifier)
        }
    }

    /// Waits for an OAuth 2.0 redirect; returns the code. Only a redirect carrying our `state`
    /// ends the wait, with its code or its error; any other (a forged or stale one, from any
    /// process or page) is answered 400 and ignored.
    public func waitForCode(expectedState: String, timeout: Double) async throws -> String {
        try await wait(timeout: timeout) { params in Self.decide(params, state: expectedState) }
    }

    /// What an OAuth 2.0 redirect's query means for the wait.
    public static func decide(_ params: [String: String], state: String) -> Decision {
        guard params["state"] == state else { return .ignore }
        if let error = params["error"] {
            return .fail(error == "access_denied" ? AuthFlowError.denied : AuthFlowError.refused(AuthFlowError.shown(error)))
        }
        guard let code = params["code"], !code.isEmpty else {
            return .fail(AuthFlowError.malformedAnswer("the browser came back without a code"))
        }
        return .done(code)
    }

    public enum Decision: Sendable, Equatable {
        case done(String)
        case fail(AuthFlowError)
        case ignore
    }

    private func wait(timeout: Double, _ decide: @escaping @Sendable ([String: String]) -> Decision) async throws -> String {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<String, any Error>) in
            // A thread of its own: poll blocks, and the task pool's threads are few.
            startThread { [self] in c.resume(with: Result { try self.serve(timeout: timeout, decide) }) }
        }
    }

    /// One connection being read: its bytes so far and when it must have sent its request line.
    private struct Pending {
        let fd: Int32
        let deadline: Date
        var bytes: [UInt8] = []
    }

    /// Answers requests until one to `/callback` settles the wait. Connections are read side by
    /// side, each with `headDeadline` to send its request line, so a slow one holds up nothing;
    /// `timeout` is a hard deadline for the whole wait.
    private func serve(timeout: Double, _ decide: ([String: String]) -> Decision) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var open: [Pending] = []
        defer { for p in open { Glibc.close(p.fd) } }
        while true {
            let now = Date()
            guard now < deadline else { throw AuthFlowError.timedOut(timeout) }
            // Drop connections past their deadline.
            open.removeAll { p in
                if p.deadline <= now {
                    Glibc.close(p.fd)
                    return true
                }
                return false
            }
            let next = open.map(\.deadline).min().map { min($0, deadline) } ?? deadline
            var fds =
                [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)] + open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let wait = Int32(max(1, min(1000, next.timeIntervalSinceNow * 1000)))
            guard poll(&fds, nfds_t(fds.count), wait) > 0 else { continue }
            if fds[0].revents != 0 {
                let client = accept(fd, nil, nil)
                if client >= 0 {
                    _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                    if open.count >= Self.openLimit { Glibc.close(open.removeFirst().fd) }
                    open.append(Pending(fd: client, deadline: min(deadline, Date().addingTimeInterval(Self.headDeadline))))
                }
            }
            var finished: [Int32] = []
            var result: Result<String, any Error>?
            for p in fds.dropFirst() where p.revents != 0 {
                guard let i = open.firstIndex(where: { $0.fd == p.fd }) else { continue }
                var buf = [UInt8](repeating: 0, count: 2048)
                let n = recv(p.fd, &buf, buf.count, 0)
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                guard n > 0 else {
                    finished.append(p.fd)
                    continue
                }
                open[i].bytes += buf[0..<n]
                switch CallbackRequest.parse(open[i].bytes) {
                case .incomplete: continue
                case .bad:
                    respond(p.fd, status: "400 Bad Request", "This is not a request Linnet answers.")
                    finished.append(p.fd)
                case .target(let target):
                    finished.append(p.fd)
                    guard result == nil else { continue }
                    guard let params = CallbackRequest.callbackQuery(target) else {
                        respond(p.fd, status: "404 Not Found", "Nothing here.")
                        continue
                    }
                    switch decide(params) {
                    case .ignore:
                        respond(p.fd, status: "400 Bad Request", "This sign-in was not started by this Linnet session.")
                    case .done(let value):
                        respond(p.fd, status: "200 OK", "Linnet is signed in. You can close this window and return to the terminal.")
                        result = .success(value)
                    case .fail(AuthFlowError.denied):
                        respond(p.fd, status: "200 OK", "Linnet was not authorized. You can close this window.")
                        result = .failure(AuthFlowError.denied)
                    case .fail(let error):
                        respond(p.fd, status: "400 Bad Request", "The sign-in did not complete; the terminal says why.")
                        result = .failure(error)
                    }
                }
            }
            open.removeAll { p in
                guard finished.contains(p.fd) else { return false }
                Glibc.close(p.fd)
                return true
            }
            if let result { return try result.get() }
        }
    }

    /// A fixed page: nothing from the request is written into it.
    private func respond(_ client: Int32, status: String, _ message: String) {
        let body = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Linnet</title></head><body><p>\(message)</p></body></html>"
        let text =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

/// The sign-in listener's reading of a request, apart from its sockets (and fuzzed).
public enum CallbackRequest {
    public enum Parse: Equatable, Sendable {
        case incomplete, bad
        case target(String)
    }

    /// The target of a `GET` request line, once the line is whole; `bad` for anything else or a
    /// line longer than `CallbackListener.headLimit`.
    public static func parse(_ bytes: [UInt8]) -> Parse {
        guard let end = bytes.firstIndex(of: 10) else { return bytes.count > CallbackListener.headLimit ? .bad : .incomplete }
        guard end <= CallbackListener.headLimit else { return .bad }
        var line = bytes[..<end]
        if line.last == 13 { line = line.dropLast() }
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].elementsEqual("GET".utf8), parts[2].starts(with: "HTTP/1.".utf8),
            let target = String(validating: parts[1], as: UTF8.self), target.hasPrefix("/"),
            !target.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value >= 0x7F })
        else { return .bad }
        return .target(target)
    }

    /// The query of a request to `/callback` (the last value of a repeated name), nil for any
    /// other path.
    public static func callbackQuery(_ target: String) -> [String: String]? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.first == "/callback" || parts.first == "/callback/" else { return nil }
        let query = parts.count > 1 ? String(parts[1].split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]) : ""
        return Dictionary(PercentEncoding.parseForm(query), uniquingKeysWith: { _, last in last })
    }
}
