import Pictures
import Screen
import Timeline
import TweetText
import TwitterAPI

/// A post's photos over the pane (`v`): which post, and which of its files.
public struct Viewer: Equatable, Sendable {
    public var tweet: TweetID
    public var index: Int
    public init(tweet: TweetID, index: Int = 0) {
        self.tweet = tweet
        self.index = index
    }
}

/// A picture asked for: its media URL and the cells it may take at most.
public struct PictureAsk: Hashable, Sendable {
    public var url: String
    public var columns: Int
    public var rows: Int
    public init(url: String, columns: Int, rows: Int) {
        self.url = url
        self.columns = columns
        self.rows = rows
    }
}

/// Pictures made so far, by what was asked; the app keeps it, the views read it. Bounded:
/// past `byteLimit` the oldest go (drawn again from the disk cache if asked again), except
/// those on screen.
public struct PictureShelf: Sendable {
    public enum State: Sendable, Equatable {
        case ready(RenderedPicture)
        case failed(String)
    }
    private var items: [PictureAsk: State] = [:]
    private var order: [PictureAsk] = []
    private var bytes = 0
    /// What the last frame showed: kept past the limit (a screen holds a few pictures at most).
    public var onScreen: Set<PictureAsk> = []
    /// 32 MiB of cells and sequences (a kitty photo is about 1 MB, a sixel one 100 KB).
    public static let byteLimit = 32 << 20
    public init() {}

    public subscript(_ ask: PictureAsk) -> State? { items[ask] }

    public mutating func put(_ ask: PictureAsk, _ result: Result<RenderedPicture, PictureFailure>) {
        if items[ask] != nil { remove(ask) }
        switch result {
        case .success(let p):
            items[ask] = .ready(p)
            bytes += Self.size(p)
        case .failure(let f): items[ask] = .failed(f.description)
        }
        order.append(ask)
        while bytes > Self.byteLimit, let oldest = order.first(where: { $0 != ask && !onScreen.contains($0) }) { remove(oldest) }
    }

    /// Forgets a picture (a failure, to be tried again).
    public mutating func forget(_ ask: PictureAsk) { if items[ask] != nil { remove(ask) } }

    private mutating func remove(_ ask: PictureAsk) {
        if case .ready(let p) = items[ask] { bytes -= Self.size(p) }
        items[ask] = nil
        order.removeAll { $0 == ask }
    }

    static func size(_ p: RenderedPicture) -> Int { p.bytes.count + p.cells.count * 12 }
}

extension Reducer {
    /// `v`: the selected post's first photo (a repost's original's).
    static func openViewer(_ selected: Tweet?, _ s: inout AppState) -> [Effect] {
        guard let t = selected else { return nothing(&s) }
        guard !t.content.entities.media.isEmpty else {
            s.notice = Notice(Words.noMedia, isError: false, at: s.now)
            return []
        }
        s.viewer = Viewer(tweet: t.id)
        return []
    }

    /// In the viewer: between a post's photos, the original in the browser, back.
    static func viewerKeys(_ command: Command, _ s: inout AppState, _ c: Context) -> [Effect] {
        guard var v = s.viewer, let media = Views.viewerMedia(v, c) else {
            s.viewer = nil
            return []
        }
        switch command {
        case .right, .down: v.index = (v.index + 1) % media.count
        case .left, .up: v.index = (v.index + media.count - 1) % media.count
        case .links:
            // The original, by the link picker's rules: only a checked web address leaves.
            let m = media[v.index]
            let original = m.type == "photo" ? m.mediaURL.map(Views.originalPhoto) ?? m.target : m.target
            switch WebAddress.check(original) {
            case .success(let url): return [.openLink(url)]
            case .failure(let why):
                s.notice = Notice(Words.notOpenedUnsafe(original, why.description), isError: true, at: s.now)
            }
        case .cancel: s.viewer = nil
        case .help: s.showHelp = true
        case .quit: return quit(&s)
        default: return []
        }
        if s.viewer != nil { s.viewer = v }
        return []
    }

    /// A picture the viewer asked for could not be made: said once, the label stays.
    static func pictureLoaded(_ ask: PictureAsk, _ result: Result<RenderedPicture, PictureFailure>, _ s: inout AppState, _ c: Context) {
        guard case .failure(let f) = result, let v = s.viewer, let media = Views.viewerMedia(v, c),
            media.indices.contains(v.index), Views.pictureURL(media[v.index]) == ask.url
        else { return }
        s.notice = Notice(Words.pictureNotShown(f.description), isError: true, at: s.now)
    }
}
