/// Splits a stream body into messages as bytes arrive, in whatever chunks the network delivers:
/// `delimited=length` framing (`<length>\r\n<length bytes>`) or one message per CRLF line.
/// Keep-alive blank lines are reported apart. A pure state machine: feed bytes, take events.
public struct StreamFramer: Sendable {
    /// What the framer found.
    public enum Event: Equatable, Sendable {
        /// One message's bytes (without its trailing CRLF), sharing the framer's buffer: use
        /// them before the next `feed`.
        case message(ArraySlice<UInt8>)
        /// A blank keep-alive line.
        case keepAlive
        /// A frame that cannot be read (a length line that is not a number); the framer skips to
        /// the next line and goes on.
        case malformed(String)
    }

    public enum Framing: Sendable { case delimited, lines }

    public let framing: Framing
    /// Largest message accepted; longer ones are reported malformed and skipped.
    public let maxMessageBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var expected: Int?

    public init(framing: Framing, maxMessageBytes: Int = 4 << 20) {
        self.framing = framing
        self.maxMessageBytes = maxMessageBytes
    }

    /// Bytes held waiting for the rest of a message.
    public var pendingByteCount: Int { buffer.count - start }

    /// Adds bytes and returns every complete event they finish.
    public mutating func feed<C: Collection>(_ bytes: C) -> [Event] where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        while let e = next() { events.append(e) }
        // Drop consumed bytes now and then, not on every call.
        if start > 65_536 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return events
    }

    private mutating func next() -> Event? {
        if let n = expected {
            guard buffer.count - start >= n else { return nil }
            var end = start + n
            // The length counts the message's own trailing CRLF.
            if n >= 2, buffer[end - 2] == 13, buffer[end - 1] == 10 { end -= 2 }
            let body = buffer[start..<end]
            start += n
            expected = nil
            return .message(body)
        }
        guard let lineEnd = findLineEnd() else {
            if buffer.count - start > maxMessageBytes {
                start = buffer.count
                return .malformed("a line longer than \(maxMessageBytes) bytes")
            }
            return nil
        }
        var line = buffer[start..<lineEnd]
        start = lineEnd + 1
        if line.last == 13 { line = line.dropLast() }
        let trimmed = line.drop { $0 == 32 }
        if trimmed.isEmpty { return .keepAlive }
        switch framing {
        case .lines:
            return .message(line)
        case .delimited:
            guard trimmed.allSatisfy({ $0 >= 48 && $0 <= 57 }), trimmed.count <= 10,
                let n = Int(String(decoding: trimmed, as: UTF8.self))
            else { return .malformed("expected a length line, got \(Self.preview(Array(line)))") }
            guard n <= maxMessageBytes else { return .malformed("a frame of \(n) bytes is over the limit") }
            expected = n
            return next()
        }
    }

    private func findLineEnd() -> Int? {
        var i = start
        while i < buffer.count {
            if buffer[i] == 10 { return i }
            i += 1
        }
        return nil
    }

    static func preview(_ bytes: [UInt8]) -> String {
        let s = String(decoding: bytes.prefix(24), as: UTF8.self)
        return "\"" + s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined() + "\""
    }
}
