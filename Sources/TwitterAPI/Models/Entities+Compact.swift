import Glibc

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
    /// These entities as a tweet of `text` and `id` keeps them.
    package func compacted(text: [UInt8], id: TweetID) -> [UInt8] {
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
        // Videos' lengths; a packing may end with an empty list of them, which says nothing.
        if counts.1 > 0 { w.copy(UnsafeBufferPointer(rebasing: packed[r.at...])) }
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

/// Writes into a buffer that has room (see `Entities.compact`).
private struct RawWriter {
    let to: UnsafeMutableBufferPointer<UInt8>
    var at = 0

    mutating func number(_ v: UInt64) { writeLEB128(v, to, &at) }

    mutating func copy(_ b: UnsafeBufferPointer<UInt8>) { copyBytes(b, to, &at) }

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
        if same(s, short) { return number(0) }
        let cut = s.count - 3
        if cut >= 0, cut < short.count, ellipsis.withUnsafeBufferPointer({ same(UnsafeBufferPointer(rebasing: s[cut...]), $0) }),
            same(UnsafeBufferPointer(rebasing: s[..<cut]), UnsafeBufferPointer(rebasing: short[..<cut]))
        {
            number(1)
            return number(UInt64(s.count - 3))
        }
        number(UInt64(s.count) + 2)
        copy(s)
    }

    mutating func fileType(_ s: UnsafeBufferPointer<UInt8>) {
        either(s, codes: 3) { s in fileTypeBytes.firstIndex { t in t.withUnsafeBufferPointer { same($0, s) } }.map(UInt64.init) }
    }

    mutating func said(_ s: UnsafeBufferPointer<UInt8>, _ marked: UnsafeBufferPointer<UInt8>?) {
        either(s, codes: 1) { s in marked.map { same(s, $0) } == true ? 0 : nil }
    }

    mutating func picture(_ s: UnsafeBufferPointer<UInt8>, link: UnsafeBufferPointer<UInt8>?) {
        either(s, codes: 2) { s in
            guard let link, let (host, path) = strip(s, pictureHosts), same(path, link) else { return nil }
            return UInt64(host)
        }
    }

    /// A page `https://host/name/status/id/kind/n` as its parts, else as it is.
    mutating func page(_ s: UnsafeBufferPointer<UInt8>, id: TweetID) {
        guard let (code, name, status, n) = pageParts(s) else {
            number(0)
            number(UInt64(s.count))
            return copy(s)
        }
        number(UInt64(code))
        number(UInt64(name.count))
        copy(name)
        number(status == id.rawValue ? 0 : status)
        number(n)
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
        // A cut is within a link's target, which is far shorter than 2^31 bytes.
        if code == 1 { return unsigned().map { $0 <= UInt64(Int32.max) } ?? false }
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
