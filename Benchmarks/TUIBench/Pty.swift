import CPty
import Foundation

/// A program on a pseudo-terminal of its own, as a person's terminal runs it: keys written to
/// the master end, the frames read back from it.
final class PtyProgram {
    let pid: pid_t
    let master: Int32
    /// Every byte read, when `keep` is set.
    var seen: [UInt8] = []
    var keep = false

    init(_ argv: [String], environment: [String: String], rows: Int = 50, cols: Int = 160) {
        let args = argv.map { strdup($0) } + [nil]
        let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in args + env { free(p) } }
        var m: Int32 = -1
        pid = args.withUnsafeBufferPointer { a in
            env.withUnsafeBufferPointer { cpty_spawn_env(&m, Int32(rows), Int32(cols), a.baseAddress, $0.baseAddress) }
        }
        guard pid > 0 else { fatalError("forkpty failed for \(argv[0])") }
        master = m
    }

    /// Reads until nothing comes for `quiet` milliseconds or `most` milliseconds have passed;
    /// the bytes read and when the last of them came.
    @discardableResult
    func drain(quiet: Int32, most: Int = 600_000) -> (bytes: Int, last: ContinuousClock.Instant?) {
        let start = ContinuousClock.now
        var total = 0
        var last: ContinuousClock.Instant?
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = most - Int(seconds(ContinuousClock.now - start) * 1000)
            guard left > 0 else { break }
            var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, min(quiet, Int32(clamping: left))) > 0 else { break }
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { break }
            last = ContinuousClock.now
            total += n
            took(buffer[0..<n])
            if keep { seen += buffer[0..<n] }
        }
        return (total, last)
    }

    /// Whether something comes to read within `milliseconds`.
    func readable(within milliseconds: Int32) -> Bool {
        var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, milliseconds) > 0
    }

    /// Reads until `text` has been written, for up to `seconds`; when the read that completed
    /// it came (nil if it never did).
    @discardableResult
    func waitFor(_ text: String, seconds: Double) -> ContinuousClock.Instant? {
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < end {
            var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 50) > 0 else { continue }
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { return nil }
            took(buffer[0..<n])
            seen += buffer[0..<n]
            if String(decoding: seen.suffix(n + text.utf8.count), as: UTF8.self).contains(text) { return .now }
        }
        return nil
    }

    /// Reads until each of `texts` has been written, in order, for up to `seconds`: when the
    /// read that completed each came (nil from the first that never did).
    func waitForEach(_ texts: [String], seconds: Double) -> [ContinuousClock.Instant?] {
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var buffer = [UInt8](repeating: 0, count: 65536)
        var all: [UInt8] = []
        var found: [ContinuousClock.Instant?] = []
        var from = 0
        while found.count < texts.count, ContinuousClock.now < end {
            var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 50) > 0 else { continue }
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { break }
            let now = ContinuousClock.now
            took(buffer[0..<n])
            all += buffer[0..<n]
            // Several may complete in one read.
            while found.count < texts.count, let r = all[from...].firstRange(of: Array(texts[found.count].utf8)) {
                found.append(now)
                from = r.upperBound
            }
        }
        return found + Array(repeating: nil, count: texts.count - found.count)
    }

    /// A file every read is appended to, each followed by a `<<<CHUNK>>>` line (TUIBENCH_DUMP).
    var dump: String?

    private func took(_ chunk: ArraySlice<UInt8>) {
        answer(chunk)
        guard let dump else { return }
        if !FileManager.default.fileExists(atPath: dump) { _ = FileManager.default.createFile(atPath: dump, contents: nil) }
        guard let h = FileHandle(forWritingAtPath: dump) else { return }
        h.seekToEndOfFile()
        h.write(Data(chunk) + Data("\n<<<CHUNK>>>\n".utf8))
        h.closeFile()
    }

    /// The end of the last read, for a question split between reads.
    private var tail: [UInt8] = []

    /// Answers the primary device attributes question (CSI c) as a VT220 without graphics
    /// does, as every terminal answers it: a program that asks waits for the answer (Linnet's
    /// start-up question ends with it) and must not wait for a time-out here.
    private func answer(_ chunk: ArraySlice<UInt8>) {
        let bytes = tail + chunk
        let question: [UInt8] = [0x1B, 0x5B, 0x63]
        var i = 0
        while i + 3 <= bytes.count {
            if bytes[i] == 0x1B, bytes[i + 1] == 0x5B, bytes[i + 2] == 0x63 { send(Array("\u{1B}[?62;22c".utf8)) }
            i += 1
        }
        tail = Array(bytes.suffix(question.count - 1))
    }

    func send(_ bytes: [UInt8]) {
        var at = 0
        while at < bytes.count {
            let n = bytes[at...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            at += n
        }
    }

    /// Context switches of each thread of the program so far, by thread id (voluntary ones are
    /// its wake-ups; the others, preemptions, are counted too).
    var contextSwitches: [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var out: [String: Int] = [:]
        for tid in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8) else { continue }
            out[tid] = status.split(separator: "\n").reduce(0) { s, line in
                guard line.contains("ctxt_switches:") else { return s }
                return s + (Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0)
            }
        }
        return out
    }

    /// CPU time the program has used so far (user and system, all threads), in microseconds:
    /// steadier than latencies on a busy machine, at the kernel's tick (10 ms) of resolution.
    var cpuMicroseconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return .nan }
        // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let u = Double(fields[11]), let k = Double(fields[12]) else { return .nan }
        return (u + k) * 1e6 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Sends `quit`, reads what the program writes while it ends, and waits for it (killed
    /// after five seconds).
    func stop(quit: [UInt8]) {
        send(quit)
        for _ in 0..<50 {
            drain(quiet: 100, most: 100)
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                close(master)
                return
            }
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
    }
}

/// The middle of some figures (NaN for none).
func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }

/// The 99th percentile of some figures.
func p99(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.isEmpty ? .nan : s[min(s.count - 1, Int((Double(s.count - 1) * 0.99).rounded()))]
}

/// Microseconds from `key` written to the last byte of the frame it brings, `count` times for
/// each program, taking turns key by key (each first in every other round): a stretch when this
/// machine is slow (its virtual CPUs kept waiting by the host, "steal" in /proc/stat) falls on
/// each alike, and so does what one is still doing after its frame. A frame has ended when
/// nothing more comes for `quiet` milliseconds (a frame comes in one write, or a few at once).
func keyLatencies(_ programs: [PtyProgram], key: UInt8, count: Int, quiet: Int32 = 25) -> [[Double]] {
    var out = Array(repeating: [Double](), count: programs.count)
    for round in 0..<count {
        for i in round % 2 == 0 ? Array(programs.indices) : programs.indices.reversed() {
            let p = programs[i]
            // Anything late from the last key is read first, not counted against this one.
            p.drain(quiet: 0, most: 50)
            let t0 = ContinuousClock.now
            p.send([key])
            // The first byte waited for up to 2 s (over a slow link, longer than `quiet`: its
            // frame would be counted against the next key).
            guard p.readable(within: 2000), let last = p.drain(quiet: quiet, most: 2000).last else { continue }
            out[i].append(seconds(last - t0) * 1e6)
        }
    }
    return out
}

/// Milliseconds this machine's CPUs have waited on the host so far, all CPUs ("steal" in
/// /proc/stat, at the kernel's tick): how busy the host was, beside a latency.
func stealMilliseconds() -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return .nan }
    // "cpu  user nice system idle iowait irq softirq steal ...": the eighth figure.
    let fields = stat.prefix { $0 != "\n" }.split(separator: " ")
    guard fields.count > 8, let ticks = Double(fields[8]) else { return .nan }
    return ticks * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}
