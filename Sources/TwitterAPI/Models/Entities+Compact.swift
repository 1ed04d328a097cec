/// How a held tweet keeps its entities: `packed()`'s layout, but a string the tweet already
/// says is written as a code. A mention's name and a hashtag are the text at their range (less
/// the `@` or `#`), a photo's page is the tweet's own address, a link's display is its target
/// shortened. Each code is written only when reading it back gives the same bytes, so nothing
/// changes; other strings stay as they came. At a million tweets this is about 96 bytes a tweet
/// of the fixture's 163 (DECISIONS.md).
///
/// Fields that differ from `packed()`:
/// - a link's target: a URL (below); its display: 0 the target without scheme and `www.`,
///   1 that cut to `k` bytes (`k` follows) and `…`, else the string with its length + 2;
/// - a file's type: 0 `photo`, 1 `video`, 2 `animated_gif`, else its length + 3; its page: 0
///   then the string, or 1 to 4 (twitter.com or x.com, photo or video), the author's name, the
///   post's id (0: this tweet's) and the file's number, for `https://host/name/status/id/kind/n`;
///   its display: 0 `pic.twitter.com/` or 1 `pic.x.com/` with the path of the t.co link at its
///   range, else its length + 2; its file: absent 0, else 1 + a URL;
/// - a mention's name and a hashtag's text: 0 the text at its range less its first code point,
///   else the length + 1.
/// A URL is its length × 8 plus the number of a known start it leaves out (`urlPrefixes`).
extension Entities {
    /// Entities from a held tweet's bytes, its text and id.
    package init(compacted bytes: UnsafeBufferPointer<UInt8>, text: UnsafeBufferPointer<UInt8>, id: TweetID) {
        self.init()
        guard !bytes.isEmpty else { return }
        var r = PackReader(bytes: bytes)
        var t = CodePointCursor(text: text)
        let counts = (r.number(), r.number(), r.number(), r.number())
        urls.reserveCapacity(counts.0)
        for _ in 0..<counts.0 {
            let span = r.span()
            let target = r.url()
            urls.append(Link(target: String(decoding: target, as: UTF8.self), display: r.display(of: target), range: span.range))
        }
        media.reserveCapacity(counts.1)
        for _ in 0..<counts.1 {
            let span = r.span()
            let (w, h) = (r.number(), r.number())
            let type = r.fileType()
            let target = r.page(id: id)
            let display = r.picture(t.link(span))
            let file = r.number()
            let mediaURL = file == 0 ? nil : String(decoding: r.url(header: UInt64(file - 1)), as: UTF8.self)
            media.append(
                Media(
                    type: type, target: target, display: display, mediaURL: mediaURL, range: span.range, width: w, height: h,
                    altText: r.optionalString()))
        }
        mentions.reserveCapacity(counts.2)
        for _ in 0..<counts.2 {
            let span = r.span()
            let user = r.unsigned()
            mentions.append(Mention(screenName: r.said(t.marked(span)), userID: user == 0 ? nil : UserID(user), range: span.range))
        }
        hashtags.reserveCapacity(counts.3)
        for _ in 0..<counts.3 {
            let span = r.span()
            let symbol = r.number() == 1
            hashtags.append(Hashtag(text: r.said(t.marked(span)), isSymbol: symbol, range: span.range))
        }
        guard r.at < bytes.count else { return }
        for i in 0..<min(max(0, r.number()), media.count) { media[i].durationMs = UInt32(clamping: r.unsigned()) }
    }

    /// These entities as a tweet of `text` and `id` keeps them.
    package func compacted(text: ArraySlice<UInt8>, id: TweetID) -> [UInt8] {
        let packed = packed()
        return text.withUnsafeBufferPointer { t in
            packed.withUnsafeBufferPointer { p in
                [UInt8](unsafeUninitializedCapacity: 2 * p.count + 16) { out, n in n = Self.compact(p, text: t, id: id, into: out) }
            }
        }
    }

    /// `packed` (in `packed()`'s layout) written as a held tweet keeps it, into `out`, which
    /// has room for twice its bytes and 16 more; the bytes written.
    static func compact(
        _ packed: UnsafeBufferPointer<UInt8>, text: UnsafeBufferPointer<UInt8>, id: TweetID, into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        guard !packed.isEmpty else { return 0 }
        var r = PackReader(bytes: packed)
        var w = RawWriter(to: out)
        var t = CodePointCursor(text: text)
        let counts = (r.unsigned(), r.unsigned(), r.unsigned(), r.unsigned())
        w.number(counts.0)
        w.number(counts.1)
        w.number(counts.2)
        w.number(counts.3)
        for _ in 0..<counts.0 {
            w.span(r.span())
            let target = r.stringBytes()
            w.url(target)
            w.display(r.stringBytes(), of: target)
        }
        for _ in 0..<counts.1 {
            let span = r.span()
            w.span(span)
            w.number(r.unsigned())
            w.number(r.unsigned())
            w.fileType(r.stringBytes())
            w.page(r.stringBytes(), id: id)
            w.picture(r.stringBytes(), link: t.link(span))
            let file = r.unsigned()
            if file == 0 {
                w.number(0)
            } else {
                let bytes = r.take(Int(file - 1))
                w.url(bytes, plus: 1)
            }
            let alt = r.unsigned()
            w.number(alt)
            if alt > 0 { w.copy(r.take(Int(alt - 1))) }
        }
        for _ in 0..<counts.2 {
            let span = r.span()
            w.span(span)
            w.number(r.unsigned())
            w.said(r.stringBytes(), t.marked(span))
        }
        for _ in 0..<counts.3 {
            let span = r.span()
            w.span(span)
            w.number(r.unsigned())
            w.said(r.stringBytes(), t.marked(span))
        }
        w.copy(UnsafeBufferPointer(rebasing: packed[r.at...]))
        return w.at
    }

    /// Whether `bytes` are a held tweet's entities `init(compacted:text:id:)` reads within its
    /// bounds: bytes from a file are checked before a tweet keeps them.
    package static func isWellFormedCompaction(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return true }
        return bytes.withUnsafeBufferPointer { b in
            var c = PackChecker(bytes: b)
            guard let urls = c.count(), let media = c.count(), let mentions = c.count(), let hashtags = c.count() else { return false }
            for _ in 0..<urls where !(c.span() && c.url() && c.display()) { return false }
            for _ in 0..<media
            where
                !(c.span() && c.number() && c.number() && c.coded(3) && c.page() && c.coded(2) && c.optionalURL()
                && c.optionalString())
            {
                return false
            }
            for _ in 0..<mentions where !(c.span() && c.number() && c.coded(1)) { return false }
            for _ in 0..<hashtags where !(c.span() && c.number() && c.coded(1)) { return false }
            // Videos' lengths, written only when some file has one.
            if c.at < b.count {
                guard media > 0, c.unsigned() == UInt64(media) else { return false }
                for _ in 0..<media where !c.number() { return false }
            }
            return c.at == b.count
        }
    }
}

/// Starts of URLs a held tweet leaves out, by number (0: none). Longer ones first where one
/// starts another.
private let urlPrefixes: [[UInt8]] = [
    [], Array("https://pbs.twimg.com/media/".utf8), Array("https://pbs.twimg.com/ext_tw_video_thumb/".utf8),
    Array("https://pbs.twimg.com/tweet_video_thumb/".utf8), Array("https://www.".utf8), Array("http://www.".utf8),
    Array("https://".utf8), Array("http://".utf8),
]
private let fileTypes = ["photo", "video", "animated_gif"]
private let tco = Array("https://t.co/".utf8)
private let pictureHosts = [Array("pic.twitter.com/".utf8), Array("pic.x.com/".utf8)]
private let pageHosts = [Array("https://twitter.com/".utf8), Array("https://x.com/".utf8)]
private let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]

/// `bytes` without the first of `starts` it begins with, and which (its index; `nil` if none).
private func strip(_ bytes: UnsafeBufferPointer<UInt8>, _ starts: [[UInt8]]) -> (Int, UnsafeBufferPointer<UInt8>)? {
    for (i, p) in starts.enumerated() where !p.isEmpty && bytes.starts(with: p) {
        return (i, UnsafeBufferPointer(rebasing: bytes[p.count...]))
    }
    return nil
}

/// A link's target as its display shows it: no scheme, no `www.`.
private func shortened(_ target: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var s = target
    if let (_, rest) = strip(s, [Array("https://".utf8), Array("http://".utf8)]) { s = rest }
    if let (_, rest) = strip(s, [Array("www.".utf8)]) { s = rest }
    return s
}

/// A photo's or video's page, `https://host/name/status/id/kind/n`.
private func pageAddress(code: Int, name: UnsafeBufferPointer<UInt8>, status: UInt64, number: UInt64) -> String {
    let host = String(decoding: pageHosts[(code - 1) / 2], as: UTF8.self)
    let kind = (code - 1) % 2 == 0 ? "photo" : "video"
    return host + String(decoding: name, as: UTF8.self) + "/status/\(status)/\(kind)/\(number)"
}

/// Byte places of code points in a tweet's text, found walking forward from the last place
/// asked (entities of a kind come in order).
private struct CodePointCursor {
    let text: UnsafeBufferPointer<UInt8>
    var point = 0
    var byte = 0

    init(text: UnsafeBufferPointer<UInt8>) { self.text = text }

    /// The byte where code point `n` starts (the text's end for its length); nil past it.
    mutating func offset(_ n: Int) -> Int? {
        if n < point { (point, byte) = (0, 0) }
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
        return strip(UnsafeBufferPointer(rebasing: text[s..<e]), [tco])?.1
    }
}

/// Writes into a buffer that has room (see `Entities.compact`).
private struct RawWriter {
    let to: UnsafeMutableBufferPointer<UInt8>
    var at = 0

    mutating func number(_ v: UInt64) {
        var x = v
        while x >= 0x80 {
            to[at] = UInt8(truncatingIfNeeded: x) | 0x80
            x >>= 7
            at += 1
        }
        to[at] = UInt8(x)
        at += 1
    }

    mutating func copy(_ b: UnsafeBufferPointer<UInt8>) {
        guard let base = b.baseAddress, let dest = to.baseAddress, b.count > 0 else { return }
        (dest + at).initialize(from: base, count: b.count)
        at += b.count
    }

    mutating func span(_ s: Entities.Span) {
        number(UInt64(UInt32(bitPattern: s.start)))
        number(UInt64(UInt32(bitPattern: s.end)))
    }

    /// A string written as `code` when `derived` is it, else as its length + `codes`.
    mutating func either(_ s: UnsafeBufferPointer<UInt8>, codes: UInt64, _ derived: (UnsafeBufferPointer<UInt8>) -> UInt64?) {
        if let code = derived(s) { return number(code) }
        number(UInt64(s.count) + codes)
        copy(s)
    }

    mutating func url(_ s: UnsafeBufferPointer<UInt8>, plus: UInt64 = 0) {
        let (code, rest) = strip(s, urlPrefixes) ?? (0, s)
        number(UInt64(rest.count) * 8 + UInt64(code) + plus)
        copy(rest)
    }

    mutating func display(_ s: UnsafeBufferPointer<UInt8>, of target: UnsafeBufferPointer<UInt8>) {
        let short = shortened(target)
        if s.elementsEqual(short) { return number(0) }
        if s.count >= 3, s.count - 3 < short.count, s.suffix(3).elementsEqual(ellipsis),
            s.prefix(s.count - 3).elementsEqual(short.prefix(s.count - 3))
        {
            number(1)
            return number(UInt64(s.count - 3))
        }
        number(UInt64(s.count) + 2)
        copy(s)
    }

    mutating func fileType(_ s: UnsafeBufferPointer<UInt8>) {
        either(s, codes: 3) { s in fileTypes.firstIndex { $0.utf8.elementsEqual(s) }.map(UInt64.init) }
    }

    mutating func said(_ s: UnsafeBufferPointer<UInt8>, _ marked: UnsafeBufferPointer<UInt8>?) {
        either(s, codes: 1) { s in marked.map { s.elementsEqual($0) } == true ? 0 : nil }
    }

    mutating func picture(_ s: UnsafeBufferPointer<UInt8>, link: UnsafeBufferPointer<UInt8>?) {
        either(s, codes: 2) { s in
            guard let link, let (host, path) = strip(s, pictureHosts), path.elementsEqual(link) else { return nil }
            return UInt64(host)
        }
    }

    /// A page `https://host/name/status/id/kind/n`, checked by writing it back.
    mutating func page(_ s: UnsafeBufferPointer<UInt8>, id: TweetID) {
        if let (host, rest) = strip(s, pageHosts),
            let slash = rest.firstIndex(of: UInt8(ascii: "/")), slash > 0
        {
            let name = UnsafeBufferPointer(rebasing: rest[..<slash])
            let parts = rest[(slash + 1)...].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            if parts.count == 4, parts[0].elementsEqual("status".utf8), let status = UInt64(String(decoding: parts[1], as: UTF8.self)),
                status > 0, let kind = ["photo", "video"].firstIndex(where: { $0.utf8.elementsEqual(parts[2]) }),
                let n = UInt64(String(decoding: parts[3], as: UTF8.self))
            {
                let code = 1 + host * 2 + kind
                if s.elementsEqual(pageAddress(code: code, name: name, status: status, number: n).utf8) {
                    number(UInt64(code))
                    number(UInt64(name.count))
                    copy(name)
                    number(status == id.rawValue ? 0 : status)
                    return number(n)
                }
            }
        }
        number(0)
        number(UInt64(s.count))
        copy(s)
    }
}

extension PackReader {
    /// A string's bytes in place.
    mutating func stringBytes() -> UnsafeBufferPointer<UInt8> { take(number()) }

    mutating func take(_ n: Int) -> UnsafeBufferPointer<UInt8> {
        defer { at += n }
        return UnsafeBufferPointer(rebasing: self.bytes[at..<at + n])
    }

    fileprivate mutating func url(header: UInt64? = nil) -> [UInt8] {
        let h = header ?? unsigned()
        return urlPrefixes[Int(h % 8)] + take(Int(h / 8))
    }

    fileprivate mutating func display(of target: [UInt8]) -> String {
        let code = number()
        if code >= 2 { return String(decoding: take(code - 2), as: UTF8.self) }
        return target.withUnsafeBufferPointer { t in
            let short = shortened(t)
            guard code == 1 else { return String(decoding: short, as: UTF8.self) }
            return String(decoding: short.prefix(number()) + ellipsis, as: UTF8.self)
        }
    }

    fileprivate mutating func fileType() -> String {
        let code = number()
        return code < 3 ? fileTypes[code] : String(decoding: take(code - 3), as: UTF8.self)
    }

    fileprivate mutating func page(id: TweetID) -> String {
        let code = number()
        guard code > 0 else { return String(decoding: stringBytes(), as: UTF8.self) }
        let name = stringBytes()
        let status = unsigned()
        return pageAddress(code: code, name: name, status: status == 0 ? id.rawValue : status, number: unsigned())
    }

    fileprivate mutating func picture(_ link: UnsafeBufferPointer<UInt8>?) -> String {
        let code = number()
        if code >= 2 { return String(decoding: take(code - 2), as: UTF8.self) }
        return String(decoding: pictureHosts[code] + (link.map(Array.init) ?? []), as: UTF8.self)
    }

    fileprivate mutating func said(_ marked: UnsafeBufferPointer<UInt8>?) -> String {
        let code = number()
        guard code == 0 else { return String(decoding: take(code - 1), as: UTF8.self) }
        return marked.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}

extension PackChecker {
    /// A code below `codes`, or a string of the code's value less `codes` bytes.
    mutating func coded(_ codes: UInt64) -> Bool {
        guard let n = unsigned() else { return false }
        guard n >= codes else { return true }
        return skip(n - codes)
    }

    mutating func url() -> Bool {
        guard let h = unsigned() else { return false }
        return skip(h / 8)
    }

    mutating func optionalURL() -> Bool {
        guard let h = unsigned() else { return false }
        return h == 0 || skip((h - 1) / 8)
    }

    mutating func display() -> Bool {
        guard let code = unsigned() else { return false }
        if code == 1 { return number() }
        return code == 0 || skip(code - 2)
    }

    mutating func page() -> Bool {
        guard let code = unsigned(), code <= 4 else { return false }
        guard code > 0 else { return string() }
        return string() && number() && number()
    }

    mutating func skip(_ n: UInt64) -> Bool {
        guard n <= bytes.count - at else { return false }
        at += Int(n)
        return true
    }
}
