import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Which stream to follow.
public enum StreamKind: Sendable, Equatable {
    /// The user's home and mentions as they happen (`user.json`).
    case user
    /// Tweets matching phrases or from users (`statuses/filter`).
    case filter(track: [String], follow: [UserID])
    case sample
    /// API v2's filtered stream: posts matching the app's rules (app bearer token only), one
    /// JSON object per line.
    case v2Filtered
}

/// A stream connection's state, for the status bar.
public enum StreamState: Equatable, Sendable {
    case connecting
    case streaming
    /// Waiting before the next attempt, and why.
    case waiting(seconds: Double, reason: String)
    case stopped
}

/// Counts over the life of a followed stream.
public struct StreamStatistics: Equatable, Sendable {
    public var messages = 0
    public var keepAlives = 0
    /// Frames or messages that could not be read and were skipped.
    public var skipped = 0
    /// Well-formed messages of kinds Linnet does not know; ignored.
    public var unknown = 0
    /// Connections that ended and were retried.
    public var reconnects = 0
    public init() {}
}

/// What a followed stream produces.
public enum StreamEvent: Sendable {
    case message(StreamMessage)
    case state(StreamState)
    /// A frame or message that could not be read; skipped, the stream goes on.
    case skipped(String)
    /// The running counts, sent each time a connection ends.
    case statistics(StreamStatistics)
}

extension TwitterClient {
    /// Stream events waiting for the reader, at most.
    public static let maxEventsWaiting = 10_000

    /// Follows a stream for as long as the returned sequence is read: reconnects by Twitter's
    /// rules after drops, stalls (no byte for `stallTimeout` seconds, keep-alives included) and
    /// HTTP errors. Stop by cancelling the reading task.
    public func stream(
        _ kind: StreamKind, stallTimeout: Double = 90, clock: any StreamClock = SystemClock()
    ) -> AsyncStream<StreamEvent> {
        // Bounded: when the reader falls this far behind, the stream waits for it (and the
        // HTTP transfer pauses); nothing is dropped.
        let (events, continuation) = AsyncStream<StreamEvent>.makeStream(bufferingPolicy: .bufferingOldest(Self.maxEventsWaiting))
        let task = Task { [self] in
            await follow(kind, stallTimeout: stallTimeout, clock: clock, continuation)
            continuation.yield(.state(.stopped))
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
    }

    /// Yields an event the reader must see (a change of state), waiting while the buffer is full.
    private func deliver(_ e: StreamEvent, _ out: AsyncStream<StreamEvent>.Continuation) async {
        while case .dropped = out.yield(e) {
            if Task.isCancelled { return }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    func streamRequest(_ kind: StreamKind, stallTimeout: Double) throws -> HTTPRequest {
        var params: [(String, String)] = [("delimited", "length"), ("stall_warnings", "true")]
        let method: String
        let base: String
        let path: String
        switch kind {
        case .v2Filtered:
            params = TwitterClient.V2Query.posts
            (method, base, path) = ("GET", endpoints.apiBase, "/2/tweets/search/stream")
        case .user:
            (method, base, path) = ("GET", endpoints.userStreamBase, "/1.1/user.json")
        case .sample:
            (method, base, path) = ("GET", endpoints.streamBase, "/1.1/statuses/sample.json")
        case .filter(let track, let follow):
            (method, base, path) = ("POST", endpoints.streamBase, "/1.1/statuses/filter.json")
            if !track.isEmpty { params.append(("track", track.joined(separator: ","))) }
            if !follow.isEmpty { params.append(("follow", follow.map(\.description).joined(separator: ","))) }
        }
        var request = try makeRequest(method, path, params, base: base)
        // v2 sends a keep-alive at least every 20 s: 20 s of silence means the stream is gone.
        request.idleTimeout = kind == .v2Filtered ? min(stallTimeout, 20) : stallTimeout
        request.receiveBufferBytes = 256 * 1024
        return request
    }

    private func follow(_ kind: StreamKind, stallTimeout: Double, clock: any StreamClock, _ out: AsyncStream<StreamEvent>.Continuation)
        async
    {
        var policy = ReconnectPolicy()
        var stats = StreamStatistics()
        let decoder = V1Decoder()
        let v2 = V2Decoder()
        let isV2 = kind == .v2Filtered
        while !Task.isCancelled {
            await deliver(.state(.connecting), out)
            var failure = ReconnectPolicy.Failure.closed
            var reason = "the server closed the stream"
            do {
                var framer = StreamFramer(framing: isV2 ? .lines : .delimited)
                var status = 0
                var errorBody: [UInt8] = []
                for try await part in http.stream(try streamRequest(kind, stallTimeout: stallTimeout)) {
                    switch part {
                    case .head(let s, _):
                        status = s
                        if s == 200 { await deliver(.state(.streaming), out) }
                    case .bytes(let bytes) where status != 200:
                        errorBody += bytes.prefix(4096 - errorBody.count)
                    case .bytes(let bytes):
                        for event in framer.feed(bytes) {
                            switch event {
                            case .keepAlive:
                                stats.keepAlives += 1
                                policy.connected()
                            case .malformed(let why):
                                stats.skipped += 1
                                out.yield(.skipped("a broken frame (\(why))"))
                            case .message(let body):
                                policy.connected()
                                do {
                                    let message: StreamMessage
                                    if isV2 {
                                        let (m, billed) = try v2.billedStreamMessage(bytes: body)
                                        // The stream's one billing place: a delivered post is a read.
                                        if let usage, !billed.isEmpty { usage.record(billed) }
                                        message = Self.v2Message(m)
                                    } else {
                                        message = try decoder.streamMessage(bytes: body)
                                    }
                                    switch message {
                                    case .unknown:
                                        stats.unknown += 1
                                        continue
                                    case .disconnect(let code, _, let text):
                                        reason =
                                            "the server disconnected us: \(StreamMessage.disconnectMeaning(code))"
                                            + (text.isEmpty ? "" : " (\(text))")
                                    default:
                                        break
                                    }
                                    stats.messages += 1
                                    // Waits while the reader is 10,000 events behind: the
                                    // body stops being read, and the transfer pauses.
                                    await deliver(.message(message), out)
                                } catch {
                                    stats.skipped += 1
                                    out.yield(.skipped("a message that could not be read (\(error))"))
                                }
                            }
                        }
                    }
                }
                if status != 200 {
                    let apiError = APIError(httpStatus: status, body: Data(errorBody))
                    failure = (status == 420 || status == 429) ? .rateLimited : .http(status)
                    reason = apiError.description
                }
            } catch let e as TransportError {
                if e == .cancelled { return }
                failure = .network
                reason = e.description
            } catch {
                failure = .network
                reason = "\(error)"
            }
            if Task.isCancelled { return }
            stats.reconnects += 1
            await deliver(.statistics(stats), out)
            let delay = policy.failed(failure)
            await deliver(.state(.waiting(seconds: delay, reason: reason)), out)
            do { try await clock.sleep(seconds: delay) } catch { return }
        }
    }

    /// A v2 stream line as the message the v1.1 stream would have sent: a post is a tweet, a
    /// disconnect notice a disconnect, anything else unknown.
    static func v2Message<Bytes: ContiguousBytes>(_ d: V2Decoder, _ body: Bytes) throws -> StreamMessage {
        v2Message(try d.streamMessage(bytes: body))
    }

    static func v2Message(_ m: V2StreamMessage) -> StreamMessage {
        switch m {
        case .post(let t, let rules): return rules.isEmpty ? .tweet(t) : .matched(t, tags: rules.compactMap(\.tag))
        case .disconnect(let p): return .disconnect(code: 0, streamName: nil, reason: p.description)
        case .errors(let list): return .unknown(keys: list.map(\.kind))
        case .unknown: return .unknown(keys: [])
        }
    }
}
