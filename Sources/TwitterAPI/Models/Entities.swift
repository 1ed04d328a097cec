/// The parts of a tweet's text that Twitter marked: links, media, mentions and hashtags.
/// Ranges count code points of the text as delivered (HTML-escaped).
public struct Entities: Equatable, Sendable {
    /// A t.co link with what it stands for.
    public struct Link: Equatable, Sendable {
        public var url: String
        public var expandedURL: String?
        public var displayURL: String?
        public var range: Range<Int>
        public init(url: String, expandedURL: String?, displayURL: String?, range: Range<Int>) {
            self.url = url
            self.expandedURL = expandedURL
            self.displayURL = displayURL
            self.range = range
        }
    }

    /// A photo, video or GIF attached to the tweet.
    public struct Media: Equatable, Sendable {
        public var id: UInt64
        public var type: String
        public var url: String
        public var displayURL: String?
        public var expandedURL: String?
        public var mediaURLHTTPS: String?
        public var range: Range<Int>
        public init(
            id: UInt64, type: String, url: String, displayURL: String?, expandedURL: String?,
            mediaURLHTTPS: String?, range: Range<Int>
        ) {
            self.id = id
            self.type = type
            self.url = url
            self.displayURL = displayURL
            self.expandedURL = expandedURL
            self.mediaURLHTTPS = mediaURLHTTPS
            self.range = range
        }
    }

    /// An @mention of a user.
    public struct Mention: Equatable, Sendable {
        public var screenName: String
        public var name: String?
        public var userID: UserID?
        public var range: Range<Int>
        public init(screenName: String, name: String?, userID: UserID?, range: Range<Int>) {
            self.screenName = screenName
            self.name = name
            self.userID = userID
            self.range = range
        }
    }

    /// A #hashtag (or a $cashtag, with `isSymbol`).
    public struct Hashtag: Equatable, Sendable {
        public var text: String
        public var isSymbol: Bool
        public var range: Range<Int>
        public init(text: String, isSymbol: Bool = false, range: Range<Int>) {
            self.text = text
            self.isSymbol = isSymbol
            self.range = range
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

    public var isEmpty: Bool { urls.isEmpty && media.isEmpty && mentions.isEmpty && hashtags.isEmpty }
}
