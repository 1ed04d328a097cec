import Locking
import TweetText

/// Texts put on screens, measured once: their graphemes and widths (`Glyphs`) by their UTF-8
/// bytes (not `String` equality, which calls two orders of marks the same) and the width mode.
/// The status bar, the tabs and the markers put the same few texts every frame; broken into
/// graphemes and looked up each time, they cost more than the rest of a key's drawing
/// together (a cached line's cells are written from its glyphs, `put(_: StyledLine)`).
enum MeasuredTexts {
    struct Key: Hashable {
        let bytes: [UInt8]
        let mode: WidthMode

        /// The bytes as one block (combined one by one, hashing cost more than drawing).
        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(mode)
        }
    }

    /// Longer texts are measured each time (a post's text is a card's, and cached there).
    static let longest = 512
    /// A frame puts a few dozen texts, one or two of them new (a count, a time).
    static let most = 1_024
    private static let table = Locked(Generations<Key, Glyphs>(limit: most))

    /// The glyphs of `text` in one span, measured in the current width mode.
    static func glyphs(_ text: some StringProtocol) -> Glyphs {
        let measure = { Glyphs([Span(String(text), .plain)]) }
        guard text.utf8.count <= longest else { return measure() }
        let key = Key(bytes: Array(text.utf8), mode: DisplayWidth.mode)
        if let known = table.withLock({ $0.find(key) }) { return known }
        let glyphs = measure()
        table.withLock { $0.keep(key, glyphs) }
        return glyphs
    }
}
