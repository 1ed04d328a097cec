import Synchronization
import Foundation

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
        public init(caFile: String? = nil, trace: (@Sendable (String) -> Void)? = nil) {
            self.caFile = caFile
            self.trace = trace
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
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        traceRequest(request)
        let sink = CollectingSink()
        let id = Mutex<Int?>(nil)
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
    public func stream(_ request: HTTPRequest) -> AsyncThrowingStream<StreamPart, any Error> {
        traceRequest(request)
        let (stream, continuation) = AsyncThrowingStream<StreamPart, any Error>.makeStream(bufferingPolicy: .unbounded)
        let sink = StreamingSink(continuation: continuation, trace: options.trace)
        let id = engine.submit(request, options: transferOptions, sink: sink)
        let engine = self.engine
        continuation.onTermination = { reason in
            if case .cancelled = reason {
                sink.stop()
                engine.cancel(id)
            }
        }
        return stream
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

    func headers(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = headers
    }

    func data(_ chunk: UnsafeRawBufferPointer) -> Bool {
        body.append(contentsOf: chunk)
        return true
    }

    func finished(_ error: TransportError?) {
        guard let c = continuation else { return }
        continuation = nil
        if let error {
            c.resume(throwing: error)
        } else {
            c.resume(returning: HTTPResponse(status: status, headers: headers, body: body))
        }
    }
}

/// Hands a streaming body to an `AsyncThrowingStream` chunk by chunk.
final class StreamingSink: TransferSink, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<HTTPClient.StreamPart, any Error>.Continuation
    private let stopped = Atomic<Bool>(false)
    private let trace: (@Sendable (String) -> Void)?

    init(continuation: AsyncThrowingStream<HTTPClient.StreamPart, any Error>.Continuation, trace: (@Sendable (String) -> Void)?) {
        self.continuation = continuation
        self.trace = trace
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    func headers(status: Int, headers: [String: String]) {
        trace?("< \(status) \(HTTPStatus.reason(status)) (stream)")
        continuation.yield(.head(status: status, headers: headers))
    }

    func data(_ chunk: UnsafeRawBufferPointer) -> Bool {
        if stopped.load(ordering: .relaxed) { return false }
        continuation.yield(.bytes(Array(chunk)))
        return true
    }

    func finished(_ error: TransportError?) {
        if let error, error != .cancelled {
            continuation.finish(throwing: error)
        } else {
            continuation.finish()
        }
    }
}
