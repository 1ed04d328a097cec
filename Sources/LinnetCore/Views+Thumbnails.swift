import Pictures
import Screen
import Timeline
import TweetText
import TwitterAPI

/// Small pictures on cards (`thumbnails = true`): rows kept under a card with photos whether
/// or not its pictures have come, so nothing the reader is reading moves when they do; asked
/// for only for cards wholly on screen.
extension Views {
    static let thumbnailHeight = 6, thumbnailWidth = 24

    /// Rows a card keeps for its pictures.
    static func thumbnailRows(_ t: Tweet, _ c: Context) -> Int {
        c.thumbnails && !thumbnailURLs(t).isEmpty ? thumbnailHeight : 0
    }

    /// The files a card shows small: up to four photos' or posters' addresses.
    static func thumbnailURLs(_ t: Tweet) -> [String] { Array(t.content.entities.media.compactMap(pictureURL).prefix(4)) }

    /// Where each of a card's pictures goes, side by side under its text.
    static func thumbnailRooms(_ t: Tweet, at y: Int, in r: Rect) -> [(url: String, room: Rect)] {
        let urls = thumbnailURLs(t)
        guard !urls.isEmpty else { return [] }
        let room = min(thumbnailWidth, (r.width - TweetCard.gutter - urls.count) / urls.count)
        guard room >= 4 else { return [] }
        return urls.enumerated().map { i, url in
            (url, Rect(x: r.x + TweetCard.gutter + i * (room + 1), y: y, width: room, height: thumbnailHeight))
        }
    }

    static func thumbnails(_ screen: inout Screen, _ t: Tweet, at y: Int, in r: Rect, _ c: Context, _ theme: Theme) {
        for (url, room) in thumbnailRooms(t, at: y, in: r) {
            let ask = PictureAsk(url: url, columns: room.width, rows: room.height)
            if case .ready(let picture)? = c.pictures[ask] {
                place(&screen, picture, at: room.x, room.y + (room.height - picture.rows) / 2, key: "\(url) thumb")
            } else {
                let label = c.pictures[ask] == nil ? "▣ …" : "▣ ✗"
                screen.put(label, x: room.x, y: room.y + room.height / 2, style: theme[.dim], clip: room)
            }
        }
    }

    /// The thumbnails of the cards wholly on screen now, as the pane draws them.
    static func thumbnailAsks(_ s: AppState, _ c: Context) -> [PictureAsk] {
        guard c.thumbnails, s.keyMode == .timeline || s.keyMode == .compose, s.panes.indices.contains(s.active) else { return [] }
        let p = s.pane
        if p.id == .messages { return [] }
        if case .conversation = p.id { return [] }
        let ids = c.ids(p)
        let r = Layout(s).body
        let top = p.top.flatMap { ids.firstIndex(of: $0) } ?? 0
        var y = r.y + (top > 0 ? 1 : 0)
        var asks: [PictureAsk] = []
        for id in ids[min(top, ids.count)...] {
            guard y < r.maxY, let t = c.snapshot.tweets[id] else { break }
            y += TweetCard.height(t, width: r.width, now: s.shownNow)
            let rows = thumbnailRows(t, c)
            if rows > 0, y + thumbnailHeight <= r.maxY {
                asks += thumbnailRooms(t, at: y, in: r).map { PictureAsk(url: $0.url, columns: $0.room.width, rows: $0.room.height) }
            }
            y += rows + 1
        }
        return asks
    }
}
