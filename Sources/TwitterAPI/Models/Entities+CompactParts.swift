import Glibc

/// What a held tweet's entities (`Entities.compact`) are written and read with.

/// Starts of URLs a held tweet leaves out, by number (0: none). Longer ones first where one
/// starts another.
let urlPrefixes: [[UInt8]] = [
    [], Array("https://pbs.twimg.com/media/".utf8), Array("https://pbs.twimg.com/ext_tw_video_thumb/".utf8),
    Array("https://pbs.twimg.com/tweet_video_thumb/".utf8), Array("https://www.".utf8), Array("http://www.".utf8),
    Array("https://".utf8), Array("http://".utf8),
]
let fileTypes = ["photo", "video", "animated_gif"]
let fileTypeBytes = fileTypes.map { Array($0.utf8) }
let tco = [Array("https://t.co/".utf8)]
let pictureHosts = [Array("pic.twitter.com/".utf8), Array("pic.x.com/".utf8)]
let pageHosts = [Array("https://twitter.com/".utf8), Array("https://x.com/".utf8)]
let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]

/// Whether `a` and `b` hold the same bytes.
@inline(__always) func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
}

/// Whether `bytes` begin with `start`.
@inline(__always) func begins(_ bytes: UnsafeBufferPointer<UInt8>, _ start: [UInt8]) -> Bool {
    bytes.count >= start.count && start.withUnsafeBufferPointer { same(UnsafeBufferPointer(rebasing: bytes[..<$0.count]), $0) }
}

/// `bytes` without the first of `starts` it begins with, and which (its index; `nil` if none).
func strip(_ bytes: UnsafeBufferPointer<UInt8>, _ starts: [[UInt8]]) -> (Int, UnsafeBufferPointer<UInt8>)? {
    for i in starts.indices where !starts[i].isEmpty && begins(bytes, starts[i]) {
        return (i, UnsafeBufferPointer(rebasing: bytes[starts[i].count...]))
    }
    return nil
}

let schemes = [Array("https://".utf8), Array("http://".utf8)]
let www = [Array("www.".utf8)]

/// A link's target as its display shows it: no scheme, no `www.`.
func shortened(_ target: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var s = target
    if let (_, rest) = strip(s, schemes) { s = rest }
    if let (_, rest) = strip(s, www) { s = rest }
    return s
}

/// The number written in `digits` as `"\(n)"` writes it (no sign, no leading zero), or nil.
func canonicalNumber(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
    guard !digits.isEmpty, digits.count <= 20, digits[0] != UInt8(ascii: "0") || digits.count == 1 else { return nil }
    var v: UInt64 = 0
    for d in digits {
        guard d &- UInt8(ascii: "0") < 10 else { return nil }
        let (m, o1) = v.multipliedReportingOverflow(by: 10)
        let (a, o2) = m.addingReportingOverflow(UInt64(d &- UInt8(ascii: "0")))
        guard !o1, !o2 else { return nil }
        v = a
    }
    return v
}

let statusPart = Array("/status/".utf8)
let kindParts = [Array("/photo/".utf8), Array("/video/".utf8)]

/// A page `https://host/name/status/id/kind/n` read into its parts (code, name, id, n), when
/// writing them back gives the same bytes.
func pageParts(_ s: UnsafeBufferPointer<UInt8>) -> (code: Int, name: UnsafeBufferPointer<UInt8>, status: UInt64, n: UInt64)? {
    guard let (host, rest) = strip(s, pageHosts), let slash = rest.firstIndex(of: UInt8(ascii: "/")), slash > 0 else { return nil }
    let name = UnsafeBufferPointer(rebasing: rest[..<slash])
    let after = UnsafeBufferPointer(rebasing: rest[slash...])
    guard begins(after, statusPart) else { return nil }
    let numbers = UnsafeBufferPointer(rebasing: after[statusPart.count...])
    guard let end = numbers.firstIndex(of: UInt8(ascii: "/")), let status = canonicalNumber(UnsafeBufferPointer(rebasing: numbers[..<end])),
        status > 0
    else { return nil }
    let tail = UnsafeBufferPointer(rebasing: numbers[end...])
    guard let (kind, last) = strip(tail, kindParts), let n = canonicalNumber(last) else { return nil }
    return (1 + host * 2 + kind, name, status, n)
}

/// A photo's or video's page, `https://host/name/status/id/kind/n`.
func pageAddress(code: Int, name: UnsafeBufferPointer<UInt8>, status: UInt64, number: UInt64) -> String {
    let host = String(decoding: pageHosts[(code - 1) / 2], as: UTF8.self)
    let kind = (code - 1) % 2 == 0 ? "photo" : "video"
    return host + String(decoding: name, as: UTF8.self) + "/status/\(status)/\(kind)/\(number)"
}

/// Byte places of code points in a tweet's text, found walking forward from the last place
/// asked (entities of a kind come in order).
struct CodePointCursor {
    let text: UnsafeBufferPointer<UInt8>
    var point = 0
    var byte = 0

    /// Bytes at the text's start that are ASCII: there code point n is byte n.
    let ascii: Int

    init(text: UnsafeBufferPointer<UInt8>) {
        self.text = text
        var a = 0
        if let base = text.baseAddress {
            while a + 8 <= text.count, UnsafeRawPointer(base + a).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { a += 8 }
            while a < text.count, text[a] < 0x80 { a += 1 }
        }
        // A stray continuation byte after them belongs to the code point before, as the walk
        // below counts.
        ascii = a < text.count && text[a] & 0xC0 == 0x80 ? max(0, a - 1) : a
    }

    /// The byte where code point `n` starts (the text's end for its length); nil past it.
    mutating func offset(_ n: Int) -> Int? {
        // A range made through the API may begin before the text.
        guard n >= 0 else { return nil }
        if n <= ascii {
            (point, byte) = (n, n)
            return n
        }
        if n < point || point < ascii { (point, byte) = (ascii, ascii) }
        // Eight bytes at a time while the place is past them: a code point starts at every
        // byte but a continuation (10xxxxxx).
        if let base = text.baseAddress {
            while byte + 8 <= text.count {
                let w = UInt64(littleEndian: UnsafeRawPointer(base + byte).loadUnaligned(as: UInt64.self))
                var starts = 8 - (w & ~(w << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
                // The text's first byte starts one whatever it is, as the walk below counts.
                if byte == 0, text[0] & 0xC0 == 0x80 { starts += 1 }
                guard point + starts < n else { break }
                point += starts
                byte += 8
                // The last code point may go on past the word.
                while byte < text.count, text[byte] & 0xC0 == 0x80 { byte += 1 }
            }
        }
        while point < n, byte < text.count {
            byte += 1
            while byte < text.count, text[byte] & 0xC0 == 0x80 { byte += 1 }
            point += 1
        }
        return point == n ? byte : nil
    }

    /// The text at `span`, less its first code point (the `@`, `#` or `$`).
    mutating func marked(_ span: Entities.Span) -> UnsafeBufferPointer<UInt8>? {
        guard span.start < span.end, let s = offset(Int(span.start)), let e = offset(Int(span.end)) else { return nil }
        var first = s + 1
        while first < e, text[first] & 0xC0 == 0x80 { first += 1 }
        return UnsafeBufferPointer(rebasing: text[first..<e])
    }

    /// The path of the t.co link at `span`.
    mutating func link(_ span: Entities.Span) -> UnsafeBufferPointer<UInt8>? {
        guard span.start <= span.end, let s = offset(Int(span.start)), let e = offset(Int(span.end)) else { return nil }
        return strip(UnsafeBufferPointer(rebasing: text[s..<e]), tco)?.1
    }
}
