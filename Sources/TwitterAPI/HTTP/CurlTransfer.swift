import Bedrock
import CCurl
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// One libcurl easy handle and what it needs while it runs. Lives on the engine thread only.
final class CurlTransfer {
    let sink: any TransferSink
    private(set) var handle: UnsafeMutableRawPointer?
    private(set) var setupError: TransportError?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    private var status = 0
    private var responseHeaders: [String: String] = [:]
    private var headersDelivered = false
    private var lastByte = Date()
    private let idleTimeout: Double
    private var stalled = false
    private var sinkStopped = false
    /// Paused by the sink (its reader is behind); `resume` lets it go on.
    private var paused = false

    init(request: HTTPRequest, options: CurlEngine.TransferOptions, sink: any TransferSink) {
        self.sink = sink
        idleTimeout = request.idleTimeout
        guard let target = RequestTarget(request.url) else {
            setupError = .other(code: 3, "not an absolute http(s) URL: \(request.url)")
            return
        }
        if target.scheme == "http" && !target.isLoopback {
            setupError = .insecure(target.host)
            return
        }
        guard let h = ccurl_easy_init() else { return }
        handle = h
        _ = ccurl_setopt_string(h, CURLOPT_URL, request.url)
        // Proxies come from libcurl's usual environment variables, but never for loopback.
        if target.isLoopback { _ = ccurl_setopt_string(h, CURLOPT_NOPROXY, "*") }
        _ = ccurl_setopt_long(h, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_setopt_long(h, CURLOPT_PROTOCOLS, Int(CURLPROTO_HTTP | CURLPROTO_HTTPS))
        _ = ccurl_setopt_long(h, CURLOPT_CONNECTTIMEOUT_MS, Int(min(max(request.connectTimeout, 0.001), 86_400) * 1000))
        if let total = request.totalTimeout { _ = ccurl_setopt_long(h, CURLOPT_TIMEOUT_MS, Int(min(max(total, 0.001), 86_400) * 1000)) }
        _ = ccurl_setopt_string(h, CURLOPT_USERAGENT, options.userAgent)
        if let size = request.receiveBufferBytes { _ = ccurl_setopt_long(h, CURLOPT_BUFFERSIZE, size) }
        if options.acceptEncoding { _ = ccurl_setopt_string(h, CURLOPT_ACCEPT_ENCODING, "") }
        if let ca = options.caFile { _ = ccurl_setopt_string(h, CURLOPT_CAINFO, ca) }
        _ = ccurl_setopt_long(h, CURLOPT_SSL_VERIFYPEER, 1)
        _ = ccurl_setopt_long(h, CURLOPT_SSL_VERIFYHOST, 2)
        errorBuffer.withUnsafeMutableBufferPointer { _ = ccurl_setopt_pointer(h, CURLOPT_ERRORBUFFER, $0.baseAddress) }

        switch request.method.uppercased() {
        case "GET": _ = ccurl_setopt_long(h, CURLOPT_HTTPGET, 1)
        case "POST":
            let body = request.body ?? Data()
            _ = ccurl_setopt_long(h, CURLOPT_POSTFIELDSIZE, body.count)
            body.withUnsafeBytes {
                _ = ccurl_setopt_pointer(
                    h, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            }
        default:
            _ = ccurl_setopt_string(h, CURLOPT_CUSTOMREQUEST, request.method.uppercased())
            if let body = request.body {
                _ = ccurl_setopt_long(h, CURLOPT_POSTFIELDSIZE, body.count)
                body.withUnsafeBytes {
                    _ = ccurl_setopt_pointer(
                        h, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
                }
            }
        }
        // libcurl copies each header string into the list.
        for (k, v) in request.headers { headerList = ccurl_slist_append(headerList, "\(k): \(v)") }
        // No "Expect: 100-continue" round trip for form posts.
        headerList = ccurl_slist_append(headerList, "Expect:")
        _ = ccurl_setopt_slist(h, CURLOPT_HTTPHEADER, headerList)

        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_setopt_pointer(h, CURLOPT_WRITEDATA, me)
        _ = ccurl_setopt_write_function(h) { ptr, size, count, ctx in
            guard let ctx else { return 0 }
            let t = Unmanaged<CurlTransfer>.fromOpaque(ctx).takeUnretainedValue()
            let n = size * count
            switch t.onData(UnsafeRawBufferPointer(start: ptr, count: n)) {
            case .take: return n
            case .pause: return Int(CURL_WRITEFUNC_PAUSE)
            case .stop: return 0
            }
        }
        _ = ccurl_setopt_pointer(h, CURLOPT_HEADERDATA, me)
        _ = ccurl_setopt_header_function(h) { ptr, size, count, ctx in
            guard let ctx, let ptr else { return 0 }
            let t = Unmanaged<CurlTransfer>.fromOpaque(ctx).takeUnretainedValue()
            let n = size * count
            t.onHeaderLine(UnsafeRawBufferPointer(start: ptr, count: n))
            return n
        }
        _ = ccurl_setopt_long(h, CURLOPT_NOPROGRESS, 0)
        _ = ccurl_setopt_pointer(h, CURLOPT_XFERINFODATA, me)
        _ = ccurl_setopt_xferinfo_function(h) { ctx, _, _, _, _ in
            guard let ctx else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(ctx).takeUnretainedValue().watchdog() ? 0 : 1
        }
    }

    deinit {
        if let h = handle { ccurl_easy_cleanup(h) }
        if let l = headerList { ccurl_slist_free_all(l) }
    }

    private func onHeaderLine(_ raw: UnsafeRawBufferPointer) {
        lastByte = Date()
        let line = String(decoding: raw, as: UTF8.self).trimmedLines()
        if line.hasPrefix("HTTP/") {
            // A new response (after 100 Continue or a redirect) starts over.
            let parts = line.split(separator: " ")
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            responseHeaders = [:]
            headersDelivered = false
        } else if line.isEmpty {
            if status >= 200, !headersDelivered {
                headersDelivered = true
                sink.headers(status: status, headers: responseHeaders)
            }
        } else if let colon = line.firstIndex(of: ":") {
            responseHeaders[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmed()
        }
    }

    private func onData(_ chunk: UnsafeRawBufferPointer) -> SinkAnswer {
        lastByte = Date()
        if !headersDelivered {
            headersDelivered = true
            sink.headers(status: status, headers: responseHeaders)
        }
        let answer = sink.data(chunk)
        switch answer {
        case .stop: sinkStopped = true
        case .pause: paused = true
        case .take: break
        }
        return answer
    }

    /// The reader made room: libcurl hands over the chunk it kept, then goes on.
    func resume() {
        guard paused, let h = handle else { return }
        paused = false
        lastByte = Date()
        ccurl_easy_pause(h, CURLPAUSE_CONT)
    }

    /// Seconds until this transfer would count as stalled, if nothing came: the engine wakes
    /// for it then (and not every second). Nil while paused for the reader.
    var secondsToStall: Double? {
        paused || !idleTimeout.isFinite || idleTimeout <= 0 ? nil : idleTimeout - Date().timeIntervalSince(lastByte)
    }

    /// Called whenever libcurl works on the transfer, and at the latest when it would stall;
    /// false aborts a stalled transfer. A transfer
    /// paused for a slow reader is not stalled: the server is waiting on us.
    private func watchdog() -> Bool {
        if paused { lastByte = Date() }
        if Date().timeIntervalSince(lastByte) > idleTimeout {
            stalled = true
            return false
        }
        return true
    }

    func complete(_ code: CURLcode) {
        if code == CURLE_OK {
            if !headersDelivered { sink.headers(status: status, headers: responseHeaders) }
            sink.finished(nil)
            return
        }
        let buffered = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let detail = buffered.isEmpty ? String(validatingCString: ccurl_easy_strerror(code)) ?? "code \(code.rawValue)" : buffered
        let error: TransportError
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: error = .dns(detail)
        case CURLE_COULDNT_CONNECT: error = .refused(detail)
        case CURLE_OPERATION_TIMEDOUT: error = .timeout(detail)
        case CURLE_ABORTED_BY_CALLBACK where stalled: error = .stalled(idleTimeout)
        case CURLE_WRITE_ERROR where sinkStopped: error = .cancelled
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            error = .tls(detail)
        default: error = .other(code: Int(code.rawValue), detail)
        }
        sink.finished(error)
    }
}
