import TweetText

/// A frame as a grid of cells: what `render` produces and the terminal presents.
public struct Screen: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public internal(set) var cells: [Cell]
    /// Graphemes of more than one scalar, referred to by cells: one entry each time one is
    /// drawn. A frame's table lives one frame; finding a grapheme already in it, by `String`
    /// (canonical equivalence, each lookup normalized), was a quarter of a frame.
    var clusters: [String] = []
    /// The graphemes of more than one scalar drawn on this screen, one entry a cell drawn.
    public var multiScalarGraphemes: [String] { clusters }
    /// Where the terminal cursor goes (the compose box's caret), if shown.
    public var cursor: (x: Int, y: Int)? {
        get { cursorX < 0 ? nil : (cursorX, cursorY) }
        set {
            cursorX = newValue?.x ?? -1
            cursorY = newValue?.y ?? -1
        }
    }
    private var cursorX = -1, cursorY = -1
    /// Pictures on this frame, in the order placed.
    public internal(set) var pictures: [PicturePlacement] = []
    /// Where cards start in regions that scroll, for the terminal to find a scroll by.
    public var anchors: [Anchor] = []
    /// A bit a row that may hold a cluster, or a wide grapheme's continuation
    /// (`Screen+Clusters`); none while empty.
    var clusterRows: [UInt64] = [], wideRows: [UInt64] = []
    /// What drew each row, for the next frame to copy (`Screen+Rows`); none while empty.
    var sources = RowSources()

    public init(width: Int, height: Int, fill: Style = .plain) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Cell.repeated(Cell(style: fill), count: self.width * self.height)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        @inlinable get { cells[y * width + x] }
        set {
            forget(rows: y, to: y + 1)
            if newValue.isCluster { markCluster(row: y) }
            if newValue.isContinuation { Self.mark(&wideRows, y, height) }
            cells[y * width + x] = newValue
        }
    }

    /// The grapheme a cell shows ("" for a continuation).
    public func grapheme(_ x: Int, _ y: Int) -> String { grapheme(of: self[x, y]) }

    public func grapheme(of cell: Cell) -> String {
        if cell.code == 0 { return "" }
        if cell.isCluster { return clusters[Int(cell.code & ~Cell.clusterFlag)] }
        return String(Character(Unicode.Scalar(cell.code) ?? " "))
    }

    /// The cell's scalar when it holds exactly one (not a cluster, not a continuation).
    @inline(__always) public func scalar(of cell: Cell) -> UInt32? { cell.code == 0 || cell.isCluster ? nil : cell.code }

    /// The scalars of a cell's grapheme, for the terminal.
    public func scalars(of cell: Cell) -> [UInt32] {
        if cell.code == 0 { return [] }
        if cell.isCluster { return clusters[Int(cell.code & ~Cell.clusterFlag)].unicodeScalars.map(\.value) }
        return [cell.code]
    }

    /// Whether two cells (each from its own screen) look the same.
    public static func same(_ a: Cell, in sa: Screen, _ b: Cell, in sb: Screen) -> Bool {
        guard a == b else { return a.style == b.style && a.isCluster && b.isCluster && sameText(sa.grapheme(of: a), sb.grapheme(of: b)) }
        return !a.isCluster || sameText(sa.grapheme(of: a), sb.grapheme(of: b))
    }

    /// The same scalars, byte for byte: a terminal shows `e` + U+0323 + U+0301 and `e` +
    /// U+0301 + U+0323 as written, though `String` calls them equal.
    @inline(__always) static func sameText(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    /// Writes text from (x, y) within `clip` (the screen by default); returns the column after
    /// the last cell written. Graphemes are measured by TweetText's display width; a wide one
    /// that would cross the clip edge becomes a space; zero-width and control ones are dropped.
    /// A graphic under the cells written leaves the screen.
    @discardableResult
    public mutating func put(_ text: some StringProtocol, x: Int, y: Int, style: Style, clip: Rect? = nil) -> Int {
        write(text, x: x, y: y, style: style, clip: clip)
    }

    /// `put` for a `String`, compiled for it here: the generic one called from another module
    /// runs unspecialized, a protocol call a grapheme (the status bar's greater part).
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style, clip: Rect? = nil) -> Int {
        write(text, x: x, y: y, style: style, clip: clip)
    }

    private mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: Style, clip: Rect?) -> Int {
        forget(rows: y, to: y + 1)
        let end = cells(text, x: x, y: y, style: style, clip: clip)
        if !pictures.isEmpty, end > x { covered(Rect(x: x, y: y, width: end - x, height: 1)) }
        return end
    }

    private mutating func cells(_ text: some StringProtocol, x: Int, y: Int, style: Style, clip: Rect?) -> Int {
        let c = clip ?? bounds
        guard y >= max(0, c.y), y < min(height, c.maxY) else { return x }
        let right = min(width, c.maxX)
        // Printable ASCII, the Latin letters after it and symbols of one cell need no grapheme
        // breaking: one scalar, one cell (`Screen+OneCell`).
        if let end = oneCellText(text, x: x, y: y, style: style, left: max(0, c.x), right: right) { return end }
        // Other text as a line of one span, from its glyphs measured once (`MeasuredTexts`).
        return put(StyledLine([Span("", style)], glyphs: MeasuredTexts.glyphs(text)), x: x, y: y, clip: clip)
    }

    /// Puts one grapheme of `w` columns at `col` of row `y`, drawn only within `left..<right`:
    /// the column after it, and whether the row is full. A wide grapheme that would cross the
    /// right edge becomes blanks to the edge. `code` is asked only for a grapheme drawn (it may
    /// add a cluster to this screen's table).
    @inline(__always)
    mutating func place(
        width w: Int, style: Style, at col: Int, y: Int, left: Int, right: Int, code: (inout Screen) -> UInt32
    ) -> (next: Int, done: Bool) {
        if col >= right { return (col, true) }
        if col < left { return (col + w, false) }
        if w >= 2 && col + w > right {
            for x in col..<right {
                clearWide(at: x, y: y)
                self[x, y] = Cell(style: style)
            }
            return (right, true)
        }
        clearWide(at: col, y: y)
        let c = code(&self)
        self[col, y] = Cell(code: c, style: style)
        for k in 1..<max(1, w) {
            clearWide(at: col + k, y: y)
            self[col + k, y] = Cell(code: 0, style: style)
        }
        return (col + w, false)
    }

    /// Overwriting part of a wide grapheme blanks the rest of it, so no cell is left orphaned.
    @inline(__always)
    mutating func clearWide(at x: Int, y: Int) {
        // Most cells are narrow, with a narrow one after: nothing to blank, and no call.
        let i = y * width + x
        if !cells[i].isContinuation, x + 1 >= width || !cells[i + 1].isContinuation { return }
        blankWide(at: x, y: y)
    }

    private mutating func blankWide(at x: Int, y: Int) {
        var start = x
        if self[x, y].isContinuation {
            while start > 0, self[start, y].isContinuation { start -= 1 }
            if start != x { self[start, y] = Cell(style: self[start, y].style) }
        }
        var k = max(start, x) + 1
        if start != x { k = start + 1 }
        while k < width, self[k, y].isContinuation {
            if k != x { self[k, y] = Cell(style: self[k, y].style) }
            k += 1
        }
    }

    /// Cells the grapheme at (x, y) takes: itself and the continuations after it.
    @inlinable public func span(_ x: Int, _ y: Int) -> Int {
        var n = 1
        while x + n < width, self[x + n, y].isContinuation { n += 1 }
        return n
    }

    /// Paints a rectangle with blanks of a style.
    public mutating func fill(_ rect: Rect, style: Style) {
        covered(rect)
        forget(rows: rect.y, to: rect.maxY)
        let (left, right) = (max(0, rect.x), min(width, rect.maxX))
        guard left < right, max(0, rect.y) < min(height, rect.maxY) else { return }
        for y in max(0, rect.y)..<min(height, rect.maxY) {
            // Only a wide grapheme across an edge has a half outside to blank.
            clearWide(at: left, y: y)
            clearWide(at: right - 1, y: y)
            cells.withUnsafeMutableBufferPointer { c in
                UnsafeMutableBufferPointer(rebasing: c[y * width + left..<y * width + right]).update(repeating: Cell(style: style))
            }
        }
    }

    /// Changes the style of cells already written (a selection bar over a card).
    public mutating func restyle(_ rect: Rect, _ change: (Style) -> Style) {
        guard max(0, rect.x) < min(width, rect.maxX), max(0, rect.y) < min(height, rect.maxY) else { return }
        forget(rows: rect.y, to: rect.maxY)
        for y in max(0, rect.y)..<min(height, rect.maxY) {
            for x in max(0, rect.x)..<min(width, rect.maxX) { cells[y * width + x].style = change(cells[y * width + x].style) }
        }
    }

    /// The text of a row, continuations left out, trailing blanks kept.
    public func line(_ y: Int) -> String {
        var s = ""
        for x in 0..<width where !self[x, y].isContinuation { s += grapheme(x, y) }
        return s
    }

    /// Every row, trailing blanks trimmed: what golden files hold.
    public var text: String {
        (0..<height).map { y in
            var l = line(y)
            while l.last == " " { l.removeLast() }
            return l
        }.joined(separator: "\n")
    }

    /// Columns a grapheme takes: TweetText's width, with control characters as zero.
    public static func width(of ch: Character) -> Int {
        // ASCII first: the mode is a task-local lookup, not needed for it.
        if let a = ch.asciiByte { return a < 0x20 || a == 0x7F ? 0 : 1 }
        return width(of: ch, mode: DisplayWidth.mode)
    }

    /// `width(of:)` with the terminal's mode read once by the caller.
    static func width(of ch: Character, mode: WidthMode) -> Int {
        if let a = ch.asciiByte { return a < 0x20 || a == 0x7F ? 0 : 1 }
        if let s = ch.unicodeScalars.first, s.value < 0x20 || (0x7F...0x9F).contains(s.value) { return 0 }
        return DisplayWidth.of(ch, mode: mode)
    }

    public static func width(of text: some StringProtocol) -> Int { columns(text) }
    /// For a `String`, compiled here (as `put`'s).
    public static func width(of text: String) -> Int { columns(text) }
    private static func columns(_ text: some StringProtocol) -> Int {
        oneCellScalars(text) ?? MeasuredTexts.glyphs(text).width
    }

    /// Same size, cursor, cells and clusters (the same picture drawn in another order may
    /// compare unequal; that only costs a redraw).
    public static func == (a: Screen, b: Screen) -> Bool {
        a.width == b.width && a.height == b.height && a.cursorX == b.cursorX && a.cursorY == b.cursorY
            && a.clusters.count == b.clusters.count && zip(a.clusters, b.clusters).allSatisfy(sameText) && sameCells(a.cells, b.cells)
            && a.pictures == b.pictures
    }
}
