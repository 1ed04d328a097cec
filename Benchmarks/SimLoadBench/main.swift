// Load on the simulator from a second process: signed REST requests per second over keep-alive
// connections, and how many concurrent streams it keeps fed with keep-alives.
// Prints `bench: <name> <value> <unit>` lines.
import Foundation
import Glibc
import LinnetTestSupport
import Spawn
import TwitterAPI

let linnet = CommandLine.arguments.dropFirst().first ?? ".build/release/linnet"
let duration = 5.0
let workers = Int(ProcessInfo.processInfo.environment["SIM_BENCH_WORKERS"] ?? "") ?? 16
let streamCounts = [100, 250]

// MARK: - `linnet sim` in its own process

let sim: SimulatorProcess
do {
    sim = try SimulatorProcess(linnet: linnet, arguments: ["--tweets-per-minute", "0", "--keep-alive", "1", "--users", "20"])
} catch {
    print(error)
    exit(1)
}
let base = sim.base
guard let port = sim.port else {
    print("simulator did not start: \(base)")
    sim.stop()
    exit(1)
}

// `SimLoadBench <linnet> --soak`: only the memory soak (make soak-memory).
if CommandLine.arguments.contains("--soak") {
    let env = ProcessInfo.processInfo.environment
    memorySoak(
        base: base, count: Int(env["SOAK_TWEETS"] ?? "") ?? 1_000_000, perSecond: Int(env["SOAK_RATE"] ?? "") ?? 5_000)
    sim.stop()
    exit(0)
}

// MARK: - A keep-alive HTTP/1.1 connection

final class Conn {
    let fd: Int32
    let port: UInt16
    var buffer: [UInt8] = []

    init(port: UInt16) {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    func send(_ s: String) {
        let b = Array(s.utf8)
        var sent = 0
        while sent < b.count {
            let n = b[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// One request and its answer (status and body); the connection stays open.
    func call(_ method: String, _ target: String, auth: String, form: String = "") -> (Int, String)? {
        var req = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: \(auth)\r\n"
        if method == "POST" { req += "Content-Type: application/x-www-form-urlencoded\r\n" }
        send(req + "Content-Length: \(form.utf8.count)\r\n\r\n" + form)
        while true {
            if let end = headerEnd() {
                let head = String(decoding: buffer[0..<end], as: UTF8.self).lowercased()
                let status = Int(head.split(separator: " ")[1]) ?? 0
                let length =
                    head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                if buffer.count >= end + 4 + length {
                    let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                    buffer.removeFirst(end + 4 + length)
                    return (status, body)
                }
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    deinit { close(fd) }
}

// MARK: - One token per worker (via xAuth), so each has its own rate-limit windows

let setup = Conn(port: port)
guard let (_, credsText) = setup.call("GET", "/_sim/credentials", auth: "none"),
    let creds = try? JSONValue.parse(Data(credsText.utf8))
else {
    print("cannot read the simulator's credentials")
    sim.stop()
    exit(1)
}
let xauth = OAuthCredentials(
    consumerKey: creds["xauth_consumer_key"]?.stringValue ?? "", consumerSecret: creds["xauth_consumer_secret"]?.stringValue ?? "")
let login = [("x_auth_username", "linnet_demo"), ("x_auth_password", creds["password"]?.stringValue ?? ""), ("x_auth_mode", "client_auth")]
var tokens: [OAuthCredentials] = []
for _ in 0..<workers {
    let auth = try OAuth1Signer().authorizationHeader(
        method: "POST", url: base + "/oauth/access_token", formParameters: login, credentials: xauth)
    guard let (status, body) = setup.call("POST", "/oauth/access_token", auth: auth, form: PercentEncoding.formEncode(login)), status == 200
    else {
        print("xAuth login failed")
        sim.stop()
        exit(1)
    }
    let pairs = Dictionary(uniqueKeysWithValues: PercentEncoding.parseForm(body))
    tokens.append(
        OAuthCredentials(
            consumerKey: xauth.consumerKey, consumerSecret: xauth.consumerSecret, token: pairs["oauth_token"],
            tokenSecret: pairs["oauth_token_secret"]))
}
guard let (_, homeText) = setup.call("GET", "/_sim/timeline?name=all", auth: "none"),
    case .array(let allIDs)? = try JSONValue.parse(Data(homeText.utf8))["ids"], let someID = allIDs.first?.stringValue
else { exit(1) }

// MARK: - Signed requests per second

final class Counter: @unchecked Sendable {
    let lock = NSLock()
    var ok = 0, limited = 0, other = 0
    func add(ok o: Int, limited l: Int, other x: Int) {
        lock.lock()
        ok += o
        limited += l
        other += x
        lock.unlock()
    }
}
let counter = Counter()
let deadline = Date().addingTimeInterval(duration)
let group = DispatchGroup()
for w in 0..<workers {
    let creds = tokens[w]
    Thread {
        group.enter()
        let conn = Conn(port: port)
        let signer = OAuth1Signer()
        var ok = 0
        var limited = 0
        var other = 0
        let target = "/1.1/statuses/show/\(someID).json"
        while Date() < deadline {
            guard let auth = try? signer.authorizationHeader(method: "GET", url: base + target, credentials: creds),
                let (status, _) = conn.call("GET", target, auth: auth)
            else { break }
            switch status {
            case 200: ok += 1
            case 429: limited += 1
            default: other += 1
            }
        }
        counter.add(ok: ok, limited: limited, other: other)
        group.leave()
    }.start()
}
Thread.sleep(forTimeInterval: 0.2)
group.wait()
// A 429 is answered after the signature is verified, so it counts as served; the 200s alone are
// capped by the windows (16 tokens x 900 per 15 minutes) and say nothing about speed.
print(
    "signed GET statuses/show: \(counter.ok) answered 200, \(counter.limited) 429 (a token's window spent), \(counter.other) other, \(workers) keep-alive connections, \(Int(duration)) s"
)
print("bench: sim_signed_requests_per_s \(Int(Double(counter.ok + counter.limited) / duration)) req/s")
print("bench: sim_signed_requests_200_per_s \(Int(Double(counter.ok) / duration)) req/s")

// MARK: - Concurrent streams kept fed

for count in streamCounts {
    var fds: [Int32] = []
    for i in 0..<count {
        let c = tokens[i % tokens.count]
        let target = "/1.1/statuses/sample.json?delimited=length"
        guard let auth = try? OAuth1Signer().authorizationHeader(method: "GET", url: base + target, credentials: c) else { continue }
        let conn = Conn(port: port)
        conn.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: \(auth)\r\n\r\n")
        fds.append(dup(conn.fd))
    }
    // Count keep-alive bytes per stream for 3.5 s (keep-alive every 1 s).
    var received = [Int](repeating: 0, count: fds.count)
    var newlines = [Int](repeating: 0, count: fds.count)
    let end = Date().addingTimeInterval(3.5)
    var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    while Date() < end {
        guard poll(&pfds, nfds_t(pfds.count), 200) > 0 else { continue }
        for i in pfds.indices where pfds[i].revents & Int16(POLLIN) != 0 {
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = recv(pfds[i].fd, &buf, buf.count, 0)
            if n > 0 {
                received[i] += n
                newlines[i] += buf[0..<n].filter { $0 == 10 }.count
            } else {
                pfds[i].fd = -1
            }
        }
    }
    // Headers, then at least two keep-alive chunks ("\r\n" inside chunk framing).
    let fed = zip(received, newlines).filter { $0.0 > 0 && $0.1 >= 12 }.count
    print("streams: \(count) opened, \(fed) received headers and at least 2 keep-alives in 3.5 s")
    print("bench: sim_streams_fed_of_\(count) \(fed) streams")
    for fd in fds { close(fd) }
    Thread.sleep(forTimeInterval: 0.5)
}
// MARK: - Stream ingest over loopback: libcurl, framer and decoder vs decoding alone

final class Ingest: @unchecked Sendable {
    var bodies: [[UInt8]] = []
    var tweets = 0
    var bytes = 0
    var seconds = 0.0
}

/// One pass: the firehose through libcurl, the framer and the decoder.
func ingestOnce(keepBodies: Bool) -> Ingest {
    let ingest = Ingest()
    let done = DispatchSemaphore(value: 0)
    // Detached: top-level code runs on the main actor, which `done.wait()` below keeps busy.
    Task.detached {
        let http = HTTPClient()
        let decoder = V1Decoder()
        var framer = StreamFramer(framing: .delimited)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            var request = HTTPRequest(method: "GET", url: base + "/_sim/firehose?count=\(firehoseCount)")
            request.receiveBufferBytes = 256 * 1024  // as TwitterClient.stream sets it
            for try await part in http.stream(request) {
                guard case .bytes(let b) = part else { continue }
                ingest.bytes += b.count
                for event in framer.feed(b) {
                    guard case .message(let m) = event else { continue }
                    if case .tweet = try decoder.streamMessage(bytes: m) { ingest.tweets += 1 }
                    if keepBodies { ingest.bodies.append(Array(m)) }
                }
            }
        } catch {
            print("ingest failed: \(error)")
        }
        let d = clock.now - start
        ingest.seconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        done.signal()
    }
    done.wait()
    return ingest
}

let firehoseCount = 100_000
// Best of three on both sides, as DecodeBench does.
let runs = (0..<3).map { ingestOnce(keepBodies: $0 == 0) }
let best = runs.min { $0.seconds < $1.seconds }!
let networkRate = Double(best.tweets) / best.seconds
print(
    "ingest: \(best.tweets) tweets, \(best.bytes) bytes over loopback in \(String(format: "%.2f", best.seconds)) s, best of 3 (libcurl, framer, decoder)"
)
print("bench: stream_ingest_tweets_per_s \(Int(networkRate)) tweets/s")
print("bench: stream_ingest_mb_per_s \(String(format: "%.1f", Double(best.bytes) / best.seconds / 1e6)) MB/s")
var decodeSeconds = Double.infinity
var decoded = 0
for _ in 0..<3 {
    let decoder = V1Decoder()
    let start = ContinuousClock.now
    decoded = 0
    for body in runs[0].bodies { if case .tweet = try decoder.streamMessage(bytes: body) { decoded += 1 } }
    let d = ContinuousClock.now - start
    decodeSeconds = min(decodeSeconds, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
}
let decodeRate = Double(decoded) / decodeSeconds
print("bench: stream_decode_only_tweets_per_s \(Int(decodeRate)) tweets/s")
print(
    "bench: stream_network_ingest_vs_decode_only_ratio \(String(format: "%.2f", networkRate / decodeRate)) x (libcurl over loopback, the simulator on the same cores)"
)

sim.stop()
