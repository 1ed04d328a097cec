import Foundation
import Spawn

/// OpenSSH's sshd on loopback, reached through a proxy that holds every byte `delay` seconds
/// each way (where `tc netem` is not to be had): a person reading over ssh from far away.
final class SlowLink {
    let dir: URL
    private var sshd: ChildProcess?
    private(set) var port: UInt16 = 0
    private var listener: Int32 = -1
    private var madeRunDir = false

    init(dir: URL, delay: Double) throws {
        self.dir = dir
        let key = dir.appendingPathComponent("id").path
        let hostKey = dir.appendingPathComponent("host_key").path
        for k in [key, hostKey] { try Self.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", k]) }
        try FileManager.default.copyItem(atPath: key + ".pub", toPath: dir.appendingPathComponent("authorized_keys").path)
        // sshd wants its privilege separation folder; made here only if missing, and removed after.
        if !FileManager.default.fileExists(atPath: "/run/sshd") {
            try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
            madeRunDir = true
        }
        let sshdPort = try Self.freePort()
        let config = dir.appendingPathComponent("sshd_config")
        try """
        Port \(sshdPort)
        ListenAddress 127.0.0.1
        HostKey \(hostKey)
        AuthorizedKeysFile \(dir.path)/authorized_keys
        PermitRootLogin yes
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        UsePAM no
        StrictModes no
        PrintMotd no
        PrintLastLog no
        PidFile \(dir.path)/sshd.pid

        """.write(to: config, atomically: true, encoding: .utf8)
        do {
            try start(config: config.path, delay: delay, sshdPort: sshdPort)
        } catch {
            stop()
            throw error
        }
    }

    private func start(config: String, delay: Double, sshdPort: UInt16) throws {
        sshd = try ChildProcess("/usr/sbin/sshd", ["-D", "-e", "-f", config], stdout: .null, stderr: .null)
        listener = try Self.listen()
        port = Self.localPort(listener)
        let l = listener
        Thread { Self.accept(l, to: sshdPort, delay: delay) }.start()
        // Ready when sshd answers with its banner.
        for _ in 0..<100 {
            if let s = try? Self.connect(sshdPort) {
                var b = [UInt8](repeating: 0, count: 4)
                let n = read(s, &b, 4)
                close(s)
                if n == 4 { return }
            }
            usleep(50_000)
        }
        throw LinkFailure("sshd did not start on port \(sshdPort)")
    }

    /// `ssh` to this machine as the current user through the slow link, with a terminal, running `command`.
    func ssh(_ command: String) -> [String] {
        [
            "/usr/bin/ssh", "-tt", "-q", "-p", String(port), "-i", dir.appendingPathComponent("id").path, "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "\(NSUserName())@127.0.0.1", command,
        ]
    }

    func stop() {
        sshd?.send(SIGTERM)
        _ = sshd?.wait()
        sshd = nil
        if listener >= 0 {
            // Shut down first: the thread waiting in accept() returns then.
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            listener = -1
        }
        if madeRunDir { try? FileManager.default.removeItem(atPath: "/run/sshd") }
    }

    // MARK: - Sockets

    private static func run(_ exe: String, _ args: [String]) throws {
        guard try ChildProcess.run(exe, args, stderr: .null).status == 0 else { throw LinkFailure("\(exe) failed") }
    }

    private static func address(_ port: UInt16) -> sockaddr_in {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        return a
    }

    private static func listen() throws -> Int32 {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = address(0)
        let bound = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard s >= 0, bound == 0, Glibc.listen(s, 8) == 0 else { throw LinkFailure("cannot listen on loopback") }
        return s
    }

    private static func localPort(_ s: Int32) -> UInt16 {
        var a = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &len) } }
        return UInt16(bigEndian: a.sin_port)
    }

    private static func freePort() throws -> UInt16 {
        let s = try listen()
        defer { close(s) }
        return localPort(s)
    }

    private static func connect(_ port: UInt16) throws -> Int32 {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = address(port)
        let ok = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else {
            close(s)
            throw LinkFailure("cannot connect to \(port)")
        }
        noDelay(s)
        return s
    }

    private static func noDelay(_ s: Int32) {
        var one: Int32 = 1
        setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func accept(_ listener: Int32, to port: UInt16, delay: Double) {
        while true {
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else { return }
            noDelay(client)
            guard let server = try? connect(port) else {
                close(client)
                continue
            }
            pump(from: client, to: server, delay: delay)
            pump(from: server, to: client, delay: delay)
        }
    }

    /// Bytes from one socket to the other, each piece sent `delay` seconds after it came.
    private static func pump(from: Int32, to: Int32, delay: Double) {
        let line = Line()
        Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(from, &buffer, buffer.count)
                line.put(n > 0 ? (Date().addingTimeInterval(delay), Array(buffer[0..<n])) : nil)
                if n <= 0 { return }
            }
        }.start()
        Thread {
            while let (due, bytes) = line.take() {
                let wait = due.timeIntervalSinceNow
                if wait > 0 { usleep(useconds_t(wait * 1e6)) }
                var at = 0
                while at < bytes.count {
                    let n = bytes[at...].withUnsafeBytes { write(to, $0.baseAddress, $0.count) }
                    if n <= 0 { return }
                    at += n
                }
            }
            shutdown(to, Int32(SHUT_WR))
        }.start()
    }

    /// Pieces in flight one way, in order; nil put once the sender has ended.
    private final class Line: @unchecked Sendable {
        private let condition = NSCondition()
        private var pieces: [(Date, [UInt8])] = []
        private var ended = false

        func put(_ piece: (Date, [UInt8])?) {
            condition.lock()
            if let piece { pieces.append(piece) } else { ended = true }
            condition.signal()
            condition.unlock()
        }

        func take() -> (Date, [UInt8])? {
            condition.lock()
            defer { condition.unlock() }
            while pieces.isEmpty && !ended { condition.wait() }
            return pieces.isEmpty ? nil : pieces.removeFirst()
        }
    }
}

struct LinkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
