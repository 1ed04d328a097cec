/// A tweet's entities as one byte array, the way a stored tweet keeps them: four arrays of
/// structs of strings cost an allocation per array and per long string (a t.co link's target
/// and display alone two), about as much again as the bytes themselves. Read back when asked.
///
/// Layout: four counts, then each entity's numbers (LEB128) and strings (length, then UTF-8);
/// then, only when a video says how long it is, the media count again and each one's length
/// in milliseconds (a packing without them, as cache format 6 kept, still reads).
extension Entities {
    /// These entities packed; empty (and no allocation) when there are none.
    func packed() -> [UInt8] {
        guard !isEmpty else { return [] }
        var w = PackWriter()
        w.number(UInt64(urls.count))
        w.number(UInt64(media.count))
        w.number(UInt64(mentions.count))
        w.number(UInt64(hashtags.count))
        for u in urls {
            w.span(u.span)
            w.string(u.target)
            w.string(u.display)
        }
        for m in media { w.media(m) }
        for m in mentions {
            w.span(m.span)
            w.number(m.userID?.rawValue ?? 0)
            w.string(m.screenName)
        }
        for h in hashtags {
            w.span(h.span)
            w.number(h.isSymbol ? 1 : 0)
            w.string(h.text)
        }
        w.durations(media)
        return exactCopy(w.bytes)
    }

    /// urls, mentions and hashtags already packed, with `media`, in `packed()`'s layout. The
    /// v2 decoder packs the first three as it reads a post and its media when they are joined
    /// from `includes`.
    static func packing(
        urls: UnsafeBufferPointer<UInt8>, urlCount: Int, mentionsAndHashtags: UnsafeBufferPointer<UInt8>, mentionCount: Int,
        hashtagCount: Int, media: [Media]
    ) -> [UInt8] {
        withPacking(
            urls: urls, urlCount: urlCount, mentionsAndHashtags: mentionsAndHashtags, mentionCount: mentionCount,
            hashtagCount: hashtagCount, media: media
        ) { Array($0) }
    }

    /// The same packing lent to `body` from a temporary buffer (on the stack when small): a
    /// post made from it copies it anyway.
    static func withPacking<R>(
        urls: UnsafeBufferPointer<UInt8>, urlCount: Int, mentionsAndHashtags: UnsafeBufferPointer<UInt8>, mentionCount: Int,
        hashtagCount: Int, media: [Media], _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        guard urlCount + media.count + mentionCount + hashtagCount > 0 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        let counts = (UInt64(urlCount), UInt64(media.count), UInt64(mentionCount), UInt64(hashtagCount))
        let countBytes = lebLength(counts.0) + lebLength(counts.1) + lebLength(counts.2) + lebLength(counts.3)
        // Media, rare, are written apart first, to know the whole size.
        var files = PackWriter()
        var trailer = PackWriter()
        for m in media { files.media(m) }
        trailer.durations(media)
        let total = countBytes + urls.count + files.bytes.count + mentionsAndHashtags.count + trailer.bytes.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { buffer in
            var at = 0
            writeLEB128(counts.0, buffer, &at)
            writeLEB128(counts.1, buffer, &at)
            writeLEB128(counts.2, buffer, &at)
            writeLEB128(counts.3, buffer, &at)
            copyBytes(urls, buffer, &at)
            files.bytes.withUnsafeBufferPointer { copyBytes($0, buffer, &at) }
            copyBytes(mentionsAndHashtags, buffer, &at)
            trailer.bytes.withUnsafeBufferPointer { copyBytes($0, buffer, &at) }
            assert(at == total, "the packing's size was counted wrong")
            return body(UnsafeBufferPointer(rebasing: buffer[..<at]))
        }
    }

    /// Entities from `packed()`'s bytes.
    init(packed bytes: [UInt8]) { self.init(packed: bytes[...]) }

    init(packed bytes: ArraySlice<UInt8>) {
        self.init()
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { b in
            var r = PackReader(bytes: b)
            let counts = (r.number(), r.number(), r.number(), r.number())
            urls.reserveCapacity(counts.0)
            for _ in 0..<counts.0 {
                let span = r.span()
                urls.append(Link(target: r.string(), display: r.string(), range: span.range))
            }
            media.reserveCapacity(counts.1)
            for _ in 0..<counts.1 {
                let span = r.span()
                let (w, h) = (r.number(), r.number())
                media.append(
                    Media(
                        type: r.string(), target: r.string(), display: r.string(), mediaURL: r.optionalString(), range: span.range,
                        width: w, height: h, altText: r.optionalString()))
            }
            mentions.reserveCapacity(counts.2)
            for _ in 0..<counts.2 {
                let span = r.span()
                let id = r.unsigned()
                mentions.append(Mention(screenName: r.string(), userID: id == 0 ? nil : UserID(id), range: span.range))
            }
            hashtags.reserveCapacity(counts.3)
            for _ in 0..<counts.3 {
                let span = r.span()
                let symbol = r.number() == 1
                hashtags.append(Hashtag(text: r.string(), isSymbol: symbol, range: span.range))
            }
            guard r.at < b.count else { return }
            for i in 0..<min(max(0, r.number()), media.count) { media[i].durationMs = UInt32(clamping: r.unsigned()) }
        }
    }
}

extension Entities {
    /// Whether `bytes` are a packing `init(packed:)` reads within its bounds, with spans that
    /// are ranges: bytes from a file are checked before a tweet keeps them.
    package static func isWellFormedPacking(_ bytes: [UInt8]) -> Bool { isWellFormedPacking(bytes[...]) }

    package static func isWellFormedPacking(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return true }
        return bytes.withUnsafeBufferPointer { b in
            var c = PackChecker(bytes: b)
            guard let urls = c.count(), let media = c.count(), let mentions = c.count(), let hashtags = c.count() else { return false }
            // After each span, the fields `packed()` writes, in its order.
            for _ in 0..<urls where !(c.span() && c.string() && c.string()) { return false }
            for _ in 0..<media
            where
                !(c.span() && c.number() && c.number() && c.string() && c.string() && c.string() && c.optionalString()
                && c.optionalString())
            {
                return false
            }
            for _ in 0..<mentions where !(c.span() && c.number() && c.string()) { return false }
            for _ in 0..<hashtags where !(c.span() && c.number() && c.string()) { return false }
            if c.at < b.count {
                guard c.unsigned() == UInt64(media) else { return false }
                for _ in 0..<media where !c.number() { return false }
            }
            return c.at == b.count
        }
    }
}

/// Walks a packing the way `PackReader` does, refusing at the first read past the end.
struct PackChecker {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    /// Inlined for one-byte numbers, most of a packing's (a call each was a fifth of loading a cache).
    @inline(__always) mutating func unsigned() -> UInt64? {
        if at < bytes.count, bytes[at] < 0x80 {
            at += 1
            return UInt64(bytes[at - 1])
        }
        return longUnsigned()
    }

    private mutating func longUnsigned() -> UInt64? {
        guard at < bytes.count, let base = bytes.baseAddress else { return nil }
        let (v, length) = readLEB128(base + at, available: bytes.count - at)
        guard length > 0 else { return nil }
        at += length
        return v
    }

    mutating func number() -> Bool { unsigned() != nil }

    /// A count no larger than the bytes left (each entity takes at least one).
    mutating func count() -> Int? {
        guard let n = unsigned(), n <= bytes.count - at else { return nil }
        return Int(n)
    }

    mutating func span() -> Bool {
        guard let s = unsigned(), let e = unsigned(), s <= e, e <= UInt64(Int32.max) else { return false }
        return true
    }

    mutating func string() -> Bool {
        guard let n = unsigned(), n <= bytes.count - at else { return false }
        at += Int(n)
        return true
    }

    /// Absent is 0, present its length + 1.
    mutating func optionalString() -> Bool {
        guard let n = unsigned(), n == 0 || n - 1 <= bytes.count - at else { return false }
        at += n == 0 ? 0 : Int(n - 1)
        return true
    }
}

/// Bytes `appendLEB128` writes for `v`.
@inline(__always) func lebLength(_ v: UInt64) -> Int {
    (64 - v.leadingZeroBitCount + 6) / 7 + (v == 0 ? 1 : 0)
}

@inline(__always) func writeLEB128(_ value: UInt64, _ to: UnsafeMutableBufferPointer<UInt8>, _ at: inout Int) {
    var v = value
    while v >= 0x80 {
        to[at] = UInt8(truncatingIfNeeded: v) | 0x80
        v >>= 7
        at += 1
    }
    to[at] = UInt8(v)
    at += 1
}

@inline(__always) func copyBytes(_ from: UnsafeBufferPointer<UInt8>, _ to: UnsafeMutableBufferPointer<UInt8>, _ at: inout Int) {
    guard let base = from.baseAddress, from.count > 0, let dest = to.baseAddress else { return }
    (dest + at).initialize(from: base, count: from.count)
    at += from.count
}

private struct PackWriter {
    var bytes: [UInt8] = []

    mutating func number(_ v: UInt64) { bytes.appendLEB128(v) }

    mutating func media(_ m: Entities.Media) {
        span(m.span)
        number(UInt64(max(0, m.width)))
        number(UInt64(max(0, m.height)))
        string(m.type)
        string(m.target)
        string(m.display)
        optionalString(m.mediaURL)
        optionalString(m.altText)
    }

    /// The trailer: the media count again and each one's length, only when one is known.
    mutating func durations(_ media: [Entities.Media]) {
        guard media.contains(where: { $0.durationMs > 0 }) else { return }
        number(UInt64(media.count))
        for m in media { number(UInt64(m.durationMs)) }
    }

    mutating func span(_ s: Entities.Span) {
        number(UInt64(UInt32(bitPattern: s.start)))
        number(UInt64(UInt32(bitPattern: s.end)))
    }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { u in
            number(UInt64(u.count))
            bytes.append(contentsOf: u)
        }
    }

    /// Absent is written as length 0 with a marker 0, present as length + 1.
    mutating func optionalString(_ s: String?) {
        guard var s else { return number(0) }
        s.withUTF8 { u in
            number(UInt64(u.count) + 1)
            bytes.append(contentsOf: u)
        }
    }
}

/// Reads what `PackWriter` wrote; the bytes are Linnet's own, so they are trusted.
struct PackReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    mutating func number() -> Int { Int(truncatingIfNeeded: unsigned()) }

    @inline(__always) mutating func unsigned() -> UInt64 {
        // Most numbers (counts, lengths, ranges) take one byte.
        if bytes[at] < 0x80 {
            at += 1
            return UInt64(bytes[at - 1])
        }
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = bytes[at]
            at += 1
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
    }

    mutating func span() -> Entities.Span {
        let start = Int32(bitPattern: UInt32(truncatingIfNeeded: unsigned()))
        let end = Int32(bitPattern: UInt32(truncatingIfNeeded: unsigned()))
        return Entities.Span(start: start, end: end)
    }

    /// The next `n` bytes, in place.
    mutating func take(_ n: Int) -> UnsafeBufferPointer<UInt8> {
        defer { at += n }
        return UnsafeBufferPointer(rebasing: bytes[at..<at + n])
    }

    /// A string's bytes in place.
    mutating func stringBytes() -> UnsafeBufferPointer<UInt8> { take(number()) }

    mutating func string() -> String { String(decoding: stringBytes(), as: UTF8.self) }

    mutating func optionalString() -> String? {
        let n = number()
        return n > 0 ? String(decoding: take(n - 1), as: UTF8.self) : nil
    }
}

/// Reads a LEB128 number of at most ten bytes from `p[0..<available]`: its value and length,
/// or length 0 when it does not end within those (too long, or cut short). Eight bytes are
/// taken as one word where there are eight: the stop byte found by its clear high bit, the
/// seven-bit groups packed in three steps, so an id's nine bytes are not a loop of nine.
package func readLEB128(_ p: UnsafePointer<UInt8>, available: Int) -> (value: UInt64, length: Int) {
    let limit = min(available, 10)
    var value: UInt64 = 0
    var i = 0
    if limit >= 8 {
        let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        let stops = ~word & 0x8080_8080_8080_8080
        // Up to and including the first stop byte's high bit (all of it when there is none).
        var x = word & (stops ^ (stops &- 1)) & 0x7F7F_7F7F_7F7F_7F7F
        x = (x & 0x007F_007F_007F_007F) | ((x & 0x7F00_7F00_7F00_7F00) >> 1)
        x = (x & 0x0000_3FFF_0000_3FFF) | ((x & 0x3FFF_0000_3FFF_0000) >> 2)
        x = (x & 0x0000_0000_0FFF_FFFF) | ((x & 0x0FFF_FFFF_0000_0000) >> 4)
        if stops != 0 { return (x, (stops.trailingZeroBitCount + 1) / 8) }
        value = x
        i = 8
    }
    while i < limit {
        let b = p[i]
        value |= UInt64(b & 0x7F) << UInt64(7 * i)
        i += 1
        if b < 0x80 { return (value, i) }
    }
    return (0, 0)
}

extension [UInt8] {
    /// Appends `v` as LEB128: seven bits a byte, low first, the high bit set on all but the last.
    /// Shared with the timeline cache's writer.
    package mutating func appendLEB128(_ v: UInt64) {
        var x = v
        while x >= 0x80 {
            append(UInt8(x & 0x7F) | 0x80)
            x >>= 7
        }
        append(UInt8(x))
    }
}
