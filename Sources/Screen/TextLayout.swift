import TweetText

/// A run of text in one style.
public struct Span: Equatable, Sendable {
    public var text: String
    public var style: Style
    public init(_ text: String, _ style: Style) {
        self.text = text
        self.style = style
    }
}

/// One laid-out line: its spans and the columns they take, and its graphemes measured once
/// (`glyphs`), so drawing a card that was laid out before copies cells instead of breaking its
/// text into graphemes and looking up their widths again on every frame.
public struct StyledLine: Equatable, Sendable {
    public var spans: [Span] {
        didSet {
            glyphs = Glyphs(spans)
            width = glyphs.width
        }
    }
    public var width: Int
    private(set) var glyphs: Glyphs

    public init(_ spans: [Span] = [], width: Int? = nil) {
        self.spans = spans
        glyphs = Glyphs(spans)
        self.width = width ?? glyphs.width
    }

    init(_ spans: [Span], glyphs: Glyphs) {
        self.spans = spans
        self.glyphs = glyphs
        width = glyphs.width
    }

    public var text: String { spans.map(\.text).joined() }

    public static func == (a: StyledLine, b: StyledLine) -> Bool { a.width == b.width && a.spans == b.spans }
}

/// A line's graphemes with their widths (zero-width ones left out, as drawing drops them): a
/// single scalar as itself, a longer cluster as `Cell.clusterFlag | index` into `clusters`.
struct Glyphs: Sendable {
    /// Eight bytes: cached cards keep one per grapheme.
    struct Glyph: Sendable {
        var code: UInt32
        /// The span it belongs to (its style); past 65,535 spans in a line the last styles
        /// are shared, the text is not changed.
        var span: UInt16
        var width: UInt8
    }
    private(set) var items: [Glyph] = []
    private(set) var clusters: [String] = []
    private(set) var width = 0

    init() {}

    init(_ spans: [Span]) {
        for (i, span) in spans.enumerated() {
            if span.text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                items.reserveCapacity(items.count + span.text.utf8.count)
                for b in span.text.utf8 { items.append(Glyph(code: UInt32(b), span: UInt16(clamping: i), width: 1)) }
                width += span.text.utf8.count
            } else {
                appendMixed(span.text, span: i)
            }
        }
    }

    /// Text with some non-ASCII, grapheme by grapheme as `for ch in text` breaks it: a printable
    /// ASCII byte with an ASCII byte (or nothing) after it is a grapheme of its own (no rule
    /// joins two ASCII characters but CR LF, which are controls), and so is a scalar of the
    /// blocks below, before printable ASCII or the end; only the rest is broken by `Character`
    /// (a changing count beside an arrow was measured at 300 instructions a character, every
    /// frame).
    mutating func appendMixed(_ text: String, span: Int) {
        let utf8 = text.utf8
        var i = utf8.startIndex
        while i < utf8.endIndex {
            let b = utf8[i]
            let after = utf8.index(after: i)
            if b >= 0x20, b < 0x7F, after == utf8.endIndex || utf8[after] < 0x80 {
                append(ascii: b, span: span)
                i = after
                continue
            }
            // A scalar of the blocks below U+0600 or of U+2000–U+2BFF (punctuation, arrows,
            // shapes) with printable ASCII or the end after it is a grapheme of its own: no rule
            // of UAX #29 joins a scalar to printable ASCII after it but GB9b (a Prepend scalar
            // before), and no Prepend scalar is in those blocks.
            // Breaking it as a `Character` cost 3,000 instructions (a count's arrow and dot).
            let scalar = text.unicodeScalars[i]
            let next = text.unicodeScalars.index(after: i)
            let alone =
                (scalar.value < 0x600 || (0x2000..<0x2C00).contains(scalar.value))
                && (next == utf8.endIndex || (utf8[next] >= 0x20 && utf8[next] < 0x7F))
            let ch = alone ? Character(scalar) : text[i]
            append(ch, width: Screen.width(of: ch), span: span)
            i = alone ? next : text.index(after: i)
        }
    }

    mutating func append(ascii b: UInt8, span: Int) {
        items.append(Glyph(code: UInt32(b), span: UInt16(clamping: span), width: 1))
        width += 1
    }

    /// A grapheme given as its slice of a text.
    mutating func append(_ g: Substring, width w: Int, span: Int) {
        append(g.unicodeScalars, text: { String(g) }, width: w, span: span)
    }

    mutating func append(_ ch: Character, width w: Int, span: Int) {
        append(ch.unicodeScalars, text: { String(ch) }, width: w, span: span)
    }

    /// A single scalar as itself; a longer cluster's text (made only then) into `clusters`.
    private mutating func append(
        _ scalars: some Sequence<Unicode.Scalar>, text: () -> String, width w: Int, span: Int
    ) {
        guard w > 0 else { return }
        var it = scalars.makeIterator()
        let code: UInt32
        if let first = it.next(), it.next() == nil {
            code = first.value
        } else {
            code = Cell.clusterFlag | UInt32(clusters.count)
            clusters.append(text())
        }
        items.append(Glyph(code: code, span: UInt16(clamping: span), width: UInt8(w)))
        width += w
    }
}

extension Screen {
    /// Draws a laid-out line; returns the column after it. The same cells as putting each
    /// span's text in turn, from the graphemes measured when the line was made.
    @discardableResult
    public mutating func put(_ line: StyledLine, x: Int, y: Int, clip: Rect? = nil, under base: Style = .plain) -> Int {
        let c = clip ?? bounds
        guard y >= max(0, c.y), y < min(height, c.maxY) else { return x }
        forget(rows: y, to: y + 1)
        let left = max(0, c.x)
        let right = min(width, c.maxX)
        let glyphs = line.glyphs
        let col = line.spans.withUnsafeBufferPointer { spans in
            // A span's cell with code 0 (a continuation): copied whole and its code set, a cell
            // is two stores, not one a field.
            withUnsafeTemporaryAllocation(of: Cell.self, capacity: spans.count) { styles in
                for (i, span) in spans.enumerated() { styles.initializeElement(at: i, to: Cell(code: 0, style: span.style.over(base))) }
                let styles = UnsafeBufferPointer(styles)
                return overwritesWide(x: x, y: y, count: glyphs.width, left: left, right: right)
                    ? putEach(glyphs, styles, x: x, y: y, left: left, right: right)
                    : putOver(glyphs, styles, x: x, y: y, left: left, right: right)
            }
        }
        if !pictures.isEmpty, col > x { covered(Rect(x: x, y: y, width: col - x, height: 1)) }
        return col
    }

    /// Whether a continuation cell is among those `count` columns from `x` may write, or the
    /// one after them: then writing must blank the rest of its wide grapheme (`clearWide`).
    private func overwritesWide(x: Int, y: Int, count: Int, left: Int, right: Int) -> Bool {
        guard x < right, mayHoldWide(y) else { return false }
        let from = max(x, left)
        let to = min(width - 1, min(right, x + count))
        guard from <= to else { return false }
        return cells.withUnsafeBufferPointer { c in (from...to).contains { c[y * width + $0].isContinuation } }
    }

    private mutating func putEach(
        _ glyphs: Glyphs, _ styles: UnsafeBufferPointer<Cell>, x: Int, y: Int, left: Int, right: Int
    ) -> Int {
        var col = x
        for g in glyphs.items {
            let (next, done) = place(width: Int(g.width), style: styles[Int(g.span)].style, at: col, y: y, left: left, right: right) {
                g.code & Cell.clusterFlag == 0 ? g.code : $0.code(forCluster: glyphs.clusters[Int(g.code & ~Cell.clusterFlag)], row: y)
            }
            col = next
            if done { break }
        }
        return col
    }

    /// `putEach` where no wide grapheme is overwritten, through a pointer: the cells `place`
    /// writes, without its checks on every cell (a quarter of a frame). Clusters drawn take
    /// the next places in the table, and enter it once the cells are written.
    private mutating func putOver(
        _ glyphs: Glyphs, _ styles: UnsafeBufferPointer<Cell>, x: Int, y: Int, left: Int, right: Int
    ) -> Int {
        var drawn: [Int] = []
        let first = UInt32(clusters.count)
        let row = y * width
        let words = Cell.isTwoWords
        var wide = false
        let col = cells.withUnsafeMutableBufferPointer { cells in
            glyphs.items.withUnsafeBufferPointer { items -> Int in
                var col = x
                var i = 0
                while i < items.count {
                    if words {
                        // Narrow glyphs of one scalar inside the clip, most of a line, in a loop
                        // of their own: the general one kept 20 values, half of them spilled.
                        let base = UnsafeRawPointer(styles.baseAddress!)
                        let out = UnsafeMutableRawPointer(cells.baseAddress! + row)
                        while i < items.count, col >= left, col < right {
                            let g = items[i]
                            guard g.width == 1, g.code & Cell.clusterFlag == 0 else { break }
                            let t = base + Int(g.span) &* 16
                            out.storeBytes(of: t.loadUnaligned(as: UInt64.self) | UInt64(g.code), toByteOffset: col &* 16, as: UInt64.self)
                            out.storeBytes(
                                of: t.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: col &* 16 &+ 8, as: UInt64.self)
                            col &+= 1
                            i &+= 1
                        }
                        if i == items.count { break }
                    }
                    let g = items[i]
                    i += 1
                    let w = Int(g.width)
                    if col >= right { break }
                    if col < left {
                        col += w
                        continue
                    }
                    if w >= 2 && col + w > right {
                        for k in col..<right { cells[row + k] = Cell(style: styles[Int(g.span)].style) }
                        return right
                    }
                    var code = g.code
                    if code & Cell.clusterFlag != 0 {
                        code = Cell.clusterFlag | (first + UInt32(drawn.count))
                        drawn.append(Int(g.code & ~Cell.clusterFlag))
                    }
                    if w >= 2 { wide = true }
                    if words {
                        // Two words a cell: the code in the first's low half (11 instructions a
                        // cell field by field, the style's fields spilled and reloaded).
                        let t = UnsafeRawPointer(styles.baseAddress! + Int(g.span))
                        let (a, b) = (t.loadUnaligned(as: UInt64.self), t.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                        let to = UnsafeMutableRawPointer(cells.baseAddress! + row + col)
                        to.storeBytes(of: a | UInt64(code), as: UInt64.self)
                        to.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
                        for k in 1..<max(1, w) {
                            to.storeBytes(of: a, toByteOffset: k &* 16, as: UInt64.self)
                            to.storeBytes(of: b, toByteOffset: k &* 16 &+ 8, as: UInt64.self)
                        }
                    } else {
                        let continuation = styles[Int(g.span)]
                        var cell = continuation
                        cell.code = code
                        cells[row + col] = cell
                        for k in 1..<max(1, w) { cells[row + col + k] = continuation }
                    }
                    col += w
                }
                return col
            }
        }
        for i in drawn { _ = code(forCluster: glyphs.clusters[i], row: y) }
        if wide { Self.mark(&wideRows, y, height) }
        return col
    }
}

/// Wrapping and cutting by display width, never by character count.
public enum TextLayout {
    /// Wraps styled text to `width` columns: breaks after spaces where it can, inside a word
    /// only when the word is longer than a line; `\n` always breaks. With `limit`, the first
    /// `limit` lines only (a card's first lines of a long post cost what they show).
    public static func wrap(_ spans: [Span], width: Int, limit: Int = .max) -> [StyledLine] {
        var lines: [StyledLine] = []
        _ = layOut(spans, width: width, limit: limit, into: &lines, build: true)
        return lines
    }

    /// How many lines `wrap` makes, without building them.
    public static func lineCount(_ spans: [Span], width: Int) -> Int {
        var none: [StyledLine] = []
        return layOut(spans, width: width, limit: .max, into: &none, build: false)
    }

    /// Cuts text to `width` columns, ending with `…` when something was cut.
    public static func truncate(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        // A text takes no more columns than its UTF-8 bytes: no grapheme is wider than two
        // columns, a wide scalar has three or four bytes, a two-byte one is never wide, and a
        // cluster has two scalars or more. So `width` bytes fit unmeasured (a changing count
        // is a new text each frame).
        if text.utf8.count <= width || Screen.width(of: text) <= width { return text }
        var out = ""
        var used = 0
        for ch in text {
            let w = Screen.width(of: ch)
            if used + w > width - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }

    /// Pads with spaces to `width` columns (cuts first if longer).
    public static func pad(_ text: String, width: Int) -> String {
        let t = truncate(text, width: width)
        return t + String(repeating: " ", count: max(0, width - Screen.width(of: t)))
    }
}
