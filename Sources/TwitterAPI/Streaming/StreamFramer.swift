import Glibc

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
    /// Largest message accepted (1 MiB by default; a v1.1 tweet is under 20 KB); a longer one
    /// is reported malformed and skipped without being held, so the framer never holds more
    /// than this plus one chunk (and a join's 64 KB kept for the next).
    public let maxMessageBytes: Int
    private var buffer: [UInt8] = []
    /// The storage the last message split across chunks was joined in, kept to join the next
    /// (up to 64 KB): a fresh one each time was a malloc and a free of kilobytes, written cold.
    private var spare: [UInt8] = []
    /// Whether `buffer` is such a join rather than a chunk the caller handed over.
    private var joined = false
    private var start = 0
    /// Where the search for the end of the current line goes on (each byte is looked at once).
    private var scanned = 0
    private var expected: Int?
    /// Inside a line that was too long: its bytes are dropped up to the next line feed.
    private var skippingLine = false
    /// Bytes of an oversized delimited frame still to be dropped.
    private var skipping = 0

    public init(framing: Framing, maxMessageBytes: Int = 1 << 20) {
        self.framing = framing
        self.maxMessageBytes = maxMessageBytes
    }

    /// Bytes held waiting for the rest of a message.
    public var pendingByteCount: Int { buffer.count - start }

    /// Adds bytes and returns every complete event they finish.
    public mutating func feed<C: Collection>(_ bytes: C) -> [Event] where C.Element == UInt8 {
        // Contiguous bytes (arrays, slices, Data) go through one non-generic path: copied in
        // element by element through the generic one, they cost more than decoding them.
        if let events = bytes.withContiguousStorageIfAvailable({ feed(buffer: $0) }) { return events }
        return Array(bytes).withUnsafeBufferPointer { feed(buffer: $0) }
    }

    /// A chunk as the network layer hands it over. Only the bytes that finish a part-read
    /// message join the buffer; then the chunk itself becomes the buffer, so the messages
    /// wholly inside it are slices of it, not copies.
    public mutating func feed(_ chunk: [UInt8]) -> [Event] {
        var events: [Event] = []
        // Room for the messages a chunk usually finishes (growing one by one reallocated four times).
        events.reserveCapacity(min(64, chunk.count / 1_024 + 1))
        var at = 0
        if start > 0, start < buffer.count {
            // The part-read message moves to a buffer of its own, room made for the rest of it:
            // what was read before it in the last chunk is not copied.
            var pending: [UInt8] = []
            swap(&pending, &spare)
            // Reused in place once the caller has let go of the messages it was lent.
            pending.removeAll(keepingCapacity: true)
            pending.reserveCapacity(max(expected ?? 0, buffer.count - start))
            pending.append(contentsOf: buffer[start...])
            scanned -= start
            start = 0
            buffer = pending
            joined = true
        }
        while start < buffer.count || skipping > 0 || skippingLine {
            guard at < chunk.count else { return events }
            if skipping > 0 || skippingLine { return events + chunk[at...].withUnsafeBufferPointer { feed(buffer: $0) } }
            let take: Int
            if let n = expected {
                take = min(n - (buffer.count - start), chunk.count - at)
            } else if let lf = chunk[at...].firstIndex(of: 10) {
                take = lf - at + 1
            } else {
                take = chunk.count - at
            }
            events += chunk[at..<at + take].withUnsafeBufferPointer { feed(buffer: $0) }
            at += take
        }
        guard at < chunk.count else { return events }
        if joined, buffer.capacity <= 65_536 { swap(&buffer, &spare) }
        buffer = chunk
        joined = false
        start = at
        scanned = at
        while let e = next() { events.append(e) }
        return events
    }

    private mutating func feed(buffer bytes: UnsafeBufferPointer<UInt8>) -> [Event] {
        var events: [Event] = []
        var input = bytes[...]
        if skipping > 0 {
            let n = min(skipping, input.count)
            input = input.dropFirst(n)
            skipping -= n
            if skipping > 0 { return [] }
        }
        if skippingLine {
            guard let lf = input.firstIndex(of: 10) else { return [] }
            input = input[input.index(after: lf)...]
            skippingLine = false
        }
        // Consumed bytes are dropped now and then, and here rather than after the messages are
        // handed out: while the caller holds them, they share the buffer, and changing it would copy it.
        if start > 65_536 || start == buffer.count {
            // What is left (less than a chunk and a message) moves to the front with one memmove.
            let left = buffer.count - start
            buffer.withUnsafeMutableBytes { b in
                if left > 0 { _ = memmove(b.baseAddress!, b.baseAddress! + start, left) }
            }
            buffer.removeLast(start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: input))
        while let e = next() { events.append(e) }
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
                scanned = start
                skippingLine = true
                return .malformed("a line longer than \(maxMessageBytes) bytes")
            }
            return nil
        }
        // The line by its bounds, not as slices of slices (a slice each, a fifth of framing).
        let begin = start
        var end = lineEnd
        start = lineEnd + 1
        scanned = start
        // A whole line can arrive in one chunk: it is held to the same bound.
        if end - begin > maxMessageBytes + 1 { return .malformed("a line longer than \(maxMessageBytes) bytes") }
        if end > begin, buffer[end - 1] == 13 { end -= 1 }
        var first = begin
        while first < end, buffer[first] == 32 { first += 1 }
        if first == end { return .keepAlive }
        switch framing {
        case .lines:
            return .message(buffer[begin..<end])
        case .delimited:
            guard let n = Self.length(buffer[first..<end]) else {
                return .malformed("expected a length line, got \(Self.preview(Array(buffer[begin..<end])))")
            }
            guard n <= maxMessageBytes else {
                // Its bytes are dropped as they come, so the next frame is found again.
                let held = min(n, buffer.count - start)
                start += held
                scanned = start
                skipping = n - held
                return .malformed("a frame of \(n) bytes is over the \(maxMessageBytes)-byte limit")
            }
            expected = n
            return next()
        }
    }

    /// The next line feed, found with `memchr` (a v2 stream's message is a line of kilobytes).
    private mutating func findLineEnd() -> Int? {
        let from = max(start, scanned)
        let found = buffer.withUnsafeBufferPointer { b -> Int? in
            guard let base = b.baseAddress, from < b.count, let at = memchr(base + from, 10, b.count - from) else { return nil }
            return base.distance(to: at.assumingMemoryBound(to: UInt8.self))
        }
        if found == nil { scanned = buffer.count }
        return found
    }

    /// A delimited frame's length line: one to ten digits and nothing else (a `String` made to
    /// read it was a sixth of framing a message).
    static func length(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 10 else { return nil }
        var n = 0
        for d in digits {
            guard d &- 48 < 10 else { return nil }
            n = n &* 10 &+ Int(d &- 48)
        }
        return n
    }

    static func preview(_ bytes: [UInt8]) -> String {
        let s = String(decoding: bytes.prefix(24), as: UTF8.self)
        return "\"" + s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined() + "\""
    }
}
