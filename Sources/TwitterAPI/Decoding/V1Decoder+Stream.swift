/// Stream messages: a tweet, or a one-key envelope such as `{"delete":{…}}`.
extension V1Decoder {
    func streamMessage(_ r: inout JSONReader) throws -> StreamMessage {
        guard r.peek() == .object else { throw r.fail("expected an object for a stream message") }
        var b = TweetBuilder()
        var special: StreamMessage?
        var eventName: String?
        var source: UserID?
        var target: UserID?
        var targetTweet: Tweet?
        let start = r.offset
        try r.readObject { r, key in
            switch key {
            case "delete": special = try self.deleteNotice(&r)
            case "limit": special = try self.limitNotice(&r)
            case "disconnect": special = try self.disconnectNotice(&r)
            case "warning": special = try self.warningNotice(&r)
            case "friends", "friends_str": special = .friends(try self.idList(&r).map { UserID($0) })
            case "scrub_geo": special = try self.scrubGeo(&r)
            case "status_withheld", "user_withheld": special = try self.withheld(&r, isUser: key.equals("user_withheld"))
            case "event": eventName = try r.optionalString()
            case "source" where r.peek() == .object: source = try self.user(&r).id
            case "target" where r.peek() == .object: target = try self.user(&r).id
            case "target_object": targetTweet = try? self.nestedTweet(&r, depth: 0)
            default: try b.field(key, &r, self, depth: 1)
            }
        }
        if let special { return special }
        if let name = eventName {
            return .event(name: name, sourceUserID: source, targetUserID: target, targetTweet: targetTweet)
        }
        if b.idString != nil || b.idNumber != nil { return .tweet(try b.build(r, self)) }
        // Named only now: making strings of every message's keys cost more than the rest of a tweet.
        var keys: [String] = []
        var again = r
        again.rewind(to: start)
        try again.readObject { r, key in
            if keys.count < 16 { keys.append(key.string) }
            try r.skipValue()
        }
        return .unknown(keys: keys)
    }

    private func deleteNotice(_ r: inout JSONReader) throws -> StreamMessage {
        var id: UInt64?
        var idNumber: UInt64?
        var user: UInt64?
        var userNumber: UInt64?
        try r.readObject { r, key in
            guard key.equals("status"), r.peek() == .object else { return try r.skipValue() }
            try r.readObject { r, key in
                switch key {
                case "id_str": id = try r.optionalIDString()
                case "id": idNumber = try r.optionalUInt64()
                case "user_id_str": user = try r.optionalIDString()
                case "user_id": userNumber = try r.optionalUInt64()
                default: try r.skipValue()
                }
            }
        }
        guard let statusID = id ?? idNumber else { throw DecodeError("delete notice without a status id") }
        return .delete(statusID: TweetID(statusID), userID: (user ?? userNumber).map { UserID($0) })
    }

    private func limitNotice(_ r: inout JSONReader) throws -> StreamMessage {
        var track = 0
        try r.readObject { r, key in
            if key.equals("track") { track = try r.optionalInt() ?? 0 } else { try r.skipValue() }
        }
        return .limit(track: track)
    }

    private func disconnectNotice(_ r: inout JSONReader) throws -> StreamMessage {
        var code = 0
        var name: String?
        var reason = ""
        try r.readObject { r, key in
            switch key {
            case "code": code = try r.optionalInt() ?? 0
            case "stream_name": name = try r.optionalString()
            case "reason": reason = try r.optionalString() ?? ""
            default: try r.skipValue()
            }
        }
        return .disconnect(code: code, streamName: name, reason: reason)
    }

    private func warningNotice(_ r: inout JSONReader) throws -> StreamMessage {
        var code = ""
        var message = ""
        var percent: Int?
        try r.readObject { r, key in
            switch key {
            case "code": code = try r.optionalString() ?? (try r.optionalInt()).map { String($0) } ?? ""
            case "message": message = try r.optionalString() ?? ""
            case "percent_full": percent = try r.optionalInt()
            default: try r.skipValue()
            }
        }
        return .warning(code: code, message: message, percentFull: percent)
    }

    private func scrubGeo(_ r: inout JSONReader) throws -> StreamMessage {
        var user: UInt64?
        var upTo: UInt64?
        try r.readObject { r, key in
            switch key {
            case "user_id_str": user = try r.optionalIDString()
            case "up_to_status_id_str": upTo = try r.optionalIDString()
            case "user_id": if let v = try r.optionalUInt64(), user == nil { user = v }
            case "up_to_status_id": if let v = try r.optionalUInt64(), upTo == nil { upTo = v }
            default: try r.skipValue()
            }
        }
        guard let user, let upTo else { throw DecodeError("scrub_geo notice without ids") }
        return .scrubGeo(userID: UserID(user), upToStatusID: TweetID(upTo))
    }

    private func withheld(_ r: inout JSONReader, isUser: Bool) throws -> StreamMessage {
        var id: UInt64?
        var countries: [String] = []
        try r.readObject { r, key in
            switch key {
            case "id": id = try r.optionalUInt64()
            case "withheld_in_countries":
                guard r.peek() == .array else { return try r.skipValue() }
                try r.readArray { r in if let c = try r.optionalString() { countries.append(c) } }
            default: try r.skipValue()
            }
        }
        guard let id else { throw DecodeError("withheld notice without an id") }
        return isUser ? .userWithheld(id: UserID(id), countries: countries) : .statusWithheld(id: TweetID(id), countries: countries)
    }

    private func idList(_ r: inout JSONReader) throws -> [UInt64] {
        guard r.peek() == .array else {
            try r.skipValue()
            return []
        }
        var ids: [UInt64] = []
        try r.readArray { r in
            if r.peek() == .string {
                if let v = UInt64(try r.readString()) { ids.append(v) }
            } else if let v = try r.optionalUInt64() {
                ids.append(v)
            }
        }
        return ids
    }
}
