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

}

extension PackReader {
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
            return String(decoding: short.prefix(max(0, number())) + ellipsis, as: UTF8.self)
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
