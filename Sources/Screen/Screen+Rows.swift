/// Rows a frame may take whole from the frame before: a row that shows one laid-out line of a
/// card, placed and marked as `RowPlace` says, is named by the line's storage; the next frame
/// that draws the same line the same way copies the row's cells instead of writing them
/// again (#29: a key that scrolls or moves the selection changes a few rows, and drawing the
/// others again was a fifth of its work). Any other write to a row forgets its name.
public struct RowPlace: Sendable {
    let x: Int, left: Int, right: Int
    let fill: Style, band: Style?, bar: Style?

    /// A line at `x`, clipped to `left..<right`, over blanks of `fill`, with the selection's
    /// band (laid over the clip) and bar (at `left`) when set.
    public init(x: Int, left: Int, right: Int, fill: Style, band: Style?, bar: Style?) {
        (self.x, self.left, self.right) = (x, left, right)
        (self.fill, self.band, self.bar) = (fill, band, bar)
    }
}

/// A named row as plain words, compared without touching the line's storage: the addresses
/// of the line's spans and glyphs (held by the screen, so no other line takes them while it
/// names a row; a line held elsewhere is never changed in place) and its place. `named`
/// false is no name.
struct RowKey: Equatable, Sendable {
    var glyphs: UInt = 0, spans: UInt = 0, clusters: UInt = 0
    var width = 0, x = 0, left = 0, right = 0
    var fill = Style.plain, band = Style.plain, bar = Style.plain
    var marks: UInt8 = 0
    var named = false

    init() {}

    init(_ line: StyledLine, _ p: RowPlace) {
        (glyphs, spans, clusters) = (Self.address(line.glyphs.items), Self.address(line.spans), Self.address(line.glyphs.clusters))
        (width, x, left, right) = (line.width, p.x, p.left, p.right)
        (fill, band, bar) = (p.fill, p.band ?? .plain, p.bar ?? .plain)
        marks = (p.band == nil ? 0 : 1) | (p.bar == nil ? 0 : 2)
        named = true
    }

    private static func address<T>(_ a: [T]) -> UInt { a.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
}

/// Each row's name, if a line drew it and nothing wrote to it since, and the cards whose lines
/// the names point into. Not part of what a frame shows (`Screen.==` leaves it out).
struct RowSources: Sendable {
    var keys: [RowKey] = []
    var held: [[StyledLine]] = []
}

extension Screen {
    /// Rows `y...` show `lines` (the first `count`), drawn just now at `place`.
    public mutating func name(rows y: Int, _ lines: [StyledLine], count: Int, at place: RowPlace) {
        hold(lines)
        for i in 0..<count where y + i >= 0 && y + i < height { sources.keys[y + i] = RowKey(lines[i], place) }
    }

    /// The first row from which this screen shows the first `count` of `lines` at `place`, in
    /// order; row `hint` (where the card stood) is looked at first.
    public func rows(showing lines: [StyledLine], count: Int, at place: RowPlace, hint: Int? = nil) -> Int? {
        guard count > 0, count <= lines.count, !sources.keys.isEmpty else { return nil }
        let first = RowKey(lines[0], place)
        return sources.keys.withUnsafeBufferPointer { keys in
            func shows(_ at: Int) -> Bool {
                at >= 0 && at + count <= height && keys[at] == first
                    && (1..<count).allSatisfy { keys[at + $0] == RowKey(lines[$0], place) }
            }
            if let hint, shows(hint) { return hint }
            return (0..<height).first(where: shows)
        }
    }

    /// Rows `y..<y+count` take the cells of `other`'s rows `from...` (a screen as wide, where
    /// `rows(showing:)` found `lines` at `place`) within the place's clip: the lines with the
    /// band and bar the place names, as drawing them would leave the rows, one copy a row.
    /// The rows must hold the fill's blanks only, as a frame's do before its cards are drawn.
    /// False, and nothing written, where the rows cannot be taken.
    public mutating func take(rows from: Int, of other: Screen, to y: Int, _ lines: [StyledLine], count: Int, at place: RowPlace)
        -> Bool
    {
        guard other.width == width, count <= lines.count, from >= 0, from + count <= other.height, y >= 0, y + count <= height
        else { return false }
        let (left, right) = (max(0, place.left), min(width, place.right))
        guard left < right else { return false }
        hold(lines)
        covered(Rect(x: left, y: y, width: right - left, height: count))
        for i in 0..<count {
            let (row, to) = (from + i, y + i)
            let key = RowKey(lines[i], place)
            assert(other.sources.keys[row] == key, "row \(row) of the frame before does not show line \(i)")
            assert((left..<right).allSatisfy { self[$0, to] == Cell(style: place.fill) }, "row \(to) holds more than the fill")
            other.cells.withUnsafeBufferPointer { source in
                cells.withUnsafeMutableBufferPointer { c in
                    (c.baseAddress! + to * width + left).update(from: source.baseAddress! + row * width + left, count: right - left)
                }
            }
            if other.mayHoldWide(row) { Self.mark(&wideRows, to, height) }
            if other.mayHoldCluster(row) {
                // A cluster's code is its place in its own screen's table.
                var x = left
                while let at = other.cluster(row: row, from: x, to: right) {
                    let k = Int(other.cells[row * width + at].code & ~Cell.clusterFlag)
                    cells[to * width + at].code = code(forCluster: other.clusters[k], row: to)
                    x = at + 1
                }
            }
            // Named by the lines this screen holds, not the frame before's.
            sources.keys[to] = key
        }
        return true
    }

    /// The first column of `from..<to` in row `y` holding a cluster, looked for through the
    /// cells' storage (a row's cells read through the array, each checked, were most of a
    /// take's own cost).
    func cluster(row y: Int, from: Int, to: Int) -> Int? {
        cells.withUnsafeBufferPointer { c in
            let row = c.baseAddress! + y * width
            var x = from
            while x < to {
                if row[x].isCluster { return x }
                x += 1
            }
            return nil
        }
    }

    /// Holds a card whose lines name rows of this screen, so that their storage stays theirs.
    private mutating func hold(_ lines: [StyledLine]) {
        if sources.keys.isEmpty {
            sources.keys = [RowKey](unsafeUninitializedCapacity: height) { b, n in
                b.initialize(repeating: RowKey())
                n = height
            }
            sources.held.reserveCapacity(32)
        }
        sources.held.append(lines)
    }

    /// Rows `y..<end` were written otherwise: they show no line now.
    @inline(__always) mutating func forget(rows y: Int, to end: Int) {
        guard !sources.keys.isEmpty else { return }
        for r in max(0, y)..<max(max(0, y), min(height, end)) where sources.keys[r].named { sources.keys[r] = RowKey() }
    }

    /// Whether row `y` shows what row `z` of `other` shows, said by their names alone: the same
    /// line at the same place across the whole row, so the same graphemes and styles (a
    /// cluster's code may differ, each screen's own). Both screens hold the line, so its
    /// storage is no other line's (a moved selection's frame compared its rows taken alike cell by
    /// cell: 2.5 KB a row at 160 columns).
    @inline(__always) func sameByName(_ y: Int, _ other: Screen, _ z: Int) -> Bool {
        guard !sources.keys.isEmpty, !other.sources.keys.isEmpty, width == other.width else { return false }
        let key = sources.keys[y]
        return key.named && key.left <= 0 && key.right >= width && other.sources.keys[z] == key
    }

    /// Whether row `y` shows `line` at `place` (for tests).
    func row(_ y: Int, shows line: StyledLine, at place: RowPlace) -> Bool {
        y >= 0 && y < height && !sources.keys.isEmpty && sources.keys[y] == RowKey(line, place)
    }

    /// Whether row `y` is named (for tests).
    func isNamed(_ y: Int) -> Bool { y >= 0 && y < height && !sources.keys.isEmpty && sources.keys[y].named }
}
