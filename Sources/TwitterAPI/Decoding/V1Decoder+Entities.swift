/// Profile links and search metadata (a tweet's entities: `EntityPacker`).
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
