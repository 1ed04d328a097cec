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
            if keep { seen += buffer[0..<n] }
        }
        return (total, last)
    }

    /// Reads until `text` has been written, for up to `seconds`.
    func waitFor(_ text: String, seconds: Double) -> Bool {
        let was = keep
        keep = true
        defer { keep = was }
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < end {
            drain(quiet: 100, most: 200)
            if String(decoding: seen, as: UTF8.self).contains(text) { return true }
        }
        return false
    }

    func send(_ bytes: [UInt8]) {
        var at = 0
        while at < bytes.count {
            let n = bytes[at...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            at += n
        }
    }

    /// Context switches of every thread of the program so far (voluntary ones are its
    /// wake-ups; the others, preemptions, are counted too).
    var contextSwitches: Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, tid in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8) else { return sum }
            return status.split(separator: "\n").reduce(sum) { s, line in
                guard line.contains("ctxt_switches:") else { return s }
                return s + (Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0)
            }
        }
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

/// The 99th percentile of some figures.
func p99(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.isEmpty ? .nan : s[min(s.count - 1, Int((Double(s.count - 1) * 0.99).rounded()))]
}

/// Microseconds from `key` written to the last byte of the frame it brings, `count` times;
/// a frame has ended when nothing more comes for `quiet` milliseconds.
func keyLatencies(_ p: PtyProgram, key: UInt8, count: Int, quiet: Int32 = 40) -> [Double] {
    var out: [Double] = []
    for _ in 0..<count {
        let t0 = ContinuousClock.now
        p.send([key])
        if let last = p.drain(quiet: quiet, most: 2000).last { out.append(seconds(last - t0) * 1e6) }
    }
    return out
}
