import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Limits on what one request may cost the simulator. Anything past them is answered with a
/// status and the connection closed, before the excess is read.
public struct SimHTTPLimits: Sendable {
    /// The request line (`GET /path?query HTTP/1.1`): 414 past it.
    public var requestLine = 8 * 1024
    /// The whole head, request line and headers: 431 past it.
    public var head = 64 * 1024
    public var headerCount = 100
    /// Seconds a connection may sit between requests (keep-alive).
    public var idleSeconds = 60.0
    /// Seconds from a request's first byte to its last (head and body): a slowloris client is
    /// cut off here.
    public var requestSeconds = 30.0
    public init() {}
}

/// A request head as read off the wire.
struct SimHTTPHead: Equatable, Sendable {
    var method: String
    var target: String
    var version: String
    /// Lower-cased names, in order; a repeated header keeps every value.
    var headers: [(String, String)]

    static func == (a: SimHTTPHead, b: SimHTTPHead) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version && a.headers.elementsEqual(b.headers, by: ==)
    }

    /// The last value of a header (names are lower-case).
    func header(_ name: String) -> String? { headers.last { $0.0 == name }?.1 }

    /// Whether the connection stays open after the answer (HTTP/1.1 unless `close`; 1.0 only
    /// with `keep-alive`).
    var keepAlive: Bool {
        let c = (header("connection") ?? "").lowercased()
        return version == "HTTP/1.0" ? c.contains("keep-alive") : !c.contains("close")
    }
}

/// Reads a request head from bytes as they arrive, looking at each byte once: the buffer is
/// scanned from where the last look stopped, so a head sent a byte at a time costs what a head
/// sent whole does.
struct SimHTTPHeadParser {
    enum Outcome: Equatable {
        case needMore
        /// The head, and how many bytes of the buffer it took.
        case head(SimHTTPHead, consumed: Int)
        case refuse(status: Int, reason: String)
    }

    let limits: SimHTTPLimits
    private var scanned = 0
    private var requestStart: Int?
    private var lineEnds: [Int] = []

    init(limits: SimHTTPLimits) { self.limits = limits }

    /// Looks at the bytes of `buffer` not seen yet; call again with the same buffer grown.
    mutating func parse(_ buffer: [UInt8]) -> Outcome {
        if requestStart == nil {
            // Blank lines before a request are allowed (RFC 9112 §2.2), a few of them.
            while scanned < buffer.count, buffer[scanned] == 0x0D || buffer[scanned] == 0x0A { scanned += 1 }
            if scanned > limits.requestLine { return .refuse(status: 400, reason: "Too many blank lines before the request.") }
            guard scanned < buffer.count else { return .needMore }
            requestStart = scanned
        }
        let lead = requestStart ?? 0
        while scanned < buffer.count {
            let b = buffer[scanned]
            scanned += 1
            guard b == 0x0A else { continue }
            lineEnds.append(scanned - 1)
            if lineEnds.count == 1, scanned - 1 - lead > limits.requestLine {
                return .refuse(status: 414, reason: "The request line is too long.")
            }
            if lineEnds.count > limits.headerCount + 2 { return .refuse(status: 431, reason: "Too many header lines.") }
            // A blank line ends the head.
            let start = lineEnds.count >= 2 ? lineEnds[lineEnds.count - 2] + 1 : lead
            let end = scanned - 1
            if end == start || (end == start + 1 && buffer[start] == 0x0D) {
                return finish(buffer, lead: lead, consumed: scanned)
            }
        }
        if lineEnds.isEmpty, buffer.count - lead > limits.requestLine {
            return .refuse(status: 414, reason: "The request line is too long.")
        }
        if buffer.count > limits.head { return .refuse(status: 431, reason: "The request head is too large.") }
        return .needMore
    }

    private func finish(_ buffer: [UInt8], lead: Int, consumed: Int) -> Outcome {
        if consumed > limits.head { return .refuse(status: 431, reason: "The request head is too large.") }
        var lines: [ArraySlice<UInt8>] = []
        var start = lead
        for end in lineEnds {
            var e = end
            if e > start, buffer[e - 1] == 0x0D { e -= 1 }
            lines.append(buffer[start..<e])
            start = end + 1
        }
        guard let first = lines.first else { return .refuse(status: 400, reason: "No request line.") }
        let parts = first.split(separator: 0x20, omittingEmptySubsequences: true)
        guard parts.count == 3 else { return .refuse(status: 400, reason: "The request line is malformed.") }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return .refuse(status: 505, reason: "Only HTTP/1.1 is spoken here.") }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: 0x3A) else { return .refuse(status: 400, reason: "A header line has no colon.") }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            guard !name.isEmpty, !name.contains(" "), !name.contains("\t") else {
                return .refuse(status: 400, reason: "A header name is malformed.")
            }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmed()
            headers.append((name, value))
        }
        let head = SimHTTPHead(
            method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self), version: version,
            headers: headers)
        return .head(head, consumed: consumed)
    }
}

/// Decodes a chunked request body as it arrives, refusing it as soon as it passes `limit`
/// (not after buffering it whole).
struct SimChunkedDecoder {
    enum Outcome: Equatable {
        case needMore
        case done(consumed: Int)
        case refuse(status: Int, reason: String)
    }

    let limit: Int
    private(set) var body: [UInt8] = []
    private var position = 0
    private enum Stage {
        case size
        case data(Int)
        case dataEnd, trailer
    }
    private var stage = Stage.size

    init(limit: Int) { self.limit = limit }

    /// Reads what it can of `buffer` (the bytes after the head); call again as it grows.
    mutating func feed(_ buffer: [UInt8]) -> Outcome {
        while true {
            switch stage {
            case .size:
                guard let nl = buffer[position...].firstIndex(of: 0x0A) else {
                    return buffer.count - position > 1024 ? .refuse(status: 400, reason: "A chunk size line is too long.") : .needMore
                }
                var line = buffer[position..<nl]
                if line.last == 0x0D { line = line.dropLast() }
                if let semi = line.firstIndex(of: 0x3B) { line = line[line.startIndex..<semi] }
                let hex = String(decoding: line, as: UTF8.self).trimmed()
                guard !hex.isEmpty, hex.count <= 8, let size = Int(hex, radix: 16) else {
                    return .refuse(status: 400, reason: "A chunk size is malformed.")
                }
                guard body.count + size <= limit else { return .refuse(status: 413, reason: "Request body too large.") }
                position = nl + 1
                stage = size == 0 ? .trailer : .data(size)
            case .data(let size):
                let take = min(size, buffer.count - position)
                body += buffer[position..<(position + take)]
                position += take
                if take < size {
                    stage = .data(size - take)
                    return .needMore
                }
                stage = .dataEnd
            case .dataEnd:
                guard let nl = buffer[position...].firstIndex(of: 0x0A) else {
                    return buffer.count - position > 2 ? .refuse(status: 400, reason: "A chunk does not end with CRLF.") : .needMore
                }
                position = nl + 1
                stage = .size
            case .trailer:
                // Trailer lines up to a blank one; their content is not used.
                guard let nl = buffer[position...].firstIndex(of: 0x0A) else {
                    return buffer.count - position > 8192 ? .refuse(status: 431, reason: "The trailer is too large.") : .needMore
                }
                let blank = nl == position || (nl == position + 1 && buffer[position] == 0x0D)
                position = nl + 1
                if blank { return .done(consumed: position) }
            }
        }
    }
}
