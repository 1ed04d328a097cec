import Bedrock
import FlyingSocks
import FoundationEssentials
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// The simulator's HTTP/1.1 server, on FlyingSocks' non-blocking sockets and epoll pool. Its own
/// parser reads each byte once and within `SimHTTPLimits`; an over-long head or body is refused
/// before the excess is read; a connection that idles or dribbles past its deadline is closed;
/// and running out of file descriptors pauses accepting instead of ending it (DECISIONS.md).
final class SimHTTPServer: Sendable {
    typealias Handler = @Sendable (SimRequest) async -> (SimResponse, Date)

    let limits: SimHTTPLimits
    let maxBody: Int
    private let handler: Handler
    private let pool: any AsyncSocketPool
    private let listener: AsyncSocket
    let port: UInt16
    private let state = Locked(State())
    private struct State {
        var nextID = 0
        /// Open connections: their socket and the time by which they must make progress.
        var connections: [Int: (fd: Int32, deadline: Double)] = [:]
        var tasks: [Int: Task<Void, Never>] = [:]
        var stopped = false
        var acceptsPaused = 0
    }
    private let background = Locked<[Task<Void, Never>]>([])

    init(host: String, port: UInt16, limits: SimHTTPLimits, maxBody: Int, handler: @escaping Handler) async throws {
        self.limits = limits
        self.maxBody = maxBody
        self.handler = handler
        let pool: some AsyncSocketPool = .make(maxEvents: 256)
        try await pool.prepare()
        self.pool = pool
        let socket = try Socket(domain: AF_INET, type: .stream)
        try socket.setValue(true, for: .localAddressReuse)
        try socket.bind(to: try sockaddr_in.inet(ip4: host, port: port))
        try socket.listen(maxPendingConnection: 1024)
        guard case .ip4(_, let bound) = try socket.sockname() else {
            try? socket.close()
            throw SimulatorError("the simulator could not bind \(host):\(port)")
        }
        self.port = bound
        listener = try AsyncSocket(socket: socket, pool: pool)
        background.withLock {
            $0 = [
                Task { try? await pool.run() },
                Task { [weak self] in await self?.acceptLoop() },
                Task { [weak self] in await self?.watchdog() },
            ]
        }
    }

    /// How often accepting paused because the process ran out of file descriptors.
    var acceptPauses: Int { state.withLock { $0.acceptsPaused } }
    var openConnections: Int { state.withLock { $0.connections.count } }

    func stop() async {
        // Shut down under the lock: a connection closes its descriptor under the same lock, so
        // a number shut down here is never one the process has since given to another socket.
        let tasks = state.withLock { s -> [Task<Void, Never>] in
            s.stopped = true
            for c in s.connections.values { _ = Glibc.shutdown(c.fd, Int32(SHUT_RDWR)) }
            return Array(s.tasks.values)
        }
        _ = Glibc.shutdown(listener.socket.file.rawValue, Int32(SHUT_RDWR))
        for t in tasks { t.cancel() }
        for t in tasks { await t.value }
        try? listener.close()
        for t in background.withLock({ $0 }) { t.cancel() }
    }

    private static func now() -> Double { Date().timeIntervalSince1970 }

    // MARK: - Accepting

    private func acceptLoop() async {
        let socket = listener.socket
        while !state.withLock({ $0.stopped }) {
            do {
                let fd = try socket.accept().file
                open(Socket(file: fd))
            } catch SocketError.blocked {
                do { try await pool.suspendSocket(socket, untilReadyFor: .connection) } catch { return }
            } catch SocketError.failed(_, let code, _) where [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) {
                // Out of descriptors: wait for connections to end (the watchdog closes idle
                // ones) and try again; the pending ones wait in the backlog meanwhile.
                state.withLock { $0.acceptsPaused += 1 }
                try? await Task.sleep(nanoseconds: 50_000_000)
            } catch {
                if state.withLock({ $0.stopped }) || Task.isCancelled { return }
                try? await Task.sleep(nanoseconds: 10_000_000)
            }
        }
    }

    private func open(_ socket: Socket) {
        var one: Int32 = 1
        _ = setsockopt(socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        guard let conn = try? AsyncSocket(socket: socket, pool: pool) else {
            try? socket.close()
            return
        }
        let id = state.withLock { s -> Int in
            s.nextID += 1
            s.connections[s.nextID] = (socket.file.rawValue, Self.now() + limits.idleSeconds)
            return s.nextID
        }
        let task = Task { [self] in
            await serve(conn, id: id)
            // Closed under the lock the watchdog and `stop` shut down under (see `stop`).
            state.withLock { s in
                s.connections[id] = nil
                s.tasks[id] = nil
                try? conn.close()
            }
        }
        state.withLock { s in
            if s.connections[id] != nil { s.tasks[id] = task }
        }
    }

    /// Closes (by shutting down) connections past their deadline, once a second.
    private func watchdog() async {
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 500_000_000)
            let now = Self.now()
            state.withLock { s in
                for c in s.connections.values where c.deadline < now { _ = Glibc.shutdown(c.fd, Int32(SHUT_RDWR)) }
            }
        }
    }

    private func setDeadline(_ id: Int, _ seconds: Double) {
        state.withLock { s in s.connections[id]?.deadline = Self.now() + seconds }
    }

    // MARK: - One connection

    private func read(_ conn: AsyncSocket) async throws -> [UInt8] {
        while true {
            do {
                let got = try conn.socket.read(atMost: 65_536)
                if got.isEmpty { throw SocketError.disconnected }
                return got
            } catch SocketError.blocked {
                try await pool.suspendSocket(conn.socket, untilReadyFor: .read)
            }
        }
    }

    private func serve(_ conn: AsyncSocket, id: Int) async {
        var buffer: [UInt8] = []
        do {
            while true {
                // The head: idle time before its first byte, then the request deadline.
                setDeadline(id, limits.idleSeconds)
                var parser = SimHTTPHeadParser(limits: limits)
                var started = false
                let head: SimHTTPHead
                var consumed = 0
                while true {
                    if !buffer.isEmpty, !started {
                        started = true
                        setDeadline(id, limits.requestSeconds)
                    }
                    switch parser.parse(buffer) {
                    case .needMore:
                        buffer += try await read(conn)
                        continue
                    case .refuse(let status, let reason):
                        try await refuse(conn, status, reason, v2: Self.isV2(buffer))
                        return
                    case .head(let h, let n):
                        head = h
                        consumed = n
                    }
                    break
                }
                buffer.removeFirst(consumed)
                guard let body = try await readBody(conn, head, &buffer) else { return }
                let answer = try await respond(conn, head, body, id: id)
                if !answer || !head.keepAlive { return }
            }
        } catch {
            return
        }
    }

    /// The body by its length or its chunks; nil when it was refused (and answered).
    private func readBody(_ conn: AsyncSocket, _ head: SimHTTPHead, _ buffer: inout [UInt8]) async throws -> Data? {
        if let te = head.header("transfer-encoding") {
            guard head.header("content-length") == nil,
                te.lowercased().split(separator: ",").last?.trimmed() == "chunked"
            else {
                try await refuse(conn, 400, "Unsupported Transfer-Encoding.")
                return nil
            }
            var decoder = SimChunkedDecoder(limit: maxBody)
            while true {
                switch decoder.feed(buffer) {
                case .needMore: buffer += try await read(conn)
                case .refuse(let status, let reason):
                    try await refuse(conn, status, reason)
                    return nil
                case .done(let n):
                    buffer.removeFirst(n)
                    return Data(decoder.body)
                }
            }
        }
        let lengthText = head.header("content-length") ?? "0"
        guard let length = Int(lengthText), length >= 0, lengthText.count <= 18 else {
            try await refuse(conn, 400, "Content-Length is malformed.")
            return nil
        }
        guard length <= maxBody else {
            try await refuse(conn, 413, "Request body too large.")
            return nil
        }
        while buffer.count < length { buffer += try await read(conn) }
        let body = Data(buffer[0..<length])
        buffer.removeFirst(length)
        return body
    }

    /// Twitter's error body with the status, then the connection closes.
    /// A request line for `/2/…`, as far as it came.
    static func isV2(_ buffer: [UInt8]) -> Bool {
        guard let space = buffer.prefix(16).firstIndex(of: 0x20) else { return false }
        return buffer[(space + 1)...].starts(with: Array("/2/".utf8))
    }

    /// An HTTP-level refusal, in the words of the face asked (v2: a problem object).
    private func refuse(_ conn: AsyncSocket, _ status: Int, _ reason: String, v2: Bool = false) async throws {
        var r =
            v2
            ? World.problem(status, HTTPReason.text(status), reason)
            : SimResponse.error(status, code: 0, reason)
        r.headers.append(("Connection", "close"))
        _ = try await write(conn, r, now: Date(), keepAlive: false)
    }

    /// Answers a request; false when the connection must close after it.
    private func respond(_ conn: AsyncSocket, _ head: SimHTTPHead, _ body: Data, id: Int) async throws -> Bool {
        var path = head.target
        // An absolute-form target (a proxy's request) is read for its path.
        if path.hasPrefix("http://") || path.hasPrefix("https://"), let slash = path.dropFirst(8).firstIndex(of: "/") {
            path = String(path[slash...])
        }
        let query: String
        if let q = path.firstIndex(of: "?") {
            query = String(path[path.index(after: q)...])
            path = String(path[..<q])
        } else {
            query = ""
        }
        var headers: [String: String] = [:]
        for (k, v) in head.headers { headers[k] = v }
        let request = SimRequest(method: head.method.uppercased(), rawPath: path, rawQuery: query, headers: headers, body: body)
        let (response, now) = await handler(request)
        // Writing an answer has the request's deadline; a stream has none (it is meant to stay
        // open, and its reader may be slow).
        if case .stream = response.body { setDeadline(id, .infinity) } else { setDeadline(id, limits.requestSeconds) }
        return try await write(conn, response, now: now, keepAlive: head.keepAlive)
    }

    /// Writes an answer; false when the connection must close after it.
    private func write(_ conn: AsyncSocket, _ r: SimResponse, now: Date, keepAlive: Bool) async throws -> Bool {
        var head = "HTTP/1.1 \(r.status) \(HTTPReason.text(r.status))\r\n"
        var names = Set<String>()
        for (k, v) in r.headers {
            head += "\(k): \(v)\r\n"
            names.insert(k.lowercased())
        }
        if !names.contains("date") { head += "Date: \(SimDate.http(Int64(now.timeIntervalSince1970)))\r\n" }
        switch r.body {
        case .bytes(let data):
            head += "Content-Length: \(data.count)\r\n"
            if !keepAlive { head += "Connection: close\r\n" }
            head += "\r\n"
            try await conn.write(Data(head.utf8) + data)
            return keepAlive
        case .reset(let data, let keep):
            head += "Content-Length: \(data.count)\r\nConnection: close\r\n\r\n"
            try await conn.write(Data(head.utf8) + data.prefix(keep))
            return false
        case .stream(let frames):
            head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            try await conn.write(Data(head.utf8))
            for await frame in frames {
                // An empty frame asks for a drop: the connection closes without the last chunk.
                if frame.isEmpty { return false }
                try await conn.write(Data(String(frame.count, radix: 16).utf8) + Data("\r\n".utf8) + frame + Data("\r\n".utf8))
            }
            try await conn.write(Data("0\r\n\r\n".utf8))
            return false
        }
    }
}
