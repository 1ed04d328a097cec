import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A deliberately small HTTP/1.1 client over a plain TCP socket, for tests that must see the
/// exact bytes a server sends (chunking, stream framing, keep-alives) and that must not depend on
/// the client under test. Blocking I/O runs on its own thread, never on the concurrency pool.
public enum RawHTTP {
    /// A complete answer.
    public struct Response: Sendable {
        public var status: Int
        /// Header names lower-cased.
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// What went wrong at the socket level.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// How long a test waits for an answer by default: long enough for a simulator that shares
    /// two cores with hundreds of tests under a sanitizer (several times slower), and still a
    /// bound; a test that means a deadline passes its own.
    public static let defaultTimeout: Double = 60

    /// Sends one request (with `Connection: close`) and reads the whole answer.
    public static func send(
        port: UInt16, method: String, target: String, headers: [(String, String)] = [], body: Data = Data(),
        timeout: Double = defaultTimeout
    ) async throws -> Response {
        try await onThread {
            let conn = try Connection(port: port, timeout: timeout)
            defer { conn.close() }
            try conn.write(request(method: method, target: target, port: port, headers: headers, body: body))
            var data = Data()
            while let chunk = try conn.read() { data.append(contentsOf: chunk) }
            return try parse(data)
        }
    }

    static func request(method: String, target: String, port: UInt16, headers: [(String, String)], body: Data) -> Data {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: 127.0.0.1:\(port)\r\n" }
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Data(head.utf8) + body
    }

    /// Splits status, headers and body, undoing chunked transfer encoding.
    public static func parse(_ data: Data) throws -> Response {
        let bytes = [UInt8](data)
        guard let end = findHeaderEnd(bytes) else { throw Failure(description: "no complete header in \(bytes.count) bytes") }
        let head = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(head[0])") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body).0 }
        return Response(status: status, headers: headers, body: Data(body))
    }

    static func findHeaderEnd(_ b: [UInt8]) -> Int? {
        guard b.count >= 4 else { return nil }
        for i in 0...(b.count - 4) where b[i] == 13 && b[i + 1] == 10 && b[i + 2] == 13 && b[i + 3] == 10 { return i }
        return nil
    }

    /// Decodes as many complete chunks as there are; returns the payload and whether the final
    /// zero-length chunk was seen.
    public static func dechunk(_ b: [UInt8]) -> ([UInt8], Bool) {
        var out: [UInt8] = []
        var i = 0
        while i < b.count {
            var j = i
            while j + 1 < b.count, !(b[j] == 13 && b[j + 1] == 10) { j += 1 }
            guard j + 1 < b.count, let size = Int(String(decoding: b[i..<j], as: UTF8.self), radix: 16) else { break }
            if size == 0 { return (out, true) }
            let start = j + 2
            guard start + size <= b.count else { break }
            out += b[start..<(start + size)]
            i = start + size + 2
        }
        return (out, false)
    }

    /// An open streaming response: read its decoded payload as it arrives.
    public final class Stream: @unchecked Sendable {
        let conn: Connection
        public private(set) var status = 0
        public private(set) var headers: [String: String] = [:]
        private var raw: [UInt8] = []
        private var headerEnd: Int?
        /// True once the server closed the connection.
        public private(set) var closed = false
        /// True when the server ended the body properly (last chunk).
        public private(set) var finished = false

        init(conn: Connection) { self.conn = conn }

        /// The decoded body received so far.
        public var payload: [UInt8] {
            guard let e = headerEnd else { return [] }
            return RawHTTP.dechunk(Array(raw[(e + 4)...])).0
        }

        /// Reads until `done(payload)` holds, the server closes, or `timeout` passes.
        public func read(until done: @escaping @Sendable ([UInt8]) -> Bool, timeout: Double) async throws -> [UInt8] {
            try await RawHTTP.onThread { [self] in
                let deadline = Date().addingTimeInterval(timeout)
                while !closed {
                    if headerEnd != nil, done(payload) { break }
                    let left = deadline.timeIntervalSinceNow
                    if left <= 0 { break }
                    guard let chunk = try conn.read(timeout: min(left, 0.5), allowTimeout: true) else {
                        closed = true
                        break
                    }
                    raw += chunk
                    if headerEnd == nil, let e = RawHTTP.findHeaderEnd(raw) {
                        headerEnd = e
                        let parsed = try RawHTTP.parse(Data(raw[0..<(e + 4)]))
                        status = parsed.status
                        headers = parsed.headers
                    }
                    if let e = headerEnd { finished = RawHTTP.dechunk(Array(raw[(e + 4)...])).1 }
                }
                return payload
            }
        }

        public func close() { conn.close() }
    }

    /// Opens a request whose answer is read bit by bit (streams).
    public static func open(
        port: UInt16, method: String, target: String, headers: [(String, String)] = [], body: Data = Data()
    ) async throws -> Stream {
        try await onThread {
            let conn = try Connection(port: port, timeout: defaultTimeout)
            try conn.write(request(method: method, target: target, port: port, headers: headers, body: body))
            return Stream(conn: conn)
        }
    }

    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, Error>) in
            let t = Thread {
                do { c.resume(returning: try work()) } catch { c.resume(throwing: error) }
            }
            t.start()
        }
    }
}

/// A blocking TCP connection to 127.0.0.1.
final class Connection: @unchecked Sendable {
    private var fd: Int32
    private let timeout: Double

    init(port: UInt16, timeout: Double) throws {
        self.timeout = timeout
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTP.Failure(description: "socket() failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else {
            Glibc.close(fd)
            throw RawHTTP.Failure(description: "cannot connect to 127.0.0.1:\(port)")
        }
    }

    func write(_ data: Data) throws {
        var sent = 0
        let bytes = [UInt8](data)
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RawHTTP.Failure(description: "send failed") }
            sent += n
        }
    }

    /// Next bytes; nil at end of stream. Throws on timeout unless `allowTimeout`, which returns [].
    func read(timeout: Double? = nil, allowTimeout: Bool = false) throws -> [UInt8]? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = Int32((timeout ?? self.timeout) * 1000)
        let r = poll(&p, 1, ms)
        if r == 0 {
            if allowTimeout { return [] }
            throw RawHTTP.Failure(description: "timed out waiting for the server")
        }
        var buf = [UInt8](repeating: 0, count: 65_536)
        let n = recv(fd, &buf, buf.count, 0)
        if n <= 0 { return nil }
        return Array(buf[0..<n])
    }

    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }
}
