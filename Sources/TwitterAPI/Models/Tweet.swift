/// A tweet as Linnet keeps it: the full text (never the 140-character cut when the full text
/// exists), its entities, and the tweets it retweets or quotes. Immutable and shared between
/// timelines.
public final class Tweet: Sendable, Equatable, CustomStringConvertible {
    /// Most UTF-8 a post's text may hold: X caps a long post at 25,000 characters, and the
    /// longest of those (every character an emoji sequence) stays under this. A post over it
    /// is not X's and is counted as a malformed answer (DECISIONS.md).
    public static let maxTextBytes = 262_144
    /// Most media and entities a post may carry (X attaches at most 4 media).
    public static let maxMedia = 64
    public static let maxEntities = 4_096

    public let id: TweetID
    private let created: Int64
    public let user: User
    /// The text's UTF-8, then the entities as a held tweet keeps them (`Entities.compact`), in
    /// one allocation: a held tweet's text and entities are read when it is drawn.
    private let storage: [UInt8]
    /// The full text as Twitter delivered it (HTML-escaped; see `displayText`).
    public var text: String { String(decoding: storage[..<Int(textCount)], as: UTF8.self) }
    public var entities: Entities {
        storage.withUnsafeBufferPointer { b in
            Entities(
                compacted: UnsafeBufferPointer(rebasing: b[Int(textCount)...]), text: UnsafeBufferPointer(rebasing: b[..<Int(textCount)]),
                id: id)
        }
    }
    /// The text's length in UTF-8 bytes, without making the text.
    public var textByteCount: Int { Int(textCount) }
    /// The entities' bytes as kept, for the cache to write as they are.
    package var entityBytes: [UInt8] { Array(storage[Int(textCount)...]) }
    /// The text's UTF-8 as kept (entities point into it), for the cache to write as it is.
    package var textBytes: ArraySlice<UInt8> { storage[..<Int(textCount)] }
    public let inReplyToScreenName: String?
    /// For a retweet: the original tweet.
    public let retweetedStatus: Tweet?
    /// For a quote tweet: the quoted tweet, when Twitter included it.
    public let quotedStatus: Tweet?
    // Stored compactly (0 or -1 for none): a timeline holds many thousands of these.
    private let displayStart: Int32, displayEnd: Int32
    private let replyStatus: UInt64, replyUser: UInt64, quoted: UInt64
    private let retweets: Int32, favorites: Int32
    public let isFavorited: Bool
    public let isRetweeted: Bool
    /// True when only a compatibility-mode cut of the text was available.
    public let isTruncated: Bool
    /// Bytes of `storage` that are the text (kept beside the flags, where the object has room).
    private let textCount: UInt32
    private let langCode: UInt64
    /// What only some tweets carry (X API v2 edits, withholding, long posts); nil for most.
    public let extras: TweetExtras?

    public convenience init(
        id: TweetID, createdAt: Int64, user: User, text: String, displayRange: Range<Int>? = nil,
        entities: Entities = Entities(), inReplyToStatusID: TweetID? = nil, inReplyToUserID: UserID? = nil,
        inReplyToScreenName: String? = nil, retweetedStatus: Tweet? = nil, quotedStatus: Tweet? = nil,
        quotedStatusID: TweetID? = nil, retweetCount: Int = 0, favoriteCount: Int = 0, isFavorited: Bool = false,
        isRetweeted: Bool = false, isTruncated: Bool = false, lang: String? = nil, extras: TweetExtras? = nil
    ) {
        self.init(
            id: id, createdAt: createdAt, user: user, text: text, displayRange: displayRange, packedEntities: entities.packed(),
            inReplyToStatusID: inReplyToStatusID, inReplyToUserID: inReplyToUserID, inReplyToScreenName: inReplyToScreenName,
            retweetedStatus: retweetedStatus, quotedStatus: quotedStatus, quotedStatusID: quotedStatusID, retweetCount: retweetCount,
            favoriteCount: favoriteCount, isFavorited: isFavorited, isRetweeted: isRetweeted, isTruncated: isTruncated, lang: lang,
            extras: extras)
    }

    /// With entities already packed (the decoder packs them as it reads).
    package convenience init(
        id: TweetID, createdAt: Int64, user: User, text: String, displayRange: Range<Int>?, packedEntities: [UInt8],
        inReplyToStatusID: TweetID?, inReplyToUserID: UserID?, inReplyToScreenName: String?, retweetedStatus: Tweet?,
        quotedStatus: Tweet?, quotedStatusID: TweetID?, retweetCount: Int, favoriteCount: Int, isFavorited: Bool,
        isRetweeted: Bool, isTruncated: Bool, lang: String?, extras: TweetExtras?
    ) {
        var t = text
        let (storage, n) = t.withUTF8 { (Self.storage(text: $0, packed: packedEntities[...], id: id), $0.count) }
        self.init(
            id: id, createdAt: createdAt, user: user, storage: storage, textCount: n, displayRange: displayRange,
            inReplyToStatusID: inReplyToStatusID, inReplyToUserID: inReplyToUserID, inReplyToScreenName: inReplyToScreenName,
            retweetedStatus: retweetedStatus, quotedStatus: quotedStatus, quotedStatusID: quotedStatusID, retweetCount: retweetCount,
            favoriteCount: favoriteCount, isFavorited: isFavorited, isRetweeted: isRetweeted, isTruncated: isTruncated, lang: lang,
            extras: extras)
    }

    /// A tweet's one array: the text's UTF-8, then its entities (in `Entities.packed()`'s
    /// layout) as a held tweet keeps them.
    package static func storage(text: UnsafeBufferPointer<UInt8>, packed: ArraySlice<UInt8>, id: TweetID) -> [UInt8] {
        packed.withUnsafeBufferPointer { storage(text: text, packed: $0, id: id) }
    }

    package static func storage(text: UnsafeBufferPointer<UInt8>, packed: UnsafeBufferPointer<UInt8>, id: TweetID) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * packed.count + 16) { room in
            let n = Entities.compact(packed, text: text, id: id, into: room)
            return storage(text: text, compacted: UnsafeBufferPointer(rebasing: room[..<n]))
        }
    }

    /// A tweet's one array from entities already as a held tweet keeps them (the cache's own).
    package static func storage(text: UnsafeBufferPointer<UInt8>, compacted packed: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: text.count + packed.count) { buffer, count in
            count = 0
            guard let to = buffer.baseAddress else { return }
            if let base = text.baseAddress, text.count > 0 { to.initialize(from: base, count: text.count) }
            if let base = packed.baseAddress, packed.count > 0 { (to + text.count).initialize(from: base, count: packed.count) }
            count = text.count + packed.count
        }
    }

    /// From `storage(text:packed:id:)`'s array, its first `textCount` bytes the text (the cache
    /// makes one from its file's bytes: the text is made valid UTF-8 when read, the entities
    /// are checked with `Entities.isWellFormedCompaction` first).
    package init(
        id: TweetID, createdAt: Int64, user: User, storage: [UInt8], textCount: Int, displayRange: Range<Int>?,
        inReplyToStatusID: TweetID?, inReplyToUserID: UserID?, inReplyToScreenName: String?, retweetedStatus: Tweet?,
        quotedStatus: Tweet?, quotedStatusID: TweetID?, retweetCount: Int, favoriteCount: Int, isFavorited: Bool,
        isRetweeted: Bool, isTruncated: Bool, lang: String?, extras: TweetExtras?
    ) {
        self.id = id
        created = createdAt
        self.user = user
        self.storage = storage
        self.textCount = UInt32(truncatingIfNeeded: textCount)
        displayStart = displayRange.map { Int32(clamping: $0.lowerBound) } ?? -1
        displayEnd = displayRange.map { Int32(clamping: $0.upperBound) } ?? -1
        replyStatus = inReplyToStatusID?.rawValue ?? 0
        replyUser = inReplyToUserID?.rawValue ?? 0
        self.inReplyToScreenName = inReplyToScreenName
        self.retweetedStatus = retweetedStatus
        self.quotedStatus = quotedStatus
        quoted = (quotedStatusID ?? quotedStatus?.id)?.rawValue ?? 0
        retweets = Int32(clamping: retweetCount)
        favorites = Int32(clamping: favoriteCount)
        self.isFavorited = isFavorited
        self.isRetweeted = isRetweeted
        self.isTruncated = isTruncated
        langCode = Self.pack(lang)
        self.extras = extras
    }

    /// The part of `text` meant to be shown, in code points (hides leading reply mentions and a
    /// trailing media link); nil means all of it.
    public var displayRange: Range<Int>? { displayStart < 0 ? nil : Int(displayStart)..<Int(displayEnd) }
    public var inReplyToStatusID: TweetID? { replyStatus == 0 ? nil : TweetID(replyStatus) }
    public var inReplyToUserID: UserID? { replyUser == 0 ? nil : UserID(replyUser) }
    public var quotedStatusID: TweetID? { quoted == 0 ? nil : TweetID(quoted) }
    /// Unix seconds.
    public var createdAt: Int64 { created }
    /// BCP 47 language code Twitter guessed (`en`, `und`), if any.
    public var lang: String? { Self.unpack(langCode) }
    public var retweetCount: Int { Int(retweets) }
    public var favoriteCount: Int { Int(favorites) }

    /// The tweet whose content a reader wants: the original for a retweet, else this one.
    public var content: Tweet { retweetedStatus ?? self }

    public static func == (a: Tweet, b: Tweet) -> Bool {
        a === b
            || (a.id == b.id && a.createdAt == b.createdAt && a.user == b.user && a.textCount == b.textCount
                && a.storage == b.storage && a.displayRange == b.displayRange
                && a.inReplyToStatusID == b.inReplyToStatusID && a.inReplyToUserID == b.inReplyToUserID
                && a.inReplyToScreenName == b.inReplyToScreenName && a.retweetedStatus == b.retweetedStatus
                && a.quotedStatus == b.quotedStatus && a.quotedStatusID == b.quotedStatusID
                && a.retweetCount == b.retweetCount && a.favoriteCount == b.favoriteCount
                && a.isFavorited == b.isFavorited && a.isRetweeted == b.isRetweeted
                && a.isTruncated == b.isTruncated && a.lang == b.lang && a.extras == b.extras)
    }

    /// Language codes are short ASCII: up to 8 bytes pack into one word; longer ones are dropped.
    private static func pack(_ s: String?) -> UInt64 {
        guard let s, !s.isEmpty, s.utf8.count <= 8, s.utf8.allSatisfy({ $0 > 0 && $0 < 0x80 }) else { return 0 }
        var v: UInt64 = 0
        for (i, b) in s.utf8.enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
        return v
    }

    private static func unpack(_ v: UInt64) -> String? {
        guard v != 0 else { return nil }
        var bytes: [UInt8] = []
        var x = v
        while x != 0 {
            bytes.append(UInt8(x & 0xFF))
            x >>= 8
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { "Tweet \(id) by @\(user.screenName)" }
}

/// Facts only some tweets have, kept out of line so the common tweet stays small.
public final class TweetExtras: Sendable, Equatable {
    /// Ids of the older versions of an edited post, oldest first: this tweet replaces them.
    public let olderVersions: [TweetID]
    /// Set when this is itself an older version: the id of the newest, which replaces it.
    public let newestVersion: TweetID?
    /// The post that started the conversation, when it is not this one.
    public let conversationID: TweetID?
    /// Countries (ISO codes, or `XX` for all) where the post is withheld.
    public let withheldIn: [String]
    public let withheldForCopyright: Bool
    /// The text is a long post's full text (`note_tweet`), not the 280-character cut.
    public let isLongPost: Bool
    /// Who may reply when not everyone may: `mentionedUsers`, `following`, `subscribers`,
    /// `verified` (X API v2's `reply_settings`).
    public let replySettings: String?
    /// Its poll, with the votes as they stood when read.
    public let poll: Poll?

    public init(
        olderVersions: [TweetID] = [], newestVersion: TweetID? = nil, conversationID: TweetID? = nil, withheldIn: [String] = [],
        withheldForCopyright: Bool = false, isLongPost: Bool = false, replySettings: String? = nil, poll: Poll? = nil
    ) {
        self.replySettings = replySettings
        self.poll = poll
        self.olderVersions = olderVersions
        self.newestVersion = newestVersion
        self.conversationID = conversationID
        self.withheldIn = withheldIn
        self.withheldForCopyright = withheldForCopyright
        self.isLongPost = isLongPost
    }

    /// Whether any fact is set (an empty set of extras is not kept).
    var isEmpty: Bool {
        olderVersions.isEmpty && newestVersion == nil && conversationID == nil && withheldIn.isEmpty && !withheldForCopyright && !isLongPost
            && replySettings == nil && poll == nil
    }

    public static func == (a: TweetExtras, b: TweetExtras) -> Bool {
        a.olderVersions == b.olderVersions && a.newestVersion == b.newestVersion && a.conversationID == b.conversationID
            && a.withheldIn == b.withheldIn && a.replySettings == b.replySettings
            && a.withheldForCopyright == b.withheldForCopyright && a.isLongPost == b.isLongPost && a.poll == b.poll
    }
}
