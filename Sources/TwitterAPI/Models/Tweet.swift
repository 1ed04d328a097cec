/// A tweet as Linnet keeps it: the full text (never the 140-character cut when the full text
/// exists), its entities, and the tweets it retweets or quotes. Immutable and shared between
/// timelines.
// Sendable though it holds a pointer: its bytes are written once, in `init`, and only read after.
public final class Tweet: @unchecked Sendable, Equatable, CustomStringConvertible {
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
    /// The text's UTF-8, its entities as kept (`Entities.compact`) and, for a reply, what it
    /// answers (`Block`), in one allocation the tweet owns: an array's header would be 32 bytes
    /// more a tweet, and the reply's fields 32 more in every tweet (DECISIONS.md).
    private let bytes: UnsafeMutablePointer<UInt8>?
    /// For a retweet: the original tweet.
    public let retweetedStatus: Tweet?
    /// For a quote tweet: the quoted tweet, when Twitter included it.
    public let quotedStatus: Tweet?
    // Stored compactly (0 or -1 for none): a timeline holds many thousands of these.
    private let displayStart: Int32, displayEnd: Int32
    private let quoted: UInt64
    private let retweets: Int32, favorites: Int32
    /// Bytes of `bytes` that are the text, then the entities.
    private let textCount: UInt32, entityCount: UInt32
    public let isFavorited: Bool
    public let isRetweeted: Bool
    /// True when only a compatibility-mode cut of the text was available.
    public let isTruncated: Bool
    /// Bytes at the end of `bytes` that say what the tweet replies to (0: not a reply); in the
    /// room the flags leave before the next word.
    private let replyCount: UInt32
    private let langCode: UInt64
    /// What only some tweets carry (X API v2 edits, withholding, long posts); nil for most.
    public let extras: TweetExtras?

    /// The full text as Twitter delivered it (HTML-escaped; see `displayText`).
    public var text: String { String(decoding: textBuffer, as: UTF8.self) }
    public var entities: Entities { Entities(compacted: entityBuffer, text: textBuffer, id: id) }
    /// The text's length in UTF-8 bytes, without making the text.
    public var textByteCount: Int { Int(textCount) }
    /// The entities' bytes as kept, for the cache to write as they are.
    package var entityBytes: [UInt8] { Array(entityBuffer) }
    /// The text's UTF-8 as kept (entities point into it), for the cache to write as it is.
    package var textBytes: [UInt8] { Array(textBuffer) }
    public var inReplyToScreenName: String? { reply.name }

    private var textBuffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: Int(textCount)) }
    private var entityBuffer: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes.map { $0 + Int(textCount) }, count: Int(entityCount))
    }
    /// What a reply answers, from the bytes after its entities.
    private var reply: Block.Reply {
        guard replyCount > 0, let bytes else { return Block.Reply() }
        return Block.reply(UnsafeBufferPointer(start: bytes + Int(textCount) + Int(entityCount), count: Int(replyCount)))
    }

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
        let reply = Block.Reply(status: inReplyToStatusID, user: inReplyToUserID, name: inReplyToScreenName)
        let block = t.withUTF8 { text in
            packedEntities.withUnsafeBufferPointer { Block(text: text, entities: .packed($0), id: id, reply: reply) }
        }
        self.init(
            id: id, createdAt: createdAt, user: user, block: block, displayRange: displayRange, retweetedStatus: retweetedStatus,
            quotedStatus: quotedStatus, quotedStatusID: quotedStatusID, retweetCount: retweetCount, favoriteCount: favoriteCount,
            isFavorited: isFavorited, isRetweeted: isRetweeted, isTruncated: isTruncated, lang: lang, extras: extras)
    }

    /// From the text's bytes as they are (the cache's: made valid UTF-8 when read) and its
    /// entities packed, or as kept (checked with `Entities.isWellFormedCompaction` first).
    package convenience init(
        id: TweetID, createdAt: Int64, user: User, textBytes: UnsafeBufferPointer<UInt8>, entities: Block.Source,
        displayRange: Range<Int>?, inReplyToStatusID: TweetID?, inReplyToUserID: UserID?, inReplyToScreenName: String?,
        retweetedStatus: Tweet?, quotedStatus: Tweet?, quotedStatusID: TweetID?, retweetCount: Int, favoriteCount: Int,
        isFavorited: Bool, isRetweeted: Bool, isTruncated: Bool, lang: String?, extras: TweetExtras?
    ) {
        let reply = Block.Reply(status: inReplyToStatusID, user: inReplyToUserID, name: inReplyToScreenName)
        self.init(
            id: id, createdAt: createdAt, user: user, block: Block(text: textBytes, entities: entities, id: id, reply: reply),
            displayRange: displayRange, retweetedStatus: retweetedStatus, quotedStatus: quotedStatus, quotedStatusID: quotedStatusID,
            retweetCount: retweetCount, favoriteCount: favoriteCount, isFavorited: isFavorited, isRetweeted: isRetweeted,
            isTruncated: isTruncated, lang: lang, extras: extras)
    }

    /// Takes `block`'s bytes: this tweet frees them.
    private init(
        id: TweetID, createdAt: Int64, user: User, block: Block, displayRange: Range<Int>?, retweetedStatus: Tweet?,
        quotedStatus: Tweet?, quotedStatusID: TweetID?, retweetCount: Int, favoriteCount: Int, isFavorited: Bool,
        isRetweeted: Bool, isTruncated: Bool, lang: String?, extras: TweetExtras?
    ) {
        self.id = id
        created = createdAt
        self.user = user
        bytes = block.bytes
        textCount = UInt32(truncatingIfNeeded: block.textCount)
        entityCount = UInt32(truncatingIfNeeded: block.entityCount)
        replyCount = UInt32(truncatingIfNeeded: block.replyCount)
        displayStart = displayRange.map { Int32(clamping: $0.lowerBound) } ?? -1
        displayEnd = displayRange.map { Int32(clamping: $0.upperBound) } ?? -1
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

    deinit { bytes?.deallocate() }

    /// The part of `text` meant to be shown, in code points (hides leading reply mentions and a
    /// trailing media link); nil means all of it.
    public var displayRange: Range<Int>? { displayStart < 0 ? nil : Int(displayStart)..<Int(displayEnd) }
    public var inReplyToStatusID: TweetID? { reply.status }
    public var inReplyToUserID: UserID? { reply.user }
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
            || (a.id == b.id && a.createdAt == b.createdAt && a.user == b.user && a.textBuffer.elementsEqual(b.textBuffer)
                && a.entityBuffer.elementsEqual(b.entityBuffer) && a.displayRange == b.displayRange
                && a.inReplyToStatusID == b.inReplyToStatusID && a.inReplyToUserID == b.inReplyToUserID
                && a.inReplyToScreenName == b.inReplyToScreenName && a.retweetedStatus == b.retweetedStatus
                && a.quotedStatus == b.quotedStatus && a.quotedStatusID == b.quotedStatusID
                && a.retweetCount == b.retweetCount && a.favoriteCount == b.favoriteCount
                && a.isFavorited == b.isFavorited && a.isRetweeted == b.isRetweeted
                && a.isTruncated == b.isTruncated && a.lang == b.lang && a.extras == b.extras)
    }

    /// Language codes are short ASCII: up to 8 bytes pack into one word; longer ones are dropped.
    private static func pack(_ s: String?) -> UInt64 {
        guard var s, !s.isEmpty else { return 0 }
        // Through its bytes: the UTF-8 view's generic walk was a tenth of making a tweet.
        return s.withUTF8 { b in
            guard b.count <= 8 else { return 0 }
            var v: UInt64 = 0
            for i in 0..<b.count {
                guard b[i] > 0, b[i] < 0x80 else { return 0 }
                v |= UInt64(b[i]) << (8 * UInt64(i))
            }
            return v
        }
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
