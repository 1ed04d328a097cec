/// The parts of a tweet's text that Twitter marked: links, media, mentions and hashtags.
/// Ranges count code points of the text as delivered (HTML-escaped). Only what a reader needs
/// is kept (not the t.co address itself: the range says where it stood), to keep tweets small.
public struct Entities: Equatable, Sendable {
    /// A t.co link: where it leads and how to show it.
    public struct Link: Equatable, Sendable {
        /// The expanded URL, or the t.co URL when Twitter gave no expansion.
        public var target: String
        /// The short form to show (`example.com/page…`).
        public var display: String
        var span: Span
        public var range: Range<Int> { span.range }
        public init(target: String, display: String, range: Range<Int>) {
            self.target = target
            self.display = display
            span = Span(range)
        }
    }

    /// A photo, video or GIF attached to the tweet.
    public struct Media: Equatable, Sendable {
        /// `photo`, `video` or `animated_gif`.
        public var type: String
        /// The page showing the media (`twitter.com/…/photo/1`).
        public var target: String
        public var display: String
        /// The media file itself over https, when given.
        public var mediaURL: String?
        var span: Span
        public var range: Range<Int> { span.range }
        /// Its size in pixels (0 when not given) and its alt text.
        public var width: Int32 = 0
        public var height: Int32 = 0
        public var altText: String?
        /// A video's length in milliseconds (0 when not given: photos, GIFs, or not asked).
        public var durationMs: UInt32 = 0
        public init(
            type: String, target: String, display: String, mediaURL: String?, range: Range<Int>, width: Int = 0, height: Int = 0,
            altText: String? = nil, durationMs: Int = 0
        ) {
            self.type = type
            self.target = target
            self.display = display
            self.mediaURL = mediaURL
            span = Span(range)
            self.width = Int32(clamping: width)
            self.height = Int32(clamping: height)
            self.altText = altText
            self.durationMs = UInt32(clamping: max(0, durationMs))
        }
    }

    /// An @mention of a user.
    public struct Mention: Equatable, Sendable {
        public var screenName: String
        private var rawUserID: UInt64
        var span: Span
        public var userID: UserID? { rawUserID == 0 ? nil : UserID(rawUserID) }
        public var range: Range<Int> { span.range }
        public init(screenName: String, userID: UserID?, range: Range<Int>) {
            self.screenName = screenName
            rawUserID = userID?.rawValue ?? 0
            span = Span(range)
        }
    }

    /// A #hashtag (or a $cashtag, with `isSymbol`).
    public struct Hashtag: Equatable, Sendable {
        public var text: String
        public var isSymbol: Bool
        var span: Span
        public var range: Range<Int> { span.range }
        public init(text: String, isSymbol: Bool = false, range: Range<Int>) {
            self.text = text
            self.isSymbol = isSymbol
            span = Span(range)
        }
    }

    public var urls: [Link] = []
    public var media: [Media] = []
    public var mentions: [Mention] = []
    public var hashtags: [Hashtag] = []

    public init(urls: [Link] = [], media: [Media] = [], mentions: [Mention] = [], hashtags: [Hashtag] = []) {
        self.urls = urls
        self.media = media
        self.mentions = mentions
        self.hashtags = hashtags
    }

    /// A code-point range in 8 bytes instead of 16; tweet text is far shorter than 2^31.
    struct Span: Equatable, Sendable {
        var start: Int32
        var end: Int32
        init(_ r: Range<Int>) {
            start = Int32(clamping: r.lowerBound)
            end = Int32(clamping: r.upperBound)
        }
        init(start: Int32, end: Int32) {
            self.start = start
            self.end = end
        }
        var range: Range<Int> { Int(start)..<Int(end) }
    }

    public var isEmpty: Bool { urls.isEmpty && media.isEmpty && mentions.isEmpty && hashtags.isEmpty }
}
