import Foundation
import Locking
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP server that answers every request with bytes a test scripts, however wrong:
/// absurd headers, endless or slow bodies, broken framing. Kept apart from the simulator so a
/// test can send what no real server would. Each connection runs on its own thread.
public final class HostileServer: @unchecked Sendable {
    /// One step of an answer.
    public enum Step: Sendable {
        case send(Data)
        case text(String)
        case pause(Double)
        /// Sends `block` again and again until the client goes away or `limit` bytes are out.
        case flood(Data, limit: Int)
        /// Closes the connection (the end of a body sent without a length).
        case close
    }

    public let port: UInt16
    private let listenFD: Int32
    private let script: @Sendable (String) -> [Step]
    private let stopped = Atomic<Bool>(false)
    private let counters = Locked<(requests: Int, sent: Int)>((0, 0))

    /// Requests seen so far, and bytes sent.
    public var requests: Int { counters.withLock { $0.requests } }
    public var bytesSent: Int { counters.withLock { $0.sent } }

    /// Starts listening on a free loopback port; `script` gets the request head.
    public init(script: @escaping @Sendable (String) -> [Step]) throws {
        self.script = script
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTP.Failure(description: "socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw RawHTTP.Failure(description: "bind/listen: errno \(errno)")
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = UInt16(bigEndian: addr.sin_port)
        listenFD = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting; connections being answered end at their next write.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(listenFD, Int32(SHUT_RDWR))
        close(listenFD)
    }

    /// The base URL to give a client.
    public var base: String { "http://127.0.0.1:\(port)" }

    private func acceptLoop() {
        while !stopped.load(ordering: .acquiring) {
            let c = accept(listenFD, nil, nil)
            if c < 0 { if errno == EINTR { continue } else { return } }
            let t = Thread { [self] in serve(c) }
            t.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        while true {
            guard let head = readHead(fd) else { return }
            counters.withLock { $0.requests += 1 }
            for step in script(head) {
                if stopped.load(ordering: .acquiring) { return }
                switch step {
                case .send(let d): if !write(fd, d) { return }
                case .text(let s): if !write(fd, Data(s.utf8)) { return }
                case .pause(let s): Thread.sleep(forTimeInterval: s)
                case .close: return
                case .flood(let block, let limit):
                    var out = 0
                    while out < limit {
                        if stopped.load(ordering: .acquiring) || !write(fd, block) { return }
                        out += block.count
                    }
                }
            }
        }
    }

    /// The request head, and a body of `Content-Length` bytes read and dropped.
    private func readHead(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var b = [UInt8](repeating: 0, count: 4096)
        while RawHTTP.findHeaderEnd(bytes) == nil {
            let n = read(fd, &b, b.count)
            if n <= 0 || bytes.count > 1 << 20 { return nil }
            bytes += b[0..<n]
        }
        let end = RawHTTP.findHeaderEnd(bytes)!
        let head = String(decoding: bytes[0..<end], as: UTF8.self)
        var have = bytes.count - end - 4
        let length =
            head.lowercased().components(separatedBy: "\r\n")
            .first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
        while have < length {
            let n = read(fd, &b, min(b.count, length - have))
            if n <= 0 { return nil }
            have += n
        }
        return head
    }

    private func write(_ fd: Int32, _ data: Data) -> Bool {
        let ok = data.withUnsafeBytes { raw -> Bool in
            var off = 0
            while off < raw.count {
                let n = send(fd, raw.baseAddress! + off, raw.count - off, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                off += n
            }
            return true
        }
        if ok { counters.withLock { $0.sent += data.count } }
        return ok
    }

    /// A complete answer with a body and extra header lines.
    public static func answer(status: Int = 200, headers: [String] = [], body: String) -> [Step] {
        var head = "HTTP/1.1 \(status) X\r\nContent-Length: \(body.utf8.count)\r\n"
        for h in headers { head += h + "\r\n" }
        return [.text(head + "\r\n" + body)]
    }
}
