import Pictures
import Screen
import Timeline
import TweetText
import TwitterAPI

/// The viewer: a post's photo as large as the pane allows, its place among the post's files,
/// and its alt text under it.
extension Views {
    static func viewerMedia(_ v: Viewer, _ c: Context) -> [Entities.Media]? {
        guard let media = c.snapshot.tweets[v.tweet]?.content.entities.media, !media.isEmpty else { return nil }
        return media
    }

    /// The picture drawn for a file: the photo, or a video's or GIF's poster.
    static func pictureURL(_ m: Entities.Media) -> String? { m.mediaURL }

    /// A photo's original size on X's media server (`?format=jpg&name=orig`).
    static func originalPhoto(_ url: String) -> String {
        guard url.contains("/media/"), !url.contains("?"), let dot = url.lastIndex(of: "."), url[dot...].count <= 5 else { return url }
        return String(url[..<dot]) + "?format=" + url[url.index(after: dot)...] + "&name=orig"
    }

    /// The viewer's parts: its box, title, the picture's room, and the lines under it.
    struct ViewerParts {
        var box: Rect
        var title: String
        var room: Rect
        var below: [StyledLine]
        var url: String?
    }

    static func viewerParts(_ s: AppState, _ c: Context, _ t: Theme) -> ViewerParts? {
        guard let v = s.viewer, let media = viewerMedia(v, c), media.indices.contains(v.index) else { return nil }
        let m = media[v.index]
        let body = Layout(s).body
        let box = Rect(x: 0, y: body.y, width: s.width, height: body.height)
        let title = Words.viewerTitle(
            m.type, index: v.index + 1, of: media.count, width: Int(m.width), height: Int(m.height),
            keys: Array(c.keyMap.keys(for: .cancel, in: .viewer).prefix(1)))
        var below: [StyledLine] = []
        if m.type != "photo" { below.append(StyledLine([Span(Words.posterOnly(m.type, durationMs: Int(m.durationMs)), t[.dim])])) }
        if let alt = m.altText.map(TweetCard.clean), !alt.isEmpty {
            below += TextLayout.wrap([Span(Words.altText(alt), t[.text])], width: max(1, box.width - 2)).prefix(4)
        }
        let roomHeight = max(0, box.height - 1 - below.count)
        let room = Rect(x: box.x + 1, y: box.y + 1, width: max(0, box.width - 2), height: roomHeight)
        return ViewerParts(box: box, title: title, room: room, below: below, url: pictureURL(m))
    }

    /// The pictures the screen would show now and their room: what the app fetches and makes.
    public static func pictureAsks(_ s: AppState, _ c: Context) -> [PictureAsk] {
        DisplayWidth.$mode.withValue(c.widthMode) { asks(s, c) }
    }

    /// As the views lay out: the same widths, nothing on a screen too small to draw.
    static func asks(_ s: AppState, _ c: Context) -> [PictureAsk] {
        guard c.pictureMode != nil, !Layout(s).tooSmall else { return [] }
        if s.keyMode == .profile, let url = s.profile?.imageURL, avatarShown(s) {
            return [PictureAsk(url: url, columns: avatarColumns, rows: avatarRows)]
        }
        guard s.keyMode == .viewer, let p = viewerParts(s, c, .fallback), let url = p.url, p.room.width > 0, p.room.height > 0 else {
            return thumbnailAsks(s, c)
        }
        return [PictureAsk(url: url, columns: p.room.width, rows: p.room.height)]
    }

    static func viewer(_ screen: inout Screen, _ s: AppState, _ c: Context, _ t: Theme) {
        guard let p = viewerParts(s, c, t) else { return }
        overlay(&screen, p.box, s, t, style: t[.text])
        screen.put(TextLayout.truncate(p.title, width: p.box.width - 2), x: p.box.x + 1, y: p.box.y, style: t[.helpKey])
        var y = p.room.maxY
        for line in p.below where y < p.box.maxY {
            screen.put(line, x: p.box.x + 1, y: y, clip: p.box)
            y += 1
        }
        let ask = p.url.map { PictureAsk(url: $0, columns: p.room.width, rows: p.room.height) }
        let state = ask.flatMap { c.pictures[$0] }
        switch state {
        case .ready(let picture)?:
            let x = p.room.x + (p.room.width - picture.columns) / 2
            let y = p.room.y + (p.room.height - picture.rows) / 2
            place(&screen, picture, at: x, y, key: "\(ask!.url) \(ask!.columns)x\(ask!.rows)")
        case .failed(let why)?:
            centred(&screen, Words.pictureNotShown(why), in: p.room, style: t[.dim])
        case nil:
            centred(&screen, c.pictureMode == nil ? Words.noPicturesHere : Words.pictureLoading, in: p.room, style: t[.dim])
        }
    }

    static func centred(_ screen: inout Screen, _ text: String, in r: Rect, style: Style) {
        let lines = TextLayout.wrap([Span(text, style)], width: max(1, r.width))
        let y0 = r.y + max(0, (r.height - lines.count) / 2)
        for (i, l) in lines.enumerated() where y0 + i < r.maxY {
            screen.put(l, x: r.x + max(0, (r.width - l.width) / 2), y: y0 + i, clip: r)
        }
    }

    /// A made picture on the screen at (x, y): its cells (symbols), or blanks under a graphic.
    static func place(_ screen: inout Screen, _ p: RenderedPicture, at x: Int, _ y: Int, key: String) {
        let rect = Rect(x: x, y: y, width: p.columns, height: p.rows)
        if p.mode == .symbols {
            for row in 0..<p.rows {
                for col in 0..<p.columns {
                    let cell = p.cells[row * p.columns + col]
                    screen.put(String(cell.scalar), x: x + col, y: y + row, style: Style(fg: color(cell.fg), bg: color(cell.bg)))
                }
            }
        }
        screen.place(PicturePlacement(rect: rect, key: key + " " + p.mode.rawValue, bytes: p.bytes))
    }

    static func color(_ rgb: UInt32?) -> Color {
        guard let v = rgb else { return .default }
        return .rgb(UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
    }
}
