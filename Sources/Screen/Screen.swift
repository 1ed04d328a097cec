import TweetText

/// One terminal cell: a grapheme and its style. A wide grapheme fills its cell and marks the
/// next one as its continuation.
public struct Cell: Hashable, Sendable {
    public var grapheme: String
    public var style: Style
    /// The right half of a wide grapheme; drawn by the cell to its left.
    public var isContinuation: Bool

    public init(_ grapheme: String = " ", style: Style = .plain, isContinuation: Bool = false) {
        self.grapheme = grapheme
        self.style = style
        self.isContinuation = isContinuation
    }

    public static let blank = Cell()
}

/// A rectangle of cells.
public struct Rect: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
}

/// A frame as a grid of cells: what `render` produces and the terminal presents.
public struct Screen: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where the terminal cursor goes (the compose box's caret), if shown.
    public var cursor: (x: Int, y: Int)? {
        get { cursorX < 0 ? nil : (cursorX, cursorY) }
        set {
            cursorX = newValue?.x ?? -1
            cursorY = newValue?.y ?? -1
        }
    }
    private var cursorX = -1, cursorY = -1

    public init(width: Int, height: Int, fill: Style = .plain) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(style: fill), count: self.width * self.height)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes text from (x, y) within `clip` (the screen by default); returns the column after
    /// the last cell written. Graphemes are measured by TweetText's display width; a wide one
    /// that would cross the clip edge becomes a space; zero-width and control ones are dropped.
    @discardableResult
    public mutating func put(_ text: some StringProtocol, x: Int, y: Int, style: Style, clip: Rect? = nil) -> Int {
        let c = clip ?? bounds
        guard y >= max(0, c.y), y < min(height, c.maxY) else { return x }
        let right = min(width, c.maxX)
        var col = x
        for ch in text {
            let w = Self.width(of: ch)
            if w == 0 { continue }
            if col >= right { break }
            if col < max(0, c.x) {
                col += w
                continue
            }
            if w == 2 && col + 1 >= right {
                self[col, y] = Cell(" ", style: style)
                col += 1
                break
            }
            clearWide(at: col, y: y)
            self[col, y] = Cell(String(ch), style: style)
            if w == 2 {
                clearWide(at: col + 1, y: y)
                self[col + 1, y] = Cell("", style: style, isContinuation: true)
            }
            col += w
        }
        return col
    }

    /// Overwriting half of a wide grapheme blanks its other half, so no cell is left orphaned.
    private mutating func clearWide(at x: Int, y: Int) {
        let cell = self[x, y]
        if cell.isContinuation, x > 0 {
            self[x - 1, y] = Cell(" ", style: self[x - 1, y].style)
        } else if x + 1 < width, self[x + 1, y].isContinuation {
            self[x + 1, y] = Cell(" ", style: self[x + 1, y].style)
        }
    }

    /// Paints a rectangle with blanks of a style.
    public mutating func fill(_ rect: Rect, style: Style) {
        for y in max(0, rect.y)..<min(height, rect.maxY) {
            for x in max(0, rect.x)..<min(width, rect.maxX) {
                clearWide(at: x, y: y)
                self[x, y] = Cell(" ", style: style)
            }
        }
    }

    /// Changes the style of cells already written (a selection bar over a card).
    public mutating func restyle(_ rect: Rect, _ change: (Style) -> Style) {
        for y in max(0, rect.y)..<min(height, rect.maxY) {
            for x in max(0, rect.x)..<min(width, rect.maxX) { cells[y * width + x].style = change(cells[y * width + x].style) }
        }
    }

    /// The text of a row, continuations left out, trailing blanks kept.
    public func line(_ y: Int) -> String {
        var s = ""
        for x in 0..<width where !self[x, y].isContinuation { s += self[x, y].grapheme }
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
        if let s = ch.unicodeScalars.first, s.value < 0x20 || (0x7F...0x9F).contains(s.value) { return 0 }
        return DisplayWidth.of(ch)
    }

    public static func width(of text: some StringProtocol) -> Int { text.reduce(0) { $0 + width(of: $1) } }

    public static func == (a: Screen, b: Screen) -> Bool {
        a.width == b.width && a.height == b.height && a.cells == b.cells && a.cursorX == b.cursorX && a.cursorY == b.cursorY
    }
}
