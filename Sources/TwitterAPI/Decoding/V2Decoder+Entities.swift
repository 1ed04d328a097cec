/// A v2 post's entities, packed as they are read.
extension V2Decoder {
    /// Entities read straight into the packed layout (`Entities.packed()`): the urls', then the
    /// mentions', then the hashtags' and cashtags' bytes; a URL carrying a `media_key` is a media
    /// link, kept apart for the join with `includes.media`.
    struct RawEntities {
        var bytes: [UInt8] = []
        /// Where the urls' bytes end (the mentions' begin).
        var urlsEnd = 0
        var urlCount = 0
        var mentionCount = 0
        var hashtagCount = 0
        /// The furthest end of any of them, in code points.
        var reach = 0
        var mediaLinks: [(key: String, link: Entities.Link)] = []

        var count: Int { urlCount + mentionCount + hashtagCount }

        /// These packed with `media` (`Entities.packed()`'s layout), less any entity that runs
        /// past a text of `length` code points.
        func withPacking<R>(media: [Entities.Media], within length: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            guard reach > length else {
                return Entities.withPacking(
                    urls: bytes[..<urlsEnd], urlCount: urlCount, mentionsAndHashtags: bytes[urlsEnd...],
                    mentionCount: mentionCount, hashtagCount: hashtagCount, media: media, body)
            }
            var e = entities
            e.urls.removeAll { $0.range.upperBound > length }
            e.mentions.removeAll { $0.range.upperBound > length }
            e.hashtags.removeAll { $0.range.upperBound > length }
            e.media = media
            return e.packed().withUnsafeBufferPointer(body)
        }

        /// Unpacked, without media.
        var entities: Entities {
            Entities(
                packed: Entities.packing(
                    urls: bytes[..<urlsEnd], urlCount: urlCount, mentionsAndHashtags: bytes[urlsEnd...], mentionCount: mentionCount,
                    hashtagCount: hashtagCount, media: []))
        }
    }

    /// Reads a v2 `entities` object into `RawEntities`: each item's strings go from the document
    /// (or, escaped, from a pool) to its kind's packed bytes, so no `String` is made per entity
    /// (but a media link's).
    struct EntityReader {
        private var urls: [UInt8] = []
        private var mentions: [UInt8] = []
        private var hashtags: [UInt8] = []
        private var pool: [UInt8] = []
        private var out = RawEntities()

        /// Reads one `entities` object. The reader is used again for the next one (the decoder
        /// keeps it), so its arrays keep their room and appending rarely allocates.
        mutating func read(_ r: inout JSONReader) throws -> RawEntities {
            out = RawEntities()
            guard r.peek() == .object else {
                try r.skipValue()
                return out
            }
            // Room kept for the next post, unless one odd post grew it past what posts need.
            let keep = urls.capacity + mentions.capacity + hashtags.capacity + pool.capacity <= 1 << 16
            urls.removeAll(keepingCapacity: keep)
            mentions.removeAll(keepingCapacity: keep)
            hashtags.removeAll(keepingCapacity: keep)
            // Escaped strings pile up in the pool, each found by its place, until the next object.
            pool.removeAll(keepingCapacity: keep)
            try r.readObject { r, kind in
                guard r.peek() == .array else { return try r.skipValue() }
                try r.readArray { r in try self.item(&r, kind) }
            }
            out.urlsEnd = urls.count
            let total = urls.count + mentions.count + hashtags.count
            if total > 0 {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(total)
                bytes.append(contentsOf: urls)
                bytes.append(contentsOf: mentions)
                bytes.append(contentsOf: hashtags)
                out.bytes = bytes
            }
            return out
        }

        /// Where an item's string lies: in the document when it has no escape (the usual
        /// case: copied once, into its kind's bytes), else unescaped in the pool.
        private struct Piece {
            let start: Int
            let count: Int
            let pooled: Bool
        }

        /// A string field: where it lies, or nil when it is not a string.
        private mutating func string(_ r: inout JSONReader) throws -> Piece? {
            guard r.peek() == .string else {
                try r.skipValue()
                return nil
            }
            if let plain = try r.plainString() { return Piece(start: plain.lowerBound, count: plain.count, pooled: false) }
            let start = pool.count
            _ = try r.appendString(to: &pool)
            return Piece(start: start, count: pool.count - start, pooled: true)
        }

        /// A piece's bytes, lent to `body`.
        private static func bytes<R>(
            _ piece: Piece, _ pool: [UInt8], _ r: JSONReader, _ body: (UnsafeBufferPointer<UInt8>) -> R
        ) -> R {
            guard piece.pooled else { return body(UnsafeBufferPointer(start: r.p + piece.start, count: piece.count)) }
            return pool.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[piece.start..<piece.start + piece.count])) }
        }

        private static func text(_ piece: Piece, _ pool: [UInt8], _ r: JSONReader) -> String {
            bytes(piece, pool, r) { String(decoding: $0, as: UTF8.self) }
        }

        /// A string into a kind's bytes as a `String` of it would hold them: invalid UTF-8
        /// replaced, so the bytes kept are those `Entities.packed()` writes. Valid text, in any
        /// script, is copied without making a `String`.
        /// Static, with the pool passed: a method of `self` called while one of its arrays is
        /// being appended to would copy the whole reader.
        private static func put(_ piece: Piece, _ pool: [UInt8], _ r: JSONReader, _ out: inout [UInt8]) {
            bytes(piece, pool, r) { bytes in
                if JSONReader.isValidUTF8(bytes) {
                    out.appendLEB128(UInt64(bytes.count))
                    out.append(contentsOf: bytes)
                } else {
                    EntityPacker.put(ArraySlice(String(decoding: bytes, as: UTF8.self).utf8), &out)
                }
            }
        }

        private mutating func item(_ r: inout JSONReader, _ kind: JSONKey) throws {
            guard r.peek() == .object else { return try r.skipValue() }
            var start: Int?
            var end: Int?
            var url: Piece?
            var expanded: Piece?
            var unwound: Piece?
            var display: Piece?
            var mediaKey: Piece?
            var username: Piece?
            var userID: UInt64?
            var tag: Piece?
            try r.readObject { r, key in
                switch key {
                case "start": start = try r.lenientInt()
                case "end": end = try r.lenientInt()
                case "url": url = try self.string(&r)
                case "expanded_url": expanded = try self.string(&r)
                case "unwound_url": unwound = try self.string(&r)
                case "display_url": display = try self.string(&r)
                case "media_key": mediaKey = try self.string(&r)
                case "username": username = try self.string(&r)
                case "id": userID = try r.lenientID()
                case "tag": tag = try self.string(&r)
                default: try r.skipValue()
                }
            }
            guard let s = start, let e = end, s >= 0, e >= s, e - s <= 100_000 else { return }
            let range = s..<e
            switch kind {
            case "urls":
                guard let target = unwound ?? expanded ?? url else { return }
                let shown = display ?? url ?? target
                if let mediaKey {
                    let link = Entities.Link(target: Self.text(target, pool, r), display: Self.text(shown, pool, r), range: range)
                    out.mediaLinks.append((Self.text(mediaKey, pool, r), link))
                    return
                }
                EntityPacker.span(range, &urls)
                Self.put(target, pool, r, &urls)
                Self.put(shown, pool, r, &urls)
                out.urlCount += 1
            case "mentions":
                guard let username else { return }
                EntityPacker.span(range, &mentions)
                mentions.appendLEB128(userID ?? 0)
                Self.put(username, pool, r, &mentions)
                out.mentionCount += 1
            case "hashtags", "cashtags":
                guard let tag else { return }
                EntityPacker.span(range, &hashtags)
                hashtags.appendLEB128(kind.equals("cashtags") ? 1 : 0)
                Self.put(tag, pool, r, &hashtags)
                out.hashtagCount += 1
            default: return
            }
            out.reach = max(out.reach, e)
        }
    }
}
