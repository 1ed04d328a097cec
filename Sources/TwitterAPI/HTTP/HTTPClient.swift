import FoundationEssentials
import Locking
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Async HTTP over the shared libcurl engine: whole responses, or a body as it streams in.
public final class HTTPClient: Sendable {
    /// Settings for every request.
    public struct Options: Sendable {
        /// A PEM bundle of extra trusted CAs (`--cacert`); the system store otherwise.
        public var caFile: String?
        public var userAgent = LinnetVersion.userAgent
        public var acceptEncoding = true
        /// Receives request and response lines with secrets redacted (`--trace`).
        public var trace: (@Sendable (String) -> Void)?
        /// Seconds a whole request may take (not a stream), besides the idle timeout.
        public var requestTimeout: Double = 60
        /// The largest body a request may bring back, after decompression (DECISIONS.md).
        public var maxBodyBytes = 32 << 20
        public init(caFile: String? = nil, trace: (@Sendable (String) -> Void)? = nil, requestTimeout: Double = 60) {
            self.caFile = caFile
            self.trace = trace
            self.requestTimeout = requestTimeout
        }
    }

    public let options: Options
    let engine: CurlEngine

    public init(options: Options = Options(), engine: CurlEngine = .shared) {
        self.options = options
        self.engine = engine
    }

    var transferOptions: CurlEngine.TransferOptions {
        CurlEngine.TransferOptions(caFile: options.caFile, userAgent: options.userAgent, acceptEncoding: options.acceptEncoding)
    }

    /// Sends a request and waits for the whole answer (any status).
    /// Sends a request and collects its answer. `onHead` sees the status and headers as soon as
    /// they arrive, even when the body then fails: what they said (a spent rate-limit window)
    /// is true whether or not the rest comes.
    public func send(_ request: HTTPRequest, onHead: (@Sendable (Int, [String: String]) -> Void)? = nil) async throws -> HTTPResponse {
        traceRequest(request)
        var request = request
        if request.totalTimeout == nil { request.totalTimeout = options.requestTimeout }
        let sink = CollectingSink(limit: options.maxBodyBytes, onHead: onHead)
        let id = Locked<Int?>(nil)
        let response: HTTPResponse = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                sink.continuation = continuation
                let submitted = engine.submit(request, options: transferOptions, sink: sink)
                id.withLock { $0 = submitted }
            }
        } onCancel: {
            if let i = id.withLock({ $0 }) { engine.cancel(i) }
        }
        traceResponse(response)
        return response
    }

    /// A body delivered as it arrives.
    public enum StreamPart: Sendable {
        case head(status: Int, headers: [String: String])
        case bytes([UInt8])
    }

    /// Starts a request whose body is read as it comes; ends with an error for a transport
    /// failure (including a stall), or normally when the server ends the body. Stop reading (or
    /// cancel the task) to close it.
    public func stream(_ request: HTTPRequest) -> StreamBody {
        traceRequest(request)
        // Chunks not yet read are bounded (at most this many of libcurl's buffers): when the
        // reader falls behind, the transfer pauses (the server waits, TCP's window fills) and
        // goes on as the reader takes chunks. Memory stays bounded and nothing is dropped.
        // The stream itself never drops; the sink counts what waits and pauses at the bound.
        let (stream, continuation) = AsyncThrowingStream<StreamPart, any Error>.makeStream(bufferingPolicy: .unbounded)
        let engine = self.engine
        let id = engine.newID()
        let sink = StreamingSink(continuation: continuation, trace: options.trace, onRoom: { engine.resume(id) })
        engine.submit(id: id, request, options: transferOptions, sink: sink)
        continuation.onTermination = { reason in
            if case .cancelled = reason {
                sink.stop()
                engine.cancel(id)
            }
        }
        return StreamBody(stream: stream, sink: sink)
    }

    /// A streaming body: the parts as they come; taking one makes room for the next.
    public struct StreamBody: AsyncSequence, Sendable {
        public typealias Element = StreamPart
        let stream: AsyncThrowingStream<StreamPart, any Error>
        let sink: StreamingSink

        public struct AsyncIterator: AsyncIteratorProtocol {
            var inner: AsyncThrowingStream<StreamPart, any Error>.AsyncIterator
            let sink: StreamingSink
            public mutating func next() async throws -> StreamPart? {
                let part = try await inner.next()
                if case .bytes = part { sink.tookOne() }
                return part
            }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(inner: stream.makeAsyncIterator(), sink: sink) }
    }

    private func traceRequest(_ r: HTTPRequest) {
        guard let trace = options.trace else { return }
        trace("> \(r.method) \(Redactor.url(r.url))")
        for (k, v) in r.headers { trace("> \(k): \(Redactor.header(k, v))") }
        if let body = r.body, !body.isEmpty { trace("> " + Redactor.body(String(decoding: body, as: UTF8.self))) }
    }

    private func traceResponse(_ r: HTTPResponse) {
        guard let trace = options.trace else { return }
        trace("< \(r.status) \(HTTPStatus.reason(r.status))")
        for k in r.headers.keys.sorted() { trace("< \(k): \(Redactor.header(k, r.headers[k] ?? ""))") }
        trace("< " + Redactor.body(String(decoding: r.body.prefix(4096), as: UTF8.self)))
    }
}

/// Collects a whole answer, then resumes the waiting task.
final class CollectingSink: TransferSink, @unchecked Sendable {
    var continuation: CheckedContinuation<HTTPResponse, any Error>?
    private var status = 0
    private var headers: [String: String] = [:]
    private var body = Data()
    private let limit: Int
    private var overflowed = false
    private let onHead: (@Sendable (Int, [String: String]) -> Void)?

    init(limit: Int, onHead: (@Sendable (Int, [String: String]) -> Void)? = nil) {
        self.limit = limit
        self.onHead = onHead
    }

    func headers(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = headers
        onHead?(status, headers)
    }

    func data(_ chunk: UnsafeRawBufferPointer) -> SinkAnswer {
        if body.count + chunk.count > limit {
            overflowed = true
            body = Data()
            return .stop
        }
        body.append(contentsOf: chunk)
        return .take
    }

    func finished(_ error: TransportError?) {
        guard let c = continuation else { return }
        continuation = nil
        if overflowed {
            c.resume(
                throwing: TransportError.tooLarge(
                    "the server's answer was larger than the \(limit >> 20) MB Linnet accepts (uncompressed); it was not read"))
        } else if let error {
            c.resume(throwing: error)
        } else {
            c.resume(returning: HTTPResponse(status: status, headers: headers, body: body))
        }
    }
}

/// Hands a streaming body to an `AsyncThrowingStream` chunk by chunk.
final class StreamingSink: TransferSink, @unchecked Sendable {
    /// Chunks waiting for the reader, at most (each at most the request's receive buffer:
    /// 256 KB for Twitter streams, so 32 MB).
    static let maxChunksWaiting = 128
    private let continuation: AsyncThrowingStream<HTTPClient.StreamPart, any Error>.Continuation
    private let stopped = Atomic<Bool>(false)
    /// Chunks handed over and not yet taken, and whether the transfer is paused for them; one
    /// lock, so the reader's room and the writer's pause cannot cross.
    private let room = Locked<(waiting: Int, paused: Bool)>((0, false))
    /// Asks the engine to resume the paused transfer.
    private let onRoom: @Sendable () -> Void
    private let trace: (@Sendable (String) -> Void)?

    init(
        continuation: AsyncThrowingStream<HTTPClient.StreamPart, any Error>.Continuation, trace: (@Sendable (String) -> Void)?,
        onRoom: @escaping @Sendable () -> Void
    ) {
        self.continuation = continuation
        self.trace = trace
        self.onRoom = onRoom
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    func headers(status: Int, headers: [String: String]) {
        trace?("< \(status) \(HTTPStatus.reason(status)) (stream)")
        continuation.yield(.head(status: status, headers: headers))
    }

    func data(_ chunk: UnsafeRawBufferPointer) -> SinkAnswer {
        if stopped.load(ordering: .relaxed) { return .stop }
        let wait = room.withLock { r -> Bool in
            if r.waiting >= Self.maxChunksWaiting {
                r.paused = true
                return true
            }
            r.waiting += 1
            return false
        }
        if wait { return .pause }
        switch continuation.yield(.bytes(Array(chunk))) {
        case .enqueued: return .take
        case .dropped, .terminated: return .stop
        @unknown default: return .stop
        }
    }

    /// The reader took a part: there is room again; a paused transfer goes on.
    func tookOne() {
        let resume = room.withLock { r -> Bool in
            r.waiting = max(0, r.waiting - 1)
            defer { r.paused = false }
            return r.paused
        }
        if resume { onRoom() }
    }

    func finished(_ error: TransportError?) {
        if let error, error != .cancelled {
            continuation.finish(throwing: error)
        } else {
            continuation.finish()
        }
    }
}
