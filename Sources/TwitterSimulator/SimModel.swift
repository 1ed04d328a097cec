/// A simulated account.
struct SimUser: Sendable, Codable {
    var id: UInt64
    var screenName: String
    var name: String
    var description: String
    var location: String
    var password: String
    var createdAtMs: UInt64
    var following: [UInt64]
    var isProtected = false
    var isVerified = false
}

/// A t.co link inside a tweet: the short URL in the text and what it stands for.
struct SimLink: Sendable, Codable, Equatable {
    var tco: String
    var expanded: String
    var display: String
}

/// A simulated tweet. `text` is the plain text (not HTML-escaped); escaping and entity indices
/// are computed when it is written out, on the escaped text, as Twitter does.
struct SimTweet: Sendable, Codable {
    var id: UInt64
    var userID: UInt64
    var text: String
    var createdAtMs: UInt64
    var inReplyToStatusID: UInt64?
    var inReplyToUserID: UInt64?
    var inReplyToScreenName: String?
    var retweetedID: UInt64?
    var quotedID: UInt64?
    var links: [SimLink] = []
    /// Leading @mentions added by `auto_populate_reply_metadata`: hidden by display_text_range.
    var hiddenPrefixCount = 0
    var favoritedBy: [UInt64] = []
    var retweetedBy: [UInt64] = []
    var source = "<a href=\"https://linnet.invalid\" rel=\"nofollow\">Linnet Simulator</a>"
    var lang = "en"
    /// A long post's whole text (API v2's `note_tweet`); `text` is then its first part.
    var noteText: String?
    /// Every version of an edited post, oldest first, this one among them.
    var editHistory: [UInt64]?
    /// Set on an older version: the newest, which timelines show instead.
    var supersededBy: UInt64?
    /// Media attached (API v2 media keys and kinds), in order.
    var media: [SimAttachment]?
    /// Who may reply, when not everyone: `mentionedUsers`, `following` (API v2's `reply_settings`).
    var replySettings: String?
    /// A poll: its choices, their votes, and when voting ends.
    var poll: SimPoll?
}

/// A simulated poll (API v2 `includes.polls`).
struct SimPoll: Sendable, Codable, Equatable {
    var id: UInt64
    var choices: [String]
    var votes: [Int]
    var durationMinutes: Int
    var endMs: UInt64
}

/// A media attachment of a simulated post.
struct SimAttachment: Sendable, Codable, Equatable {
    var key: String
    var kind: String
    var altText: String?
    /// Pixels; nil where the file's header did not say (served as 1200×800).
    var width: Int? = nil
    var height: Int? = nil
    /// The file's extension at its media URL (`jpg` when not known).
    var ext: String? = nil
    /// A video's length in milliseconds; nil for photos, GIFs and uploads (not read from the file).
    var durationMs: Int? = nil
}
