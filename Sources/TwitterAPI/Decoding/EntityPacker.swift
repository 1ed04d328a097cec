/// A v1.1 tweet's entities read from their JSON straight into the layout `Entities.packed()`
/// makes: each entity's strings go to a reused pool and then to its kind's bytes, so no
/// `String`, struct or array is made per entity (they were made, packed and dropped on every
/// tweet). Owned by one decoder and reused; not reentrant.
struct EntityPacker {
    /// Each kind's entities, in `packed()`'s order of fields, and how many.
    private let urls = ByteBuffer()
    private var media = ByteBuffer()
    private let mentions = ByteBuffer()
    private let hashtags = ByteBuffer()
    private var counts = (0, 0, 0, 0)
    /// Media from `extended_entities`, which replace the others' when there are any.
    private var extendedMedia = ByteBuffer()
    private var extendedMediaCount = 0
    /// Each medium's length in milliseconds (`video_info.duration_millis`), 0 when not said.
    private var durations: [UInt32] = []
    private var extendedDurations: [UInt32] = []
    /// The strings of the entity being read.
    private let pool = ByteBuffer()

    /// The packed entities of the object at `entitiesAt`, with the media of the object at
    /// `mediaAt` in place of its own when that has any (both positions in `r`'s message),
    /// written at the end of `out`: where they lie there.
    mutating func pack(_ r: JSONReader, entitiesAt: Int?, mediaAt: Int?, into out: ByteBuffer) throws -> Range<Int> {
        begin()
        // Media first: when there are any, the others' are only skipped.
        if let start = mediaAt {
            var again = r
            again.rewind(to: start)
            try read(&again, mediaOnly: true)
        }
        if let start = entitiesAt {
            var again = r
            again.rewind(to: start)
            try read(&again, mediaOnly: false)
        }
        return finish(into: out)
    }

    /// Starts a tweet's entities, then read with `read` as their objects come, and `finish`.
    mutating func begin() {
        counts = (0, 0, 0, 0)
        urls.removeAll()
        media.removeAll()
        mentions.removeAll()
        hashtags.removeAll()
        extendedMedia.removeAll()
        extendedMediaCount = 0
        // Emptied only when not: a call that empties an array costs as much as reading a number.
        if !durations.isEmpty { durations.removeAll(keepingCapacity: true) }
        if !extendedDurations.isEmpty { extendedDurations.removeAll(keepingCapacity: true) }
    }

    /// The entities read since `begin`, packed at the end of `out`: where they lie there.
    mutating func finish(into out: ByteBuffer) -> Range<Int> {
        let start = out.count
        if extendedMediaCount > 0 {
            swap(&media, &extendedMedia)
            swap(&durations, &extendedDurations)
            counts.1 = extendedMediaCount
        }
        guard counts.0 > 0 || counts.1 > 0 || counts.2 > 0 || counts.3 > 0 else { return start..<start }
        out.appendLEB128(UInt64(counts.0))
        out.appendLEB128(UInt64(counts.1))
        out.appendLEB128(UInt64(counts.2))
        out.appendLEB128(UInt64(counts.3))
        out.append(urls)
        out.append(media)
        out.append(mentions)
        out.append(hashtags)
        // `packed()`'s trailer: the media count again and each length, only when one is known.
        if durations.contains(where: { $0 > 0 }) {
            out.appendLEB128(UInt64(durations.count))
            for d in durations { out.appendLEB128(UInt64(d)) }
        }
        return start..<out.count
    }

    /// An `entities` object, or with `mediaOnly` the media of an `extended_entities` one.
    mutating func read(_ r: inout JSONReader, mediaOnly: Bool) throws {
        guard r.peek() == .object else { return try r.skipValue() }
        try r.readObject { r, key in
            guard r.peek() == .array else { return try r.skipValue() }
            switch key {
            case "media" where mediaOnly: try r.readArray { r in try self.media(&r, extended: true) }
            case _ where mediaOnly: try r.skipValue()
            case "urls": try r.readArray { r in try self.link(&r) }
            // Replaced by the `extended_entities` media when those came first: skipped, their
            // escapes checked as reading them did.
            case "media" where extendedMediaCount > 0:
                let start = r.offset
                try r.skipValue()
                try r.checkEscapes(from: start)
            case "media": try r.readArray { r in try self.media(&r, extended: false) }
            case "user_mentions": try r.readArray { r in try self.mention(&r) }
            case "hashtags": try r.readArray { r in try self.hashtag(&r, symbol: false) }
            case "symbols": try r.readArray { r in try self.hashtag(&r, symbol: true) }
            default: try r.skipValue()
            }
        }
    }

    /// A string field into the pool: where it lies there, or nil when it is not a string.
    /// Mutating, though it changes no field: called from a field's closure, a non-mutating
    /// method was handed a copy of the whole packer (nine retains and releases a field).
    private mutating func string(_ r: inout JSONReader) throws -> Range<Int>? {
        let start = pool.count
        return try r.appendString(to: pool) ? start..<pool.count : nil
    }

    static func span(_ range: Range<Int>, _ out: ByteBuffer) {
        out.appendLEB128(UInt64(UInt32(bitPattern: Int32(clamping: range.lowerBound))))
        out.appendLEB128(UInt64(UInt32(bitPattern: Int32(clamping: range.upperBound))))
    }

    static func put(_ s: UnsafeBufferPointer<UInt8>, _ out: ByteBuffer) {
        out.appendLEB128(UInt64(s.count))
        out.append(s)
    }

    /// Absent as 0, present as its length + 1.
    private static func putOptional(_ s: UnsafeBufferPointer<UInt8>?, _ out: ByteBuffer) {
        guard let s else { return out.appendLEB128(0) }
        out.appendLEB128(UInt64(s.count) + 1)
        out.append(s)
    }

    /// "photo", a medium's type when none is said.
    private static let photo: StaticString = "photo"

    private mutating func link(_ r: inout JSONReader) throws {
        guard r.peek() == .object else { return try r.skipValue() }
        pool.removeAll()
        var url: Range<Int>?
        var expanded: Range<Int>?
        var display: Range<Int>?
        var range: Range<Int>?
        try r.readObject { r, key in
            switch key {
            case "url": url = try self.string(&r)
            case "expanded_url": expanded = try self.string(&r)
            case "display_url": display = try self.string(&r)
            case "indices": range = try r.optionalRange()
            default: try r.skipValue()
            }
        }
        guard let url, let range else { return }
        Self.span(range, urls)
        Self.put(pool[expanded ?? url], urls)
        Self.put(pool[display ?? expanded ?? url], urls)
        counts.0 += 1
    }

    private mutating func media(_ r: inout JSONReader, extended: Bool) throws {
        guard r.peek() == .object else { return try r.skipValue() }
        pool.removeAll()
        var type: Range<Int>?
        var url: Range<Int>?
        var display: Range<Int>?
        var expanded: Range<Int>?
        var https: Range<Int>?
        var range: Range<Int>?
        var alt: Range<Int>?
        var size: (w: Int, h: Int)?
        var large: (w: Int, h: Int)?
        var duration = 0
        try r.readObject { r, key in
            switch key {
            case "type": type = try self.string(&r) ?? type
            case "url": url = try self.string(&r)
            case "display_url": display = try self.string(&r)
            case "expanded_url": expanded = try self.string(&r)
            case "media_url_https": https = try self.string(&r)
            case "indices": range = try r.optionalRange()
            case "ext_alt_text": alt = try self.string(&r)
            case "original_info": size = try Self.dimensions(&r, "width", "height")
            case "sizes":
                guard r.peek() == .object else { return try r.skipValue() }
                try r.readObject { r, key in
                    if key.equals("large") { large = try Self.dimensions(&r, "w", "h") } else { try r.skipValue() }
                }
            case "video_info":
                guard r.peek() == .object else { return try r.skipValue() }
                try r.readObject { r, key in
                    if key.equals("duration_millis") { duration = try r.lenientInt() ?? 0 } else { try r.skipValue() }
                }
            default: try r.skipValue()
            }
        }
        guard let url, let range else { return }
        let wh = size ?? large
        let out = extended ? extendedMedia : media
        Self.span(range, out)
        out.appendLEB128(UInt64(max(0, Int32(clamping: wh?.w ?? 0))))
        out.appendLEB128(UInt64(max(0, Int32(clamping: wh?.h ?? 0))))
        Self.put(type.map { pool[$0] } ?? UnsafeBufferPointer(start: Self.photo.utf8Start, count: Self.photo.utf8CodeUnitCount), out)
        Self.put(pool[expanded ?? url], out)
        Self.put(pool[display ?? expanded ?? url], out)
        Self.putOptional(https.map { pool[$0] }, out)
        Self.putOptional(alt.flatMap { $0.isEmpty ? nil : pool[$0] }, out)
        let length = UInt32(clamping: max(0, duration))
        if extended {
            extendedMediaCount += 1
            extendedDurations.append(length)
        } else {
            counts.1 += 1
            durations.append(length)
        }
    }

    /// `{"width": …, "height": …}` (original_info) or `{"w": …, "h": …}` (sizes).
    private static func dimensions(_ r: inout JSONReader, _ wKey: StaticString, _ hKey: StaticString) throws -> (w: Int, h: Int)? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var w = 0
        var h = 0
        try r.readObject { r, key in
            if key.equals(wKey) {
                w = try r.lenientInt() ?? 0
            } else if key.equals(hKey) {
                h = try r.lenientInt() ?? 0
            } else {
                try r.skipValue()
            }
        }
        return w > 0 && h > 0 ? (w, h) : nil
    }

    private mutating func mention(_ r: inout JSONReader) throws {
        guard r.peek() == .object else { return try r.skipValue() }
        pool.removeAll()
        var name: Range<Int>?
        var id: UInt64?
        var range: Range<Int>?
        try r.readObject { r, key in
            switch key {
            case "screen_name": name = try self.string(&r)
            case "id_str": id = try r.optionalIDString()
            case "indices": range = try r.optionalRange()
            default: try r.skipValue()
            }
        }
        guard let name, let range else { return }
        Self.span(range, mentions)
        mentions.appendLEB128(id ?? 0)
        Self.put(pool[name], mentions)
        counts.2 += 1
    }

    private mutating func hashtag(_ r: inout JSONReader, symbol: Bool) throws {
        guard r.peek() == .object else { return try r.skipValue() }
        pool.removeAll()
        var text: Range<Int>?
        var range: Range<Int>?
        try r.readObject { r, key in
            switch key {
            case "text": text = try self.string(&r)
            case "indices": range = try r.optionalRange()
            default: try r.skipValue()
            }
        }
        guard let text, let range else { return }
        Self.span(range, hashtags)
        hashtags.appendLEB128(symbol ? 1 : 0)
        Self.put(pool[text], hashtags)
        counts.3 += 1
    }
}
