import FoundationEssentials
import Screen
import Timeline
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Whom a direct message is for.
public struct MessageTarget: Equatable, Sendable, Codable {
    public var id: UserID
    public var screenName: String
    public init(id: UserID, screenName: String) {
        self.id = id
        self.screenName = screenName
    }
    enum CodingKeys: String, CodingKey {
        case id
        case screenName = "screen_name"
    }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let v = UInt64(try c.decode(String.self, forKey: .id)) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: c, debugDescription: "not a user id")
        }
        id = UserID(v)
        screenName = try c.decode(String.self, forKey: .screenName)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.description, forKey: .id)
        try c.encode(screenName, forKey: .screenName)
    }
}

/// The compose box.
public struct Compose: Equatable, Sendable {
    public var editor: Editor
    /// The tweet replied to, if any.
    public var replyTo: TweetID?
    public var sending = false
    /// Why the last send failed (the text stays).
    public var error: String?
    /// The text the box opened with (reply mentions); closing it unchanged keeps an older draft.
    public var prefill: String?
    /// Files to post with the text, uploaded when it is sent.
    public var media: [MediaFile] = []
    /// The post this one quotes.
    public var quote: TweetID?
    /// Asking for a file to attach, then its alt text.
    public var attach: AttachPrompt?
    /// A direct message to this person, not a tweet.
    public var to: MessageTarget?
    /// A thread: the text is split into tweets at lines of `---`, each replying to the last.
    public var thread = false
    /// While a thread is sent: how many of its tweets are in.
    public var threadSent = 0
    public init(editor: Editor = Editor(), replyTo: TweetID? = nil, media: [MediaFile] = []) {
        self.editor = editor
        self.replyTo = replyTo
        self.media = media
    }

    /// Blank, or only the mentions it opened with: nothing worth keeping (an empty quote is
    /// dropped too; `Q` on the post starts it again).
    public var isUnchanged: Bool { (editor.isEmpty || editor.text == prefill) && media.isEmpty }

    /// A new post of one's own: not a reply, quote, message or thread (each reopens from its
    /// own key on its own post or person).
    public var isPlainPost: Bool { replyTo == nil && quote == nil && to == nil && !thread }
}

/// The compose box's prompt for an attachment: a path (Tab completes), then its alt text.
public struct AttachPrompt: Equatable, Sendable {
    public enum Stage: Equatable, Sendable {
        case path
        case altText(MediaFile)
    }
    public var stage: Stage = .path
    public var editor = Editor()
    /// What Tab found when more than one name fits.
    public var candidates: [String] = []
    public init() {}
}

/// An unsent text as it is kept on disk.
public struct DraftRecord: Equatable, Sendable, Codable {
    public var text: String
    public var replyTo: TweetID?
    /// The files attached (their paths, kinds and alt text; the files stay where they are).
    public var media: [MediaFile]
    public var quote: TweetID?
    /// A direct message's recipient.
    public var to: MessageTarget?
    public var thread: Bool
    public init(
        text: String, replyTo: TweetID?, media: [MediaFile] = [], quote: TweetID? = nil, to: MessageTarget? = nil, thread: Bool = false
    ) {
        self.text = text
        self.replyTo = replyTo
        self.media = media
        self.quote = quote
        self.to = to
        self.thread = thread
    }

    // Ids as decimal strings, as the API writes id_str.
    enum CodingKeys: String, CodingKey {
        case text, media, quote, to, thread
        case replyTo = "reply_to"
    }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        replyTo = try c.decodeIfPresent(String.self, forKey: .replyTo).flatMap(TweetID.init)
        media = try c.decodeIfPresent([MediaFile].self, forKey: .media) ?? []
        quote = try c.decodeIfPresent(String.self, forKey: .quote).flatMap(TweetID.init)
        to = try c.decodeIfPresent(MessageTarget.self, forKey: .to)
        thread = try c.decodeIfPresent(Bool.self, forKey: .thread) ?? false
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encodeIfPresent(replyTo?.description, forKey: .replyTo)
        if !media.isEmpty { try c.encode(media, forKey: .media) }
        try c.encodeIfPresent(quote?.description, forKey: .quote)
        try c.encodeIfPresent(to, forKey: .to)
        if thread { try c.encode(true, forKey: .thread) }
    }
}
