import FoundationEssentials
import Pictures
import Synchronization

/// The media server's files (pbs.twimg.com's part, at `/media/KEY?format=jpg&name=SIZE`):
/// photos made here, of the size the post claims, at X's named sizes. Each is a scene of
/// known colours: sky blue above, green below, and a red disc in the middle.
enum SimPhotos {
    static let sky: (UInt8, UInt8, UInt8) = (40, 110, 210)
    static let ground: (UInt8, UInt8, UInt8) = (40, 160, 60)
    static let disc: (UInt8, UInt8, UInt8) = (230, 20, 20)
    /// The last files made, so a reader's second look costs nothing.
    private static let made = Mutex<[(String, [UInt8])]>([])

    /// X's sizes by name: the longest side at most (thumb is a 150 square).
    static func size(_ name: String, width: Int, height: Int) -> (Int, Int) {
        let limit: Int
        switch name {
        case "thumb": return (150, 150)
        case "small": limit = 680
        case "medium": limit = 1200
        case "large": limit = 2048
        default: return (width, height)
        }
        let scale = min(1, Double(limit) / Double(max(width, height)))
        return (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
    }

    static func scene(width: Int, height: Int) -> Bitmap {
        var px = [UInt8](repeating: 255, count: width * height * 4)
        let cx = Double(width) / 2
        let cy = Double(height) / 2
        let radius = Double(min(width, height)) / 4
        let r2 = radius * radius
        for y in 0..<height {
            let base = y < height * 3 / 5 ? sky : ground
            for x in 0..<width {
                let dx = Double(x) - cx
                let dy = Double(y) - cy
                let c = dx * dx + dy * dy <= r2 ? disc : base
                let i = (y * width + x) * 4
                px[i] = c.0
                px[i + 1] = c.1
                px[i + 2] = c.2
            }
        }
        return Bitmap(width: width, height: height, rgba: px)
    }

    /// A media server's plain-text answer (not the API's JSON errors).
    static func plain(_ status: Int, _ text: String) -> SimResponse {
        SimResponse(status: status, headers: [("Content-Type", "text/plain")], body: .bytes(Data(text.utf8)))
    }

    static func file(key: String, png: Bool, width: Int, height: Int) -> [UInt8]? {
        let id = "\(key) \(png) \(width)x\(height)"
        if let kept = made.withLock({ $0.first { $0.0 == id }?.1 }) { return kept }
        let b = scene(width: width, height: height)
        guard let bytes = png ? PictureEncoder.png(b) : PictureEncoder.jpeg(b) else { return nil }
        made.withLock {
            $0.append((id, bytes))
            if $0.count > 16 { $0.removeFirst() }
        }
        return bytes
    }
}

extension World {
    /// `GET /media/KEY[.ext][?format=jpg|png&name=thumb|small|medium|large|orig]`.
    func mediaFile(_ r: SimRequest) -> SimResponse {
        var name = String(r.path.dropFirst("/media/".count))
        var format = r.param("format") ?? "jpg"
        if let dot = name.lastIndex(of: ".") {
            format = String(name[name.index(after: dot)...])
            name = String(name[..<dot])
        }
        // Media keys of uploads are served too (`3_<media id>`), at the default size.
        let claimed = tweets.values.lazy.compactMap { $0.media?.first { $0.key == name } }.first
        guard claimed != nil || media.values.contains(where: { $0.key == name }), ["jpg", "jpeg", "png", "webp"].contains(format) else {
            return SimPhotos.plain(404, "Not Found")
        }
        let (w, h) = SimPhotos.size(r.param("name") ?? "medium", width: claimed?.width ?? 1200, height: claimed?.height ?? 800)
        let png = format == "png"
        guard let bytes = SimPhotos.file(key: name, png: png, width: w, height: h) else {
            return SimPhotos.plain(500, "encoding failed")
        }
        return SimResponse(
            status: 200, headers: [("Content-Type", png ? "image/png" : "image/jpeg"), ("Cache-Control", "max-age=604800")],
            body: .bytes(Data(bytes)))
    }
}

extension World {
    /// `GET /profile_images/ID/NAME_SIZE.png`: a person's picture, a disc of their own colour on
    /// white, at X's sizes (`_mini` 24, `_normal` 48, `_bigger` 73, `_200x200`, `_400x400`).
    func profileImage(_ r: SimRequest) -> SimResponse {
        let parts = r.path.split(separator: "/")
        guard parts.count == 3, let id = UInt64(parts[1]), users[id] != nil else {
            return SimPhotos.plain(404, "Not Found")
        }
        let name = parts[2]
        let side =
            name.contains("_mini.")
            ? 24 : name.contains("_normal.") ? 48 : name.contains("_bigger.") ? 73 : name.contains("_200x200.") ? 200 : 400
        let colours: [(UInt8, UInt8, UInt8)] = [
            (200, 60, 40), (40, 120, 200), (60, 160, 80), (150, 80, 180), (220, 150, 30), (30, 150, 150),
        ]
        let c = colours[Int(id % UInt64(colours.count))]
        var px = [UInt8](repeating: 255, count: side * side * 4)
        let r2 = Double(side * side) / 4.5
        for y in 0..<side {
            for x in 0..<side {
                let dx = Double(x) - Double(side) / 2
                let dy = Double(y) - Double(side) / 2
                guard dx * dx + dy * dy <= r2 else { continue }
                let i = (y * side + x) * 4
                (px[i], px[i + 1], px[i + 2]) = c
            }
        }
        guard let bytes = PictureEncoder.png(Bitmap(width: side, height: side, rgba: px)) else {
            return SimPhotos.plain(500, "encoding failed")
        }
        return SimResponse(status: 200, headers: [("Content-Type", "image/png")], body: .bytes(Data(bytes)))
    }
}
