/// A picture on the screen: the cells it covers, and how the terminal draws it. Symbols are
/// ordinary cells (the terminal writes them itself, in truecolor where it can); a graphic
/// (kitty, iTerm2, sixel) is a sequence drawn over blank cells.
public struct PicturePlacement: Hashable, Sendable {
    public var rect: Rect
    /// What is drawn (the same key at the same place is not drawn again).
    public var key: String
    /// The sequence that draws a graphic at the rectangle's top-left cell; empty for symbols.
    public var bytes: [UInt8]
    public var isGraphic: Bool { !bytes.isEmpty }
    public init(rect: Rect, key: String, bytes: [UInt8] = []) {
        self.rect = rect
        self.key = key
        self.bytes = bytes
    }

    public static func == (a: PicturePlacement, b: PicturePlacement) -> Bool { a.rect == b.rect && a.key == b.key }
    public func hash(into h: inout Hasher) {
        h.combine(key)
        h.combine(rect.x)
        h.combine(rect.y)
        h.combine(rect.width)
        h.combine(rect.height)
    }
}

extension Screen {
    /// Places a picture. Anything drawn over a graphic later takes it off the screen (an
    /// overlay over a photo shows no pixels through it).
    public mutating func place(_ p: PicturePlacement) {
        // Wholly on the screen, or not placed (a sequence drawn past the edge would scroll it).
        guard p.rect.x >= 0, p.rect.y >= 0, p.rect.maxX <= width, p.rect.maxY <= height, p.rect.width > 0, p.rect.height > 0 else {
            return
        }
        pictures.removeAll { $0.rect.intersects(p.rect) }
        pictures.append(p)
        forget(rows: p.rect.y, to: p.rect.maxY)
    }

    /// Whether (x, y) is a cell of a picture.
    public func inPicture(_ x: Int, _ y: Int) -> Bool { pictures.contains { $0.rect.contains(x: x, y: y) } }

    /// Graphics under cells written now leave the screen.
    mutating func covered(_ r: Rect) {
        guard !pictures.isEmpty else { return }
        pictures.removeAll { $0.isGraphic && $0.rect.intersects(r) }
    }
}

extension Rect {
    public func intersects(_ o: Rect) -> Bool { x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY }
}
