/// Entities, profile links and search metadata.
extension V1Decoder {
    /// `entities.url.urls[0].expanded_url` of a user.
    func profileURL(_ r: inout JSONReader) throws -> String? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var found: String?
        try r.readObject { r, key in
            guard key.equals("url"), r.peek() == .object else { return try r.skipValue() }
            try r.readObject { r, key in
                guard key.equals("urls"), r.peek() == .array else { return try r.skipValue() }
                try r.readArray { r in
                    let link = try self.link(&r)
                    if found == nil { found = link?.target }
                }
            }
        }
        return found
    }

    func entities(_ r: inout JSONReader) throws -> Entities {
        guard r.peek() == .object else {
            try r.skipValue()
            return Entities()
        }
        // Collected into reused buffers; the tweet packs them (see `Entities.packed`), so no
        // exact-size copies are made here.
        scratch.clear()
        try r.readObject { r, key in
            guard r.peek() == .array else { return try r.skipValue() }
            switch key {
            case "urls": try r.readArray { r in if let l = try self.link(&r) { self.scratch.urls.append(l) } }
            case "media": try r.readArray { r in if let m = try self.media(&r) { self.scratch.media.append(m) } }
            case "user_mentions":
                try r.readArray { r in if let m = try self.mention(&r) { self.scratch.mentions.append(m) } }
            case "hashtags":
                try r.readArray { r in if let h = try self.hashtag(&r, symbol: false) { self.scratch.hashtags.append(h) } }
            case "symbols":
                try r.readArray { r in if let h = try self.hashtag(&r, symbol: true) { self.scratch.hashtags.append(h) } }
            default: try r.skipValue()
            }
        }
        return Entities(
            urls: scratch.urls, media: scratch.media, mentions: scratch.mentions, hashtags: scratch.hashtags)
    }

    func link(_ r: inout JSONReader) throws -> Entities.Link? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var url: String?
        var expanded: String?
        var display: String?
        var range: Range<Int>?
        try r.readObject { r, key in
            switch key {
            case "url": url = try r.optionalString()
            case "expanded_url": expanded = try r.optionalString()
            case "display_url": display = try r.optionalString()
            case "indices": range = try r.optionalRange()
            default: try r.skipValue()
            }
        }
        guard let url, let range else { return nil }
        return Entities.Link(target: expanded ?? url, display: display ?? expanded ?? url, range: range)
    }

    func media(_ r: inout JSONReader) throws -> Entities.Media? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var type = "photo"
        var url: String?
        var display: String?
        var expanded: String?
        var https: String?
        var range: Range<Int>?
        var alt: String?
        var size: (w: Int, h: Int)?
        var large: (w: Int, h: Int)?
        /// `{"width": …, "height": …}` (original_info) or `{"w": …, "h": …}` (sizes).
        func dimensions(_ r: inout JSONReader, _ wKey: StaticString, _ hKey: StaticString) throws -> (w: Int, h: Int)? {
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
        try r.readObject { r, key in
            switch key {
            case "type": type = try r.optionalString() ?? type
            case "url": url = try r.optionalString()
            case "display_url": display = try r.optionalString()
            case "expanded_url": expanded = try r.optionalString()
            case "media_url_https": https = try r.optionalString()
            case "indices": range = try r.optionalRange()
            case "ext_alt_text": alt = try r.optionalString()
            case "original_info": size = try dimensions(&r, "width", "height")
            case "sizes":
                guard r.peek() == .object else { return try r.skipValue() }
                try r.readObject { r, key in
                    if key.equals("large") { large = try dimensions(&r, "w", "h") } else { try r.skipValue() }
                }
            default: try r.skipValue()
            }
        }
        guard let url, let range else { return nil }
        let wh = size ?? large
        return Entities.Media(
            type: type, target: expanded ?? url, display: display ?? expanded ?? url, mediaURL: https, range: range, width: wh?.w ?? 0,
            height: wh?.h ?? 0, altText: alt.flatMap { $0.isEmpty ? nil : $0 })
    }

    func mention(_ r: inout JSONReader) throws -> Entities.Mention? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var screenName: String?
        var id: UInt64?
        var range: Range<Int>?
        try r.readObject { r, key in
            switch key {
            case "screen_name": screenName = try r.optionalString()
            case "id_str": id = try r.optionalIDString()
            case "indices": range = try r.optionalRange()
            default: try r.skipValue()
            }
        }
        guard let screenName, let range else { return nil }
        return Entities.Mention(screenName: screenName, userID: id.map { UserID($0) }, range: range)
    }

    func hashtag(_ r: inout JSONReader, symbol: Bool) throws -> Entities.Hashtag? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var text: String?
        var range: Range<Int>?
        try r.readObject { r, key in
            switch key {
            case "text": text = try r.optionalString()
            case "indices": range = try r.optionalRange()
            default: try r.skipValue()
            }
        }
        guard let text, let range else { return nil }
        return Entities.Hashtag(text: text, isSymbol: symbol, range: range)
    }

    func searchMetadata(_ r: inout JSONReader) throws -> SearchResponse.Metadata? {
        guard r.peek() == .object else {
            try r.skipValue()
            return nil
        }
        var m = SearchResponse.Metadata()
        try r.readObject { r, key in
            switch key {
            case "max_id_str": m.maxID = try r.optionalIDString().map { TweetID($0) }
            case "since_id_str": m.sinceID = try r.optionalIDString().map { TweetID($0) }
            case "max_id": if let v = try r.optionalUInt64(), m.maxID == nil { m.maxID = TweetID(v) }
            case "since_id": if let v = try r.optionalUInt64(), m.sinceID == nil { m.sinceID = TweetID(v) }
            case "refresh_url": m.refreshURL = try r.optionalString()
            case "next_results": m.nextResults = try r.optionalString()
            case "count": m.count = try r.optionalInt()
            case "completed_in": m.completedIn = try r.optionalDouble()
            case "query": m.query = try r.optionalString()
            default: try r.skipValue()
            }
        }
        return m
    }
}
