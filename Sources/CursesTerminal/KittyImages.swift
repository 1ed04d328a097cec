import Screen

/// kitty pictures sent once and placed by id: a picture that moves, or is drawn again after a
/// clear, is placed again (`a=p`, a few dozen bytes) instead of sent again, and one that leaves
/// the screen loses its placement and keeps its data for when it comes back. At most `limit`
/// bytes of sent pictures are kept in the terminal; past that the least recently placed go.
public struct KittyImages: Sendable {
    private var ids: [String: UInt32] = [:]
    private var sizes: [UInt32: Int] = [:]
    /// Keys, least recently placed first.
    private var order: [String] = []
    private var next: UInt32 = 1
    private(set) var bytes = 0
    /// 48 MiB of sequences (kitty's own quota is 320 MB; a photo is 0.2 to 1 MB).
    public static let limit = 48 << 20

    public init() {}

    public var isEmpty: Bool { ids.isEmpty }

    /// The id a picture was sent under, if it was.
    func id(of key: String) -> UInt32? { ids[key] }

    /// The id for a picture about to be placed: its old one, or a new one (`fresh`: send it
    /// first). `evicted`: ids to free, the least recently placed not in `keep`.
    mutating func place(_ key: String, size: Int, keep: Set<String>) -> (id: UInt32, fresh: Bool, evicted: [UInt32]) {
        order.removeAll { $0 == key }
        order.append(key)
        if let id = ids[key] { return (id, false, []) }
        let id = next
        next = next == UInt32.max ? 1 : next + 1
        ids[key] = id
        sizes[id] = size
        bytes += size
        var evicted: [UInt32] = []
        while bytes > Self.limit, let oldest = order.first(where: { $0 != key && !keep.contains($0) }) {
            order.removeAll { $0 == oldest }
            if let old = ids.removeValue(forKey: oldest) {
                bytes -= sizes.removeValue(forKey: old) ?? 0
                evicted.append(old)
            }
        }
        return (id, true, evicted)
    }

    /// Forgets every picture (the terminal may have dropped them: a reset, another program).
    mutating func forgetAll() {
        // New ids keep counting: a late answer or a stray placement never names a new picture.
        let n = next
        self = KittyImages()
        next = n
    }

    /// Every id sent, forgotten here (to be freed in the terminal too).
    mutating func takeAll() -> [UInt32] {
        defer { forgetAll() }
        return Array(sizes.keys).sorted()
    }

    // The forms (sw.kovidgoyal.net/kitty/graphics-protocol), answers off (`q=2`).

    /// Linnet's own transmit-and-display (`a=T,…`) made transmit-only under `id`; nil for a
    /// sequence of another form.
    static func transmit(_ bytes: [UInt8], id: UInt32) -> [UInt8]? {
        guard isOwn(bytes) else { return nil }
        return Array("\u{1B}_Ga=t,i=\(id),".utf8) + bytes[ownHead.count...]
    }

    private static let ownHead = Array("\u{1B}_Ga=T,".utf8)

    /// Whether `bytes` are Linnet's own transmit-and-display (`PictureFiles`).
    static func isOwn(_ bytes: [UInt8]) -> Bool { bytes.starts(with: ownHead) }

    /// The placement id of a picture at `rect`: one per place on the screen, so the same
    /// picture shown twice is two placements, and placing it again at a place replaces it.
    static func placement(_ rect: Rect) -> UInt32 { UInt32(truncatingIfNeeded: (rect.y & 0xFFFF) << 16 | (rect.x & 0xFFFF)) + 1 }

    /// A placement of picture `id` over `rect`'s cells at the cursor (`C=1`: the cursor stays).
    static func place(_ id: UInt32, at rect: Rect) -> [UInt8] {
        Array("\u{1B}_Ga=p,i=\(id),p=\(placement(rect)),c=\(rect.width),r=\(rect.height),C=1,q=2\u{1B}\\".utf8)
    }

    /// Picture `id`'s placement at `rect` deleted, its data kept (lower-case `i`).
    static func unplace(_ id: UInt32, at rect: Rect) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=i,i=\(id),p=\(placement(rect)),q=2\u{1B}\\".utf8)
    }

    /// Picture `id` deleted with its data (upper-case `I`).
    static func free(_ id: UInt32) -> [UInt8] { Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8) }
}
