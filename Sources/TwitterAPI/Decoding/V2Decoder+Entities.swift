/// A v2 post's entities, packed as they are read.
extension V2Decoder {
    /// Entities read straight into the packed layout (`Entities.packed()`), in the page's arena:
    /// the urls', then the mentions', then the hashtags' and cashtags' bytes; a URL carrying a
    /// `media_key` is a media link, kept apart for the join with `includes.media`.
    struct RawEntities: Sendable {
        /// Where the packed bytes lie in the arena, and where the urls' end (the mentions' begin).
        var packed = 0..<0
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
        func withPacking<R>(
            media: [Entities.Media], within length: Int, arena: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R
        ) -> R {
            guard reach > length else {
                return Entities.withPacking(
                    urls: Self.slice(arena, packed.lowerBound..<urlsEnd), urlCount: urlCount,
                    mentionsAndHashtags: Self.slice(arena, urlsEnd..<packed.upperBound),
                    mentionCount: mentionCount, hashtagCount: hashtagCount, media: media, body)
            }
            var e = entities(arena)
            e.urls.removeAll { $0.range.upperBound > length }
            e.mentions.removeAll { $0.range.upperBound > length }
            e.hashtags.removeAll { $0.range.upperBound > length }
            e.media = media
            return e.packed().withUnsafeBufferPointer(body)
        }

        private static func slice(_ arena: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: arena[r])
        }

        /// Unpacked, without media.
        func entities(_ arena: UnsafeBufferPointer<UInt8>) -> Entities {
            Entities(
                packed: Entities.packing(
                    urls: Self.slice(arena, packed.lowerBound..<urlsEnd), urlCount: urlCount,
                    mentionsAndHashtags: Self.slice(arena, urlsEnd..<packed.upperBound),
                    mentionCount: mentionCount, hashtagCount: hashtagCount, media: []))
        }
    }

    /// Reads a v2 `entities` object into `RawEntities`: each item's strings go from the document
    /// (or, escaped, from a pool) to its kind's packed bytes, so no `String` is made per entity
    /// (but a media link's). Owned by one decoder; its buffers keep their room from post to post.
    /// Its methods are `mutating`, though only its buffers change: a closure in a non-mutating
    /// one took a copy of the reader (a retain and release of each buffer per item).
    struct EntityReader {
        private let urls = ByteBuffer()
        private let mentions = ByteBuffer()
        private let hashtags = ByteBuffer()
        /// Escaped strings, each found by its place, until the next object.
        private let pool = ByteBuffer()

        /// Reads one `entities` object, its packed bytes written at the end of `arena`.
        mutating func read(_ r: inout JSONReader, into arena: ByteBuffer) throws -> RawEntities {
            var out = RawEntities()
            guard r.peek() == .object else {
                try r.skipValue()
                return out
            }
            // Room for the next post, unless one odd post grew a buffer past what posts need.
            urls.removeAll(keepingAtMost: 1 << 14)
            mentions.removeAll(keepingAtMost: 1 << 14)
            hashtags.removeAll(keepingAtMost: 1 << 14)
            pool.removeAll(keepingAtMost: 1 << 14)
            try r.readObject { r, kind in
                guard r.peek() == .array else { return try r.skipValue() }
                try r.readArray { r in try self.item(&r, kind, &out) }
            }
            let start = arena.count
            arena.append(urls.bytes)
            out.urlsEnd = arena.count
            arena.append(mentions.bytes)
            arena.append(hashtags.bytes)
            out.packed = start..<arena.count
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
            _ = try r.appendString(to: pool)
            return Piece(start: start, count: pool.count - start, pooled: true)
        }

        /// A piece's bytes (in the pool until its next append).
        private func bytes(_ piece: Piece, _ r: JSONReader) -> UnsafeBufferPointer<UInt8> {
            piece.pooled ? pool[piece.start..<piece.start + piece.count] : UnsafeBufferPointer(start: r.p + piece.start, count: piece.count)
        }

        private func text(_ piece: Piece, _ r: JSONReader) -> String {
            String(decoding: bytes(piece, r), as: UTF8.self)
        }

        /// A string into a kind's bytes as a `String` of it would hold them: invalid UTF-8
        /// replaced, so the bytes kept are those `Entities.packed()` writes. Valid text, in any
        /// script, is copied without making a `String`.
        private func put(_ piece: Piece, _ r: JSONReader, _ out: ByteBuffer) {
            let b = bytes(piece, r)
            if JSONReader.isValidUTF8(b) { return EntityPacker.put(b, out) }
            var repaired = String(decoding: b, as: UTF8.self)
            repaired.withUTF8 { EntityPacker.put($0, out) }
        }

        private mutating func item(_ r: inout JSONReader, _ kind: JSONKey, _ out: inout RawEntities) throws {
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
                    let link = Entities.Link(target: text(target, r), display: text(shown, r), range: range)
                    out.mediaLinks.append((text(mediaKey, r), link))
                    return
                }
                EntityPacker.span(range, urls)
                put(target, r, urls)
                put(shown, r, urls)
                out.urlCount += 1
            case "mentions":
                guard let username else { return }
                EntityPacker.span(range, mentions)
                mentions.appendLEB128(userID ?? 0)
                put(username, r, mentions)
                out.mentionCount += 1
            case "hashtags", "cashtags":
                guard let tag else { return }
                EntityPacker.span(range, hashtags)
                hashtags.appendLEB128(kind.equals("cashtags") ? 1 : 0)
                put(tag, r, hashtags)
                out.hashtagCount += 1
            default: return
            }
            out.reach = max(out.reach, e)
        }
    }
}
