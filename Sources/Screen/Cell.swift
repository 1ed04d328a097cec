/// One terminal cell: a grapheme and its style, as plain words. A grapheme of one scalar is
/// stored as that scalar; a longer cluster (an emoji sequence, a letter with marks) as an index
/// into its screen's cluster table. A wide grapheme marks the next cell as its continuation.
public struct Cell: Hashable, Sendable {
    /// The scalar, `clusterFlag | index`, or 0 for a continuation.
    @usableFromInline var code: UInt32
    public var style: Style

    @usableFromInline static let clusterFlag: UInt32 = 0x8000_0000

    init(code: UInt32, style: Style) {
        self.code = code
        self.style = style
    }

    /// A blank in a style.
    public init(style: Style = .plain) { self.init(code: 32, style: style) }

    public static let blank = Cell()

    /// The right half of a wide grapheme; drawn by the cell to its left.
    // Inlinable, like the screen's cell reads: the terminal's per-cell loops are in another
    // module, and called each as a function for every cell.
    @inlinable public var isContinuation: Bool { code == 0 }
    @inlinable var isCluster: Bool { code & Cell.clusterFlag != 0 }

    /// Whether a cell is two words, the code and foreground in the first (the code in its low
    /// half), the background, attributes, the spare byte (always 0) and link in the second, so
    /// that cells compare as words, and rows as memory.
    static let isTwoWords: Bool =
        MemoryLayout<Cell>.size == 16 && MemoryLayout<Cell>.offset(of: \Cell.code) == 0
        && MemoryLayout<Cell>.offset(of: \Cell.style.fgBits) == 4 && MemoryLayout<Cell>.offset(of: \Cell.style.bgBits) == 8
        && MemoryLayout<Cell>.offset(of: \Cell.style.attributes) == 12 && MemoryLayout<Attributes>.size == 1
        && MemoryLayout<Cell>.offset(of: \Cell.style.link) == 14 && UInt64(littleEndian: 1) == 1
        && MemoryLayout<Cell>.offset(of: \Cell.style.spare) == 13
        // No other stored field (the compare would not see it).
        && Mirror(reflecting: Cell.blank).children.count == 2 && Mirror(reflecting: Style.plain).children.count == 5

    /// The second word's bytes that hold fields other than the spare byte (always 0: rows also
    /// compare as memory).
    static let secondWordMask: UInt64 = 0xFFFF_00FF_FFFF_FFFF

    /// The bits where the cells `at` bytes past `a` and `b` hold different fields, read as
    /// words (`isTwoWords`): 0 when they are the same.
    @inline(__always) static func differingBits(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, at: Int) -> UInt64 {
        let first = a.loadUnaligned(fromByteOffset: at, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: at, as: UInt64.self)
        let second = a.loadUnaligned(fromByteOffset: at &+ 8, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: at &+ 8, as: UInt64.self)
        return first | (second & secondWordMask)
    }
}

/// A rectangle of cells.
public struct Rect: Hashable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
}
