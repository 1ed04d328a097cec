import Bedrock
import CSpawn
import FoundationEssentials
import Glibc

/// A child process started with `posix_spawn` and reaped with `waitpid`.
///
/// Foundation's `Process` on Linux learns of a child's exit through a socket the child inherits;
/// a child that starts a daemon (the tmux client its server, `pass` its gpg-agent) hands that
/// socket on, and `waitUntilExit` never returns (DECISIONS.md). Here the exit is `waitpid`'s, pipes
/// are close-on-exec, and nothing else of ours leaks into the child.
public final class ChildProcess: @unchecked Sendable {
    public enum Input: Sendable { case inherit, null, pipe }
    public enum Output: Sendable { case inherit, null, pipe }
    public enum ErrorOutput: Sendable { case inherit, null, stdout }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// What a finished process printed and how it ended.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it (as shells report it).
        public let status: Int32
        public let output: Data
        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    public let pid: pid_t
    /// Started as the leader of a process group of its own.
    public let group: Bool
    /// Write end of the child's standard input (`.pipe`), else -1.
    public private(set) var inputFD: Int32
    /// Read end of the child's standard output (`.pipe`), else -1.
    public private(set) var outputFD: Int32
    private let lock = PlainLock()
    private var exitStatus: Int32?

    /// Starts `program` (looked up in PATH when it has no slash) with `arguments`.
    public init(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        stdin: Input = .null, stdout: Output = .pipe, stderr: ErrorOutput = .stdout, newGroup: Bool = false
    ) throws(Failure) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        // The child's ends close once it has them; ours too if it never starts.
        var toClose: [Int32] = []
        var started = false
        var input: Int32 = -1
        var output: Int32 = -1
        defer {
            for fd in toClose { close(fd) }
            if !started { for fd in [input, output] where fd >= 0 { close(fd) } }
        }
        func pipePair() throws(Failure) -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard pipe2(&fds, O_CLOEXEC) == 0 else {
                throw Failure(description: "could not make a pipe: \(String(cString: strerror(errno)))")
            }
            return (fds[0], fds[1])
        }
        switch stdin {
        case .inherit: break
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .pipe:
            let p = try pipePair()
            posix_spawn_file_actions_adddup2(&actions, p.read, 0)
            toClose.append(p.read)
            input = p.write
        }
        switch stdout {
        case .inherit: break
        case .null: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        case .pipe:
            let p = try pipePair()
            posix_spawn_file_actions_adddup2(&actions, p.write, 1)
            toClose.append(p.write)
            output = p.read
        }
        switch stderr {
        case .inherit: break
        case .null: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .stdout: posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // Descriptors other code opened without close-on-exec stay out of the child too.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }

        // The child starts with no blocked signals and default handlers: a spawning thread may
        // block signals (dispatch workers do) and this process ignores SIGPIPE.
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newGroup {
            // A group of its own, so what it starts can be ended with it.
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { env in env.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for p in envp ?? [] { free(p) } }

        var pid: pid_t = 0
        let rc = argv.withUnsafeBufferPointer { a in
            if let envp {
                return envp.withUnsafeBufferPointer { e in
                    posix_spawnp(&pid, program, &actions, &attributes, a.baseAddress!, e.baseAddress!)
                }
            }
            return posix_spawnp(&pid, program, &actions, &attributes, a.baseAddress!, environ)
        }
        guard rc == 0 else {
            throw Failure(description: "could not start \(program): \(String(cString: strerror(rc)))")
        }
        started = true
        self.pid = pid
        self.group = newGroup
        self.inputFD = input
        self.outputFD = output
    }

    deinit {
        if inputFD >= 0 { close(inputFD) }
        if outputFD >= 0 { close(outputFD) }
    }

    /// Sends `signal` unless the process has been reaped (its pid may belong to another by then).
    public func send(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if exitStatus == nil { kill(pid, signal) }
    }

    /// Closes the child's standard input, which many programs take as the end.
    public func closeInput() {
        if inputFD >= 0 {
            close(inputFD)
            inputFD = -1
        }
    }

    public func write(_ data: Data) throws(Failure) {
        guard inputFD >= 0 else { throw Failure(description: "the process has no input pipe") }
        var rest = data[...]
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { Glibc.write(inputFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "writing to the process failed: \(String(cString: strerror(errno)))") }
            rest = rest.dropFirst(n)
        }
    }

    /// The exit status if the process has ended (reaping it), else nil.
    public func poll() -> Int32? { reap(block: false) }

    /// Blocks until the process ends; its exit status.
    @discardableResult
    public func wait() -> Int32 { reap(block: true) ?? -1 }

    private func reap(block: Bool) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, block ? 0 : WNOHANG)
            if r == -1 && errno == EINTR { continue }
            if r == 0 { return nil }
            if r == -1 {
                exitStatus = -1
                return -1
            }
            break
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
        let signal = status & 0x7F
        exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return exitStatus
    }

    /// Next bytes of standard output: nil at its end, [] when `timeout` passed first.
    public func read(timeout: Double) -> [UInt8]? {
        guard outputFD >= 0 else { return nil }
        var p = pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)
        let r = Glibc.poll(&p, 1, Int32(max(0, timeout) * 1000))
        if r == 0 || (r < 0 && errno == EINTR) { return [] }
        var buf = [UInt8](repeating: 0, count: 65_536)
        let n = Glibc.read(outputFD, &buf, buf.count)
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
        guard n > 0 else { return nil }
        return Array(buf[0..<n])
    }

    /// Reads standard output to its end, or to the process's exit when a process it started
    /// still holds the pipe open, then reaps it.
    public func finish() -> Result {
        var data = Data()
        while outputFD >= 0 {
            guard let chunk = read(timeout: 0.1) else { break }
            if !chunk.isEmpty {
                data.append(contentsOf: chunk)
                continue
            }
            if poll() != nil {
                // Ended: take what is already in the pipe, without waiting for a descendant.
                _ = fcntl(outputFD, F_SETFL, fcntl(outputFD, F_GETFL) | O_NONBLOCK)
                while let more = read(timeout: 0), !more.isEmpty { data.append(contentsOf: more) }
                break
            }
        }
        return Result(status: wait(), output: data)
    }

    /// How a bounded run ended: its result, or why it was stopped (its group killed).
    public enum Bounded: Sendable {
        case finished(Result)
        case tooMuchOutput(limit: Int)
        case timedOut(seconds: Double)
    }

    /// Reads standard output to its end as `finish` does, but at most `limit` bytes and until
    /// `seconds` have passed: past either, the process (and its group, when it leads one) is
    /// killed and reaped, and what it printed is dropped.
    public func finish(limit: Int, seconds: Double) -> Bounded {
        let deadline = Date().addingTimeInterval(seconds)
        var data = Data()
        func stop() {
            // Only while the leader is not reaped: its group id cannot have gone to another.
            lock.lock()
            if exitStatus == nil { kill(group ? -pid : pid, SIGKILL) }
            lock.unlock()
            wait()
        }
        while outputFD >= 0 {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                stop()
                return .timedOut(seconds: seconds)
            }
            guard let chunk = read(timeout: min(0.1, left)) else { break }
            if !chunk.isEmpty {
                data.append(contentsOf: chunk)
                if data.count > limit {
                    stop()
                    return .tooMuchOutput(limit: limit)
                }
                continue
            }
            if poll() != nil {
                _ = fcntl(outputFD, F_SETFL, fcntl(outputFD, F_GETFL) | O_NONBLOCK)
                while let more = read(timeout: 0), !more.isEmpty {
                    data.append(contentsOf: more)
                    if data.count > limit { return .tooMuchOutput(limit: limit) }
                }
                break
            }
        }
        // The output ended; the process still has until the deadline to exit.
        while poll() == nil {
            guard deadline.timeIntervalSinceNow > 0 else {
                stop()
                return .timedOut(seconds: seconds)
            }
            usleep(10_000)
        }
        return .finished(Result(status: wait(), output: data))
    }

    /// Hands the terminal on standard input to the child's group while it runs (a password
    /// manager may ask for a passphrase), when this process has it; the returned function
    /// takes it back.
    public func takeForeground() -> () -> Void {
        guard group, isatty(0) == 1, tcgetpgrp(0) == getpgrp() else { return {} }
        tcsetpgrp(0, pid)
        // Had it read the terminal before it was given it, it was stopped: go on.
        kill(-pid, SIGCONT)
        return {
            // Taking it back from the background is what SIGTTOU would stop: blocked on this
            // thread only while it is done.
            var block = sigset_t()
            var previous = sigset_t()
            sigemptyset(&block)
            sigaddset(&block, SIGTTOU)
            pthread_sigmask(SIG_BLOCK, &block, &previous)
            tcsetpgrp(0, getpgrp())
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
    }

    /// Runs a program to its end on the calling thread.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        stdin: Input = .null, stderr: ErrorOutput = .stdout
    ) throws(Failure) -> Result {
        try ChildProcess(program, arguments, environment: environment, directory: directory, stdin: stdin, stdout: .pipe, stderr: stderr)
            .finish()
    }

    /// Runs a program to its end on a thread of its own, so no task-pool thread is held.
    public static func output(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        stderr: ErrorOutput = .stdout
    ) async throws -> Result {
        let child = try ChildProcess(program, arguments, environment: environment, directory: directory, stdout: .pipe, stderr: stderr)
        return await withCheckedContinuation { (done: CheckedContinuation<Result, Never>) in
            startThread { done.resume(returning: child.finish()) }
        }
    }
}
