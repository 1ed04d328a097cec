import Foundation
import LinnetTestSupport
import Timeline
import TwitterAPI

/// A program's environment on a terminal of the bench's own, with its files kept in `dir`.
func homeEnvironment(_ dir: URL) -> [String: String] {
    [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": dir.path, "TERM": "xterm-256color",
        "LANG": "C.UTF-8", "XDG_CONFIG_HOME": dir.path + "/config", "XDG_CACHE_HOME": dir.path + "/cache",
        "XDG_STATE_HOME": dir.path + "/state",
    ]
}

/// What a person at the terminal feels, from real processes on pseudo-terminals of 160x50:
/// the reader (v1.1, streaming from `linnet sim` in another process, 100k tweets cached) idle
/// for a minute (the demo idle beside it), a selection move (as over ssh and as locally), 1,000
/// keys against `less` on the same text.
/// With `keysOnly` (TUIBENCH_ONLY=keys): the selection move and the key latencies alone.
func feelFigures(linnet: String, keysOnly: Bool = false) async throws {
    let dir = benchDirectory("linnet-feel")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let sim = try SimulatorProcess(linnet: linnet, arguments: ["--tweets-per-minute", "0"])
    defer { sim.stop() }
    let c = try JSONValue.parse(try await HTTPClient().send(HTTPRequest(method: "GET", url: sim.base + "/_sim/credentials")).body)
    var env = homeEnvironment(dir)
    let demoEnv = env
    for (k, v) in [
        ("CONSUMER_KEY", "consumer_key"), ("CONSUMER_SECRET", "consumer_secret"), ("ACCESS_TOKEN", "access_token"),
        ("ACCESS_TOKEN_SECRET", "access_token_secret"),
    ] {
        env["LINNET_" + k] = c[v]?.stringValue ?? ""
    }
    // The reader's cache, as the last session would have left it: 100k tweets in home.
    let uid = c["user_id"]?.stringValue ?? ""
    let tweets = makeTweets(cachedTweets)
    let cached = TimelineStore(cap: cachedTweets)
    await cached.merge(page: tweets, into: .home, request: PageRequest(count: cachedTweets))
    try TimelineCache(directory: TimelineCache.defaultDirectory(account: "id-\(uid)", environment: env), keepPerTimeline: cachedTweets)
        .save(await cached.snapshot())

    func started(_ environment: [String: String]) throws -> PtyProgram {
        let reader = PtyProgram([linnet, "--api", "v1.1", "--api-base", sim.base], environment: environment)
        reader.dump = ProcessInfo.processInfo.environment["TUIBENCH_DUMP"]
        guard reader.waitFor("streaming", seconds: 60) != nil else {
            reader.stop(quit: Array("q".utf8))
            throw DecodeError("the reader did not start streaming: \(String(decoding: reader.seen.suffix(2000), as: UTF8.self))")
        }
        reader.drain(quiet: 3000, most: 10_000)
        return reader
    }
    let reader = try started(env)
    // The demo idles beside the reader, each counting its own process's wakeups and its own
    // terminal's bytes: one minute of the bench, not two.
    var demoIdle: IdleRun?
    if !keysOnly {
        let demo = PtyProgram([linnet, "demo", "--tweets-per-minute", "0"], environment: demoEnv)
        demo.waitFor("streaming", seconds: 60)
        demo.drain(quiet: 3000, most: 10_000)
        demoIdle = IdleRun(demo)
    }
    demoIdle?.start()
    let (idleWakeups, idleBytes) = keysOnly ? (0, 0) : idle(reader)
    let (demoWakeups, demoBytes) = demoIdle?.wait() ?? (0, 0)
    demoIdle?.program.stop(quit: Array("q".utf8))
    let bandMoves = selectionMoves(reader)
    // less on the same text, a tweet a line, taking turns with the reader key by key.
    let text = dir.appendingPathComponent("tweets.txt")
    try Data(tweets.map { "@\($0.user.screenName): \($0.text)\n" }.joined().utf8).write(to: text)
    let less = PtyProgram(["/usr/bin/less", text.path], environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": dir.path])
    less.drain(quiet: 1000, most: 10_000)
    let (readerCPU, lessCPU, steal) = (reader.cpuMicroseconds, less.cpuMicroseconds, stealMilliseconds())
    let latencies = keyLatencies([reader, less], key: UInt8(ascii: "j"), count: 1000)
    let cpu = ((reader.cpuMicroseconds - readerCPU) / 1000, (less.cpuMicroseconds - lessCPU) / 1000)
    let keys = (reader: latencies[0], less: latencies[1], steal: stealMilliseconds() - steal)
    less.stop(quit: Array("q".utf8))
    reader.stop(quit: Array("q".utf8))

    // The same reader as a session over ssh draws it (`selection_band` left out: the bar
    // alone), after the first: a reader saves the timelines it holds as it quits, fewer than
    // the 100k cached, which the first one's keys need. A state of its own: it starts at the
    // top, not where the first one ended.
    var remote = env
    remote["SSH_CONNECTION"] = "127.0.0.1 50000 127.0.0.1 22"
    remote["XDG_STATE_HOME"] = dir.path + "/state-ssh"
    let overSSH = try started(remote)
    let barMoves = selectionMoves(overSSH)
    overSSH.stop(quit: Array("q".utf8))

    if keysOnly {
        keyFigures(moves: (barMoves, bandMoves), keys: keys, cpu: cpu)
        return
    }
    bench("tui_idle_wakeups_per_min", Double(idleWakeups), "wakeups", goal: .atMost(120))
    print("bench: tui_idle_wakeups_demo_per_min \(demoWakeups) wakeups")
    bench("tui_idle_bytes_per_min", Double(idleBytes), "bytes", goal: .atMost(120))
    print("bench: tui_idle_bytes_demo_per_min \(demoBytes) bytes")
    keyFigures(moves: (barMoves, bandMoves), keys: keys, cpu: cpu)
    // The remote shell starts in its home: the program by its whole path.
    try sshFigures(linnet: URL(fileURLWithPath: linnet).standardizedFileURL.path, dir: dir, text: text)
    firstFrameInstructions(linnet: linnet, text: text)
}

func keyFigures(
    moves: (bar: [Int], band: [Int]), keys: (reader: [Double], less: [Double], steal: Double), cpu: (reader: Double, less: Double)
) {
    // The reader as over ssh (the bar alone), and as on a local terminal (on its band).
    bench("tui_select_move_bytes_160x50", median(moves.bar.map(Double.init)), "bytes", goal: .atMost(400))
    print("bench: tui_select_move_bytes_band_160x50 \(Int(median(moves.band.map(Double.init)))) bytes")
    let r = p99(keys.reader)
    let l = p99(keys.less)
    print("bench: tui_key_latency_p99_us \(String(format: "%.0f", r)) us (\(keys.reader.count) keys)")
    print("bench: less_key_latency_p99_us \(String(format: "%.0f", l)) us (\(keys.less.count) keys)")
    print(
        "bench: tui_key_latency_median_us \(String(format: "%.0f", median(keys.reader))) us (less: \(String(format: "%.0f", median(keys.less))) us)"
    )
    bench("tui_key_latency_vs_less_ratio", r / l, "x", decimals: 2, goal: .atMost(1.5))
    // How busy the host was: what this guest's two CPUs waited on it over the keys' run,
    // quiet times between keys included (at the kernel's tick).
    print("bench: tui_key_steal_ms \(String(format: "%.0f", keys.steal)) ms (over the keys' run)")
    // What a key costs in CPU, all threads (the latency's steadier cause).
    print("bench: tui_key_cpu_us \(String(format: "%.0f", cpu.reader)) us (less: \(String(format: "%.0f", cpu.less)) us)")
}

/// Over ssh through a link of 100 ms round trip, 160x50: the demo with nothing arriving and
/// `less` on the same text, each from `ssh` to its first frame, then 200 keys.
func sshFigures(linnet: String, dir: URL, text: URL) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") else {
        print("ssh: no /usr/sbin/sshd (Debian's openssh-server); no figures over ssh")
        return
    }
    let linkDir = dir.appendingPathComponent("ssh")
    try FileManager.default.createDirectory(at: linkDir, withIntermediateDirectories: true)
    let link = try SlowLink(dir: linkDir, delay: 0.05)
    defer { link.stop() }
    let home = dir.path + "/ssh-home"
    let env = "env LANG=C.UTF-8 HOME=\(home) XDG_CONFIG_HOME=\(home)/config XDG_CACHE_HOME=\(home)/cache XDG_STATE_HOME=\(home)/state"
    let local = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": dir.path, "PATH": "/usr/bin:/bin"]
    // Both sessions open; first 20 moves' bytes each, read until the link is quiet; then 200
    // keys' latencies, taking turns.
    func keys(_ commands: [(command: String, marker: String)]) -> [(latencies: [Double], moves: [Int])]? {
        let sessions = commands.map { PtyProgram(link.ssh($0.command), environment: local) }
        defer { for p in sessions { p.stop(quit: Array("q".utf8)) } }
        for (p, c) in zip(sessions, commands) {
            guard p.waitFor(c.marker, seconds: 60) != nil else { return nil }
            p.drain(quiet: 2000, most: 10_000)
        }
        let moves = sessions.map { selectionMoves($0, quiet: 400) }
        return zip(keyLatencies(sessions, key: UInt8(ascii: "j"), count: 200, quiet: 30), moves).map { ($0, $1) }
    }
    let firstLine = (try String(contentsOf: text, encoding: .utf8)).prefix { $0 != "\n" }.prefix(12)
    // From the remote program's start (a mark the remote shell prints just before it) to its
    // first frame, both seen at this end: the connection's own set-up, which varies by tens of
    // milliseconds, is left out; a round trip the program waits for is in. The median of 5;
    // the terminal met for the first time (its answers waited for briefly) apart.
    func firstFrame(_ command: String, marker: String) -> Double? {
        let p = PtyProgram(link.ssh("printf '%s' '<<go>>'; exec \(command)"), environment: local)
        defer { p.stop(quit: Array("q".utf8)) }
        let at = p.waitForEach(["<<go>>", marker], seconds: 60)
        guard let go = at[0], let shown = at[1] else { return nil }
        p.drain(quiet: 1000, most: 5000)
        return seconds(shown - go) * 1000
    }
    let demoCommand = "\(env) \(linnet) demo --tweets-per-minute 0"
    let lessCommand = "\(env) less \(text.path)"
    let met = firstFrame(demoCommand, marker: "Home")
    // Taking turns, as the keys do.
    let firsts = (0..<5).map { _ in (firstFrame(demoCommand, marker: "Home"), firstFrame(lessCommand, marker: String(firstLine))) }
    let (demoFirsts, lessFirsts) = (firsts.compactMap(\.0), firsts.compactMap(\.1))
    guard let met, demoFirsts.count == 5, lessFirsts.count == 5,
        let both = keys([(demoCommand, "Home"), (lessCommand, String(firstLine))])
    else {
        print("ssh: a session did not show its first frame; no figures over ssh")
        return
    }
    let (demoFirst, lessFirst) = (median(demoFirsts), median(lessFirsts))
    print("bench: ssh_first_frame_first_time_ms \(String(format: "%.1f", met)) ms (a terminal never met)")
    let (demoKeys, lessKeys) = (both[0], both[1])
    print("bench: ssh_first_frame_ms \(String(format: "%.1f", demoFirst)) ms (less: \(String(format: "%.1f", lessFirst)) ms)")
    bench("ssh_first_frame_vs_less_ms", demoFirst - lessFirst, "ms", decimals: 1, goal: .atMost(10))
    // Through a real sshd, the demo's selection as its session draws it (the bar alone).
    print("bench: ssh_select_move_bytes_160x50 \(Int(median(demoKeys.moves.map(Double.init)))) bytes")
    print("bench: less_line_move_bytes_160x50 \(Int(median(lessKeys.moves.map(Double.init)))) bytes")
    let d = p99(demoKeys.latencies) / 1000
    let l = p99(lessKeys.latencies) / 1000
    print("bench: ssh_key_latency_p99_ms \(String(format: "%.1f", d)) ms (less: \(String(format: "%.1f", l)) ms)")
    bench("ssh_key_latency_vs_less_ms", d - l, "ms", decimals: 1, goal: .atMost(5))
}

/// The bytes of 20 selection moves (`j`), each read until the terminal is quiet.
func selectionMoves(_ p: PtyProgram, quiet: Int32 = 300) -> [Int] {
    (0..<20).map { _ in
        p.send(Array("j".utf8))
        return p.drain(quiet: quiet, most: 3000).bytes
    }
}

/// A program's idle minute on a thread of its own, read once the thread is done.
final class IdleRun: @unchecked Sendable {
    let program: PtyProgram
    private var result = (wakeups: 0, bytes: 0)
    private let done = DispatchSemaphore(value: 0)

    init(_ program: PtyProgram) { self.program = program }

    func start() {
        Thread {
            self.result = idle(self.program)
            self.done.signal()
        }.start()
    }

    func wait() -> (wakeups: Int, bytes: Int) {
        done.wait()
        return result
    }
}

/// Wake-ups (context switches of its threads) and bytes written by a program left alone for
/// a minute. A thread that ends within the minute takes its count with it; one that starts
/// counts whole.
func idle(_ p: PtyProgram) -> (wakeups: Int, bytes: Int) {
    let before = p.contextSwitches
    let bytes = p.drain(quiet: 60_000, most: 60_000).bytes
    let after = p.contextSwitches
    return (after.reduce(0) { $0 + max(0, $1.value - (before[$1.key] ?? 0)) }, bytes)
}
