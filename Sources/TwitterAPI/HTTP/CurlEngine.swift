import Bedrock
import CCurl
import Dispatch
import FoundationEssentials
import Locking
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Receives a transfer's progress on the engine's thread.
protocol TransferSink: AnyObject, Sendable {
    func headers(status: Int, headers: [String: String])
    func data(_ chunk: UnsafeRawBufferPointer) -> SinkAnswer
    func finished(_ error: TransportError?)
}

/// What a sink says to a chunk: taken, not now (libcurl pauses the transfer and hands the same
/// chunk again after `CurlEngine.resume`), or stop the transfer.
enum SinkAnswer { case take, pause, stop }

/// One thread that owns a libcurl multi handle and runs every transfer on it, requests and
/// streams alike. Other threads talk to it through a locked command queue and
/// `curl_multi_wakeup`; no curl pointer leaves the thread.
public final class CurlEngine: Sendable {
    enum Command {
        case add(id: Int, request: HTTPRequest, options: TransferOptions, sink: any TransferSink)
        case cancel(id: Int)
        case resume(id: Int)
        case shutdown
    }

    struct TransferOptions: Sendable {
        var caFile: String?
        var userAgent: String
        var acceptEncoding: Bool
    }

    struct MultiRef: @unchecked Sendable { let pointer: UnsafeMutableRawPointer }

    private let commands = Locked<[Command]>([])
    private let multi = Locked<MultiRef?>(nil)
    private let nextID = Atomic<Int>(1)
    /// Signalled by commands sent while there is no multi handle to wake: before libcurl is
    /// loaded, and for good if it could not be.
    private let noMulti = DispatchSemaphore(value: 0)

    /// The process-wide engine.
    public static let shared = CurlEngine()

    /// Returns at once: libcurl is loaded on the engine's thread when the first command comes
    /// (docs/BINDINGS.md C5), and commands sent meanwhile wait in the queue.
    public convenience init() {
        self.init(loading: { ccurl_load().map { String(cString: $0) } })
    }

    /// `loading` loads libcurl and says why it cannot be used, or nil (the tests stand in a
    /// missing library).
    init(loading: @escaping @Sendable () -> String?) {
        // SIGPIPE is ignored because CURLOPT_NOSIGNAL leaves it to us (docs/BINDINGS.md C3).
        signal(SIGPIPE, SIG_IGN)
        startThread { [self] in
            noMulti.wait()
            if let problem = loading() {
                refuseAll(problem)
            } else {
                Self.globalInit
                runLoop()
            }
        }
    }

    private static let globalInit: Void = { _ = ccurl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    func submit(_ request: HTTPRequest, options: TransferOptions, sink: any TransferSink) -> Int {
        let id = newID()
        submit(id: id, request, options: options, sink: sink)
        return id
    }

    /// An id for a transfer, taken before its sink is made (a sink that pauses needs it).
    func newID() -> Int { nextID.add(1, ordering: .relaxed).oldValue }

    func submit(id: Int, _ request: HTTPRequest, options: TransferOptions, sink: any TransferSink) {
        send(.add(id: id, request: request, options: options, sink: sink))
    }

    func cancel(_ id: Int) { send(.cancel(id: id)) }

    /// Lets a transfer a sink paused deliver again.
    func resume(_ id: Int) { send(.resume(id: id)) }

    private func send(_ c: Command) {
        commands.withLock { $0.append(c) }
        let woken = multi.withLock { ref in
            if let ref { ccurl_multi_wakeup(ref.pointer) }
            return ref != nil
        }
        if !woken { noMulti.signal() }
    }

    private func takeCommands() -> [Command] {
        commands.withLock { q in
            defer { q.removeAll() }
            return q
        }
    }

    /// Without libcurl every transfer ends at once, saying why, until shutdown.
    private func refuseAll(_ problem: String) {
        while true {
            for c in takeCommands() {
                switch c {
                case .add(_, _, _, let sink): sink.finished(.noLibcurl(problem))
                case .shutdown: return
                case .cancel, .resume: break
                }
            }
            noMulti.wait()
        }
    }

    // MARK: - The engine thread

    private func runLoop() {
        guard let m = ccurl_multi_init() else { return refuseAll("libcurl could not make a multi handle (out of memory?)") }
        multi.withLock { $0 = MultiRef(pointer: m) }
        var transfers: [Int: CurlTransfer] = [:]
        var byHandle: [UnsafeMutableRawPointer: Int] = [:]
        var running: Int32 = 0
        loop: while true {
            for c in takeCommands() {
                switch c {
                case .add(let id, let request, let options, let sink):
                    let t = CurlTransfer(request: request, options: options, sink: sink)
                    guard let handle = t.handle, t.setupError == nil else {
                        sink.finished(t.setupError ?? .other(code: -1, "cannot create a transfer"))
                        continue
                    }
                    transfers[id] = t
                    byHandle[handle] = id
                    ccurl_multi_add_handle(m, handle)
                case .cancel(let id):
                    if let t = transfers.removeValue(forKey: id), let h = t.handle {
                        ccurl_multi_remove_handle(m, h)
                        byHandle[h] = nil
                        t.sink.finished(.cancelled)
                    }
                case .resume(let id):
                    transfers[id]?.resume()
                case .shutdown:
                    break loop
                }
            }
            ccurl_multi_perform(m, &running)
            var left: Int32 = 0
            while let msg = ccurl_multi_info_read(m, &left) {
                guard msg.pointee.msg == CURLMSG_DONE, let h = msg.pointee.easy_handle, let id = byHandle[h],
                    let t = transfers[id]
                else { continue }
                let code = msg.pointee.data.result
                ccurl_multi_remove_handle(m, h)
                byHandle[h] = nil
                transfers[id] = nil
                t.complete(code)
            }
            // Asleep until a socket, libcurl's own timers, a command (curl_multi_wakeup) or the
            // first stall deadline; a minute at most. Not a one-second tick: each wake is a
            // context switch on an idle machine.
            var wait = 60_000.0
            for t in transfers.values { if let s = t.secondsToStall { wait = min(wait, max(0, s) * 1000 + 50) } }
            var numfds: Int32 = 0
            ccurl_multi_poll(m, nil, 0, Int32(wait), &numfds)
        }
        for (_, t) in transfers {
            if let h = t.handle { ccurl_multi_remove_handle(m, h) }
            t.sink.finished(.cancelled)
        }
        multi.withLock { $0 = nil }
        ccurl_multi_cleanup(m)
    }
}
