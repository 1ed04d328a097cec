/// Collects a tweet's fields in one pass over its JSON object, in whatever order they come.
struct TweetBuilder {
    var idString: UInt64?
    var idNumber: UInt64?
    var createdAt: Int64?
    /// Where `timestamp_ms` lies: read only when no `created_at` came (a stream tweet has both).
    var timestampAt: JSONReader.StringSpan?
    var user: User?
    /// The compatibility `text` is only read (into checked bytes) when no full text came.
    var text: JSONReader.StringSpan?
    /// Texts are kept as checked UTF-8 bytes (`appendUTF8`) in the decoder's `arena`: the
    /// tweet is made of bytes.
    var fullText: Range<Int>?
    var displayRange: Range<Int>?
    /// Where `entities` and `extended_entities` start: read only when no `extended_tweet` holds
    /// the full text's own, which is most long stream tweets and every retweet of one.
    var entitiesAt: Int?
    var extendedEntitiesAt: Int?
    var extended: Extended?
    var inReplyToStatusID: UInt64?
    var inReplyToStatusNumber: UInt64?
    var inReplyToUserID: UInt64?
    var inReplyToUserNumber: UInt64?
    var inReplyToScreenName: String?
    var retweetedStatus: Tweet?
    var quotedStatus: Tweet?
    var quotedStatusID: UInt64?
    var retweetCount = 0
    var favoriteCount = 0
    var favorited = false
    var retweeted = false
    var truncated = false
    var lang: String?

    /// The `extended_tweet` object streams attach to long tweets.
    struct Extended {
        var fullText: Range<Int>?
        var displayRange: Range<Int>?
        /// Its entities packed in the decoder's `arena`, when it has an `entities` object
        /// (media from its `extended_entities` in place of theirs when there are any).
        var packed: Range<Int>?
        /// Where its `extended_entities` start, for a tweet whose entities are outside it.
        var mediaAt: Int?
    }

    /// Reads the value of `key` if it is a tweet field; skips it otherwise.
    mutating func field(_ key: JSONKey, _ r: inout JSONReader, _ d: V1Decoder, depth: Int) throws {
        switch Field(key) {
        case .idString: idString = try r.optionalIDString()
        case .id: idNumber = try r.optionalUInt64()
        case .createdAt: createdAt = try r.optionalTime(TwitterDate.parse(utf8:))
        case .timestampMs:
            // A later value that is not a string counts as none, as when it was read at once.
            if r.peek() == .string {
                let span = try r.readStringSpan()
                try r.checkEscapes(from: span.start)
                timestampAt = span
            } else {
                timestampAt = nil
                try r.skipValue()
            }
        case .user:
            if r.peek() == .object { user = try d.user(&r) } else { try r.skipValue() }
        case .text:
            if r.peek() == .string { text = try r.readStringSpan() } else { try r.skipValue() }
        case .fullText: fullText = try r.appendUTF8(to: d.arena)
        case .displayTextRange: displayRange = try r.optionalRange()
        case .entities: entitiesAt = try r.skipValueReturningStart()
        case .extendedEntities: extendedEntitiesAt = try r.skipValueReturningStart()
        case .extendedTweet: extended = try d.extendedTweet(&r)
        case .replyStatusString: inReplyToStatusID = try r.optionalIDString()
        case .replyStatus: inReplyToStatusNumber = try r.optionalUInt64()
        case .replyUserString: inReplyToUserID = try r.optionalIDString()
        case .replyUser: inReplyToUserNumber = try r.optionalUInt64()
        case .replyScreenName: inReplyToScreenName = try r.optionalString()
        case .retweetedStatus: retweetedStatus = try d.nestedTweet(&r, depth: depth)
        case .quotedStatus: quotedStatus = try d.nestedTweet(&r, depth: depth)
        case .quotedStatusIDString: quotedStatusID = try r.optionalIDString()
        case .retweetCount: retweetCount = try r.optionalInt() ?? 0
        case .favoriteCount: favoriteCount = try r.optionalInt() ?? 0
        case .favorited: favorited = try r.optionalBool() ?? false
        case .retweeted: retweeted = try r.optionalBool() ?? false
        case .truncated: truncated = try r.optionalBool() ?? false
        case .lang: lang = try r.optionalString()
        case nil: try r.skipValue()
        }
    }

    /// The tweet, or why these fields do not make one.
    func build(_ r: JSONReader, _ d: V1Decoder) throws -> Tweet {
        guard let rawID = idString ?? idNumber else { throw DecodeError("tweet has no id_str or id") }
        guard let user else { throw DecodeError("tweet \(rawID) has no user") }
        let body: Range<Int>
        var range: Range<Int>?
        let packed: Range<Int>
        var cut = truncated
        // Entities are read where they were skipped (already checked to be well-formed JSON);
        // media from `extended_entities` replace the others' when there are any.
        if let e = extended, let full = e.fullText {
            body = full
            range = e.displayRange
            packed = try e.packed ?? d.packer.pack(r, entitiesAt: entitiesAt, mediaAt: e.mediaAt, into: d.arena)
            cut = false
        } else {
            if let full = fullText {
                body = full
            } else if let span = text {
                body = try r.appendUTF8(span, to: d.arena)
            } else {
                throw DecodeError("tweet \(rawID) has no text")
            }
            range = displayRange
            packed = try d.packer.pack(r, entitiesAt: entitiesAt, mediaAt: extendedEntitiesAt, into: d.arena)
        }
        guard body.count <= Tweet.maxTextBytes else {
            throw DecodeError("tweet \(rawID)'s text is \(body.count) bytes, more than X sends (at most \(Tweet.maxTextBytes))")
        }
        let timestampMs = createdAt != nil ? nil : try timestampAt.flatMap { Int64(try r.string($0)) }
        let seconds = createdAt ?? timestampMs.map { $0 / 1000 } ?? Int64(Snowflake.milliseconds(of: rawID) / 1000)
        // Nothing is written to the arena while the tweet copies from it.
        return tweet(rawID, seconds, user, d.arena[body], .packed(d.arena[packed]), range, cut)
    }

    private func tweet(
        _ rawID: UInt64, _ seconds: Int64, _ user: User, _ text: UnsafeBufferPointer<UInt8>, _ entities: Tweet.Block.Source,
        _ range: Range<Int>?, _ cut: Bool
    ) -> Tweet {
        Tweet(
            id: TweetID(rawID), createdAt: seconds, user: user, textBytes: text, entities: entities, displayRange: range,
            inReplyToStatusID: (inReplyToStatusID ?? inReplyToStatusNumber).map { TweetID($0) },
            inReplyToUserID: (inReplyToUserID ?? inReplyToUserNumber).map { UserID($0) },
            inReplyToScreenName: inReplyToScreenName, retweetedStatus: retweetedStatus, quotedStatus: quotedStatus,
            quotedStatusID: quotedStatusID.map { TweetID($0) }, retweetCount: retweetCount,
            favoriteCount: favoriteCount, isFavorited: favorited, isRetweeted: retweeted, isTruncated: cut,
            lang: lang, extras: nil)
    }
}
