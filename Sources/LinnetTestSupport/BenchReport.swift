import Foundation
import Locking
import Spawn

/// What a benchmark figure should reach: at least or at most a value.
public enum BenchGoal: Sendable {
    case atLeast(Double)
    case atMost(Double)

    func met(by value: Double) -> Bool {
        switch self {
        case .atLeast(let g): value >= g
        case .atMost(let g): value <= g
        }
    }

    var words: String {
        switch self {
        case .atLeast(let g): ">= \(BenchGoal.number(g))"
        case .atMost(let g): "<= \(BenchGoal.number(g))"
        }
    }

    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%g", v) }
}

/// Prints `bench: <name> <value> <unit>`, and the goal and whether it is met when there is one,
/// so the figures can be collected across runs with the goal read from the same line.
public func bench(_ name: String, _ value: Double, _ unit: String, decimals: Int = 0, goal: BenchGoal? = nil) {
    // A figure that could not be measured says so, and is never taken for a met goal.
    let shown = !value.isFinite ? "nan" : decimals == 0 ? String(Int(value.rounded())) : String(format: "%.\(decimals)f", value)
    var line = "bench: \(name) \(shown) \(unit)"
    if let goal { line += " (goal \(goal.words): \(goal.met(by: value) ? "met" : "NOT met"))" }
    print(line)
}

/// Instructions a piece of work costs per item, read with valgrind's callgrind: the whole
/// program is counted at `n` and at `2n` items and the difference divided by `n`, so start-up
/// cancels out. The program is `executable` called with `arguments + [String(items)]`; it must
/// do the same start-up work whatever the count. Nil when valgrind is missing or a run fails.
/// Valgrind cannot read the DWARF the Swift toolchain writes, so it runs a copy without debug
/// info; `stripping: false` runs `executable` itself (another program, such as CPython, which
/// finds its own files from where it lies). With `function` (a callgrind pattern), only the
/// instructions run inside it are counted.
public func instructionsPerItem(
    executable: String, arguments: [String], n: Int, stripping: Bool = true, within function: String? = nil
) -> Double? {
    eventsPerItem(executable: executable, arguments: arguments, n: n, stripping: stripping, within: function)?["Ir"]
}

/// The caches callgrind simulates for `eventsPerItem`: one core of the machine the figures
/// were first taken on (an Intel Xeon at 2.8 GHz: L1i 32 KB 8-way, L1d 48 KB 12-way, L2 1.25 MB
/// 20-way as the last level), fixed so that a count is the same on every machine.
public let simulatedCaches = ["--cache-sim=yes", "--I1=32768,8,64", "--D1=49152,12,64", "--LL=1310720,20,64"]

/// `instructionsPerItem`'s counts of every event callgrind recorded, by its name (`Ir`; with
/// `caches`, also `ILmr`, `DLmr` and `DLmw`: lines the last level had to fetch from memory).
public func eventsPerItem(
    executable: String, arguments: [String], n: Int, stripping: Bool = true, within function: String? = nil,
    caches: Bool = false
) -> [String: Double]? {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-callgrind-\(getpid())-program").path
    defer { if stripping { try? FileManager.default.removeItem(atPath: copy) } }
    if stripping {
        guard strippedCopy(of: executable, to: copy) else { return nil }
    }
    let program = stripping ? copy : executable
    // Swift (and CPython) seed their hashing per process; dictionaries then probe differently
    // from run to run, and a frame's count moved by 5%. Seeded alike, two runs agree within 100
    // instructions.
    var seeded = ProcessInfo.processInfo.environment
    seeded["SWIFT_DETERMINISTIC_HASHING"] = "1"
    seeded["PYTHONHASHSEED"] = "0"
    let environment = seeded
    @Sendable func totals(_ items: Int) -> [String: Double]? {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-callgrind-\(getpid())-\(items).out")
        defer { try? FileManager.default.removeItem(at: out) }
        guard
            let run = try? ChildProcess.run(
                "valgrind",
                ["--tool=callgrind", "--callgrind-out-file=\(out.path)"] + (caches ? simulatedCaches : [])
                    + (function.map { ["--toggle-collect=\($0)"] } ?? []) + [program] + arguments + [String(items)],
                environment: environment, stderr: .null),
            run.status == 0
        else { return nil }
        return callgrindTotals(out.path)
    }
    // Both runs at once, one a core. Valgrind runs a program's threads one at a time; the
    // bench's counts run so agreed with runs one after the other within 0.3% (DECISIONS.md).
    let counted = Locked<[Int: [String: Double]]>([:])
    DispatchQueue.concurrentPerform(iterations: 2) { i in
        let items = (i + 1) * n
        if let t = totals(items) { counted.withLock { $0[items] = t } }
    }
    guard let one = counted.withLock({ $0[n] }), let two = counted.withLock({ $0[2 * n] }) else { return nil }
    return two.reduce(into: [:]) { out, event in
        if let first = one[event.key] { out[event.key] = (event.value - first) / Double(n) }
    }
}

/// A copy of `executable` without its DWARF, which valgrind cannot read; false if objcopy fails.
public func strippedCopy(of executable: String, to copy: String) -> Bool {
    (try? ChildProcess.run("objcopy", ["--strip-debug", executable, copy], stderr: .null))?.status == 0
}

/// The instructions a callgrind output file counted (its totals line); nil if there is none.
public func callgrindTotal(_ path: String) -> Double? { callgrindTotals(path)?["Ir"] }

/// Each event a callgrind output file counted, by the name its `events:` line gives it, from
/// its totals line; nil if either is missing, a count is not a number, or there are more
/// counts than names.
public func callgrindTotals(_ path: String) -> [String: Double]? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    var names: [Substring] = []
    for line in text.split(separator: "\n") {
        if line.hasPrefix("events:") { names = line.split(separator: " ").dropFirst().map { $0 } }
        guard line.hasPrefix("totals:") || line.hasPrefix("summary:") else { continue }
        let fields = line.split(separator: " ").dropFirst()
        let values = fields.compactMap { Double($0) }
        // A count callgrind leaves out at the end of a line is zero; one unread would put the
        // rest under the wrong names.
        guard !names.isEmpty, values.count == fields.count, values.count <= names.count else { return nil }
        return Dictionary(uniqueKeysWithValues: names.enumerated().map { i, name in (String(name), i < values.count ? values[i] : 0) })
    }
    return nil
}

/// `prefix-PID` in the temporary directory, for this process's files, once the ones of runs
/// that died before their cleanup ran (killed by a signal, or out of time) are gone: a million
/// cached tweets left behind are 420 MB. Not created here. (Where /tmp is shared between PID
/// namespaces, another namespace's running bench looks dead; benches are not run so here.)
public func benchDirectory(_ prefix: String) -> URL {
    let tmp = FileManager.default.temporaryDirectory
    for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? [] where name.hasPrefix(prefix + "-") {
        // Another run's, still going, or a process's that no longer exists.
        // This process's number too: a dead run had it before (a directory is asked for once).
        let number = name.dropFirst(prefix.count + 1)
        guard number.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let pid = pid_t(number), pid > 0,
            pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH)
        else { continue }
        try? FileManager.default.removeItem(at: tmp.appendingPathComponent(name))
    }
    return tmp.appendingPathComponent("\(prefix)-\(getpid())")
}
