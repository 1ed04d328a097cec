import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A colour as a theme names it; the terminal reduces it to what it can show.
public enum Color: Hashable, Sendable {
    case `default`
    /// One of the 256 xterm colours (0–15 are the terminal's own 16).
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    /// Parses `#rrggbb`, `#rgb`, `default`, or a number 0–255.
    public init?(parsing text: String) {
        // "#rrggbb" read from its bytes: the built-in theme parses 58 colours before the first
        // frame, and trimming and lowercasing a String cost about 17,000 instructions each.
        if let c = Self.hex(text.utf8) {
            self = c
            return
        }
        let t = text.trimmed().lowercased()
        if t == "default" || t.isEmpty {
            self = .default
            return
        }
        if let n = UInt8(t) {
            self = .indexed(n)
            return
        }
        guard t.hasPrefix("#") else { return nil }
        var hex = String(t.dropFirst())
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6, let v = UInt32(hex, radix: 16) else { return nil }
        self = .rgb(UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
    }

    /// Exactly "#" and six hex digits of either case, else nil (the general path decides).
    private static func hex(_ u: String.UTF8View) -> Color? {
        guard u.count == 7, u.first == UInt8(ascii: "#") else { return nil }
        var v: UInt32 = 0
        for b in u.dropFirst() {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = v << 4 | UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = v << 4 | UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = v << 4 | UInt32(b - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        return .rgb(UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
    }
}

/// Text attributes that work without colour.
public struct Attributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = Attributes(rawValue: 1)
    public static let underline = Attributes(rawValue: 2)
    public static let reverse = Attributes(rawValue: 4)
    public static let dim = Attributes(rawValue: 8)
    public static let italic = Attributes(rawValue: 16)
}

/// How a cell looks. Colours are packed in words so that frames compare and copy as plain
/// memory (a 200x60 frame is 12,000 of these).
public struct Style: Hashable, Sendable {
    @usableFromInline var fgBits: UInt32
    @usableFromInline var bgBits: UInt32
    public var attributes: Attributes
    /// Always 0 (a constant): the byte a cell would leave as padding, of no known value, made a
    /// field so that rows of cells compare as memory.
    @usableFromInline let spare: UInt8 = 0
    /// The hyperlink the text leads to (`Hyperlinks`), 0 for none; with the spare byte, a cell
    /// stays 16 bytes.
    public var link: UInt16 = 0

    public init(fg: Color = .default, bg: Color = .default, _ attributes: Attributes = []) {
        fgBits = fg.bits
        bgBits = bg.bits
        self.attributes = attributes
    }

    /// This style leading to a link.
    public func linked(_ id: UInt16) -> Style {
        var s = self
        s.link = id
        return s
    }

    public var fg: Color {
        get { Color(bits: fgBits) }
        set { fgBits = newValue.bits }
    }

    public var bg: Color {
        get { Color(bits: bgBits) }
        set { bgBits = newValue.bits }
    }

    public static let plain = Style()

    // Inlinable: the terminal compares each cell's style with the last one's, from another module.
    @inlinable public static func == (a: Style, b: Style) -> Bool {
        a.fgBits == b.fgBits && a.bgBits == b.bgBits && a.attributes.rawValue == b.attributes.rawValue && a.link == b.link
    }

    /// This style with another's colours and attributes laid over it (defaults let this show).
    public func over(_ base: Style) -> Style {
        var s = self
        if fgBits == 0 { s.fgBits = base.fgBits }
        if bgBits == 0 { s.bgBits = base.bgBits }
        s.attributes.formUnion(base.attributes)
        if link == 0 { s.link = base.link }
        return s
    }
}

extension Color {
    /// 0 for the default, 1 << 24 | index, or 2 << 24 | rgb.
    var bits: UInt32 {
        switch self {
        case .default: return 0
        case .indexed(let n): return 1 << 24 | UInt32(n)
        case .rgb(let r, let g, let b): return 2 << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        }
    }

    init(bits: UInt32) {
        switch bits >> 24 {
        case 1: self = .indexed(UInt8(bits & 0xFF))
        case 2: self = .rgb(UInt8(bits >> 16 & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF))
        default: self = .default
        }
    }
}

/// How many colours the terminal shows.
public enum ColorDepth: Int, Sendable, Comparable {
    case none = 0
    case eight = 8
    case sixteen = 16
    case full = 256
    public static func < (a: ColorDepth, b: ColorDepth) -> Bool { a.rawValue < b.rawValue }

    /// From the count the terminal reports and `NO_COLOR`.
    public static func from(colors: Int, noColor: Bool) -> ColorDepth {
        if noColor || colors < 8 { return .none }
        if colors >= 256 { return .full }
        return colors >= 16 ? .sixteen : .eight
    }
}

extension Color {
    /// The nearest colour index at a depth; nil for the terminal's default (or no colour).
    public func index(at depth: ColorDepth) -> Int? {
        switch (self, depth) {
        case (_, .none), (.default, _): return nil
        case (.indexed(let n), .full): return Int(n)
        case (.indexed(let n), _) where Int(n) < depth.rawValue: return Int(n)
        case (.indexed(let n), _): return Self.nearest(Self.xterm(Int(n)), among: depth.rawValue)
        case (.rgb(let r, let g, let b), .full): return Self.cube(r, g, b)
        case (.rgb(let r, let g, let b), _): return Self.nearest((Int(r), Int(g), Int(b)), among: depth.rawValue)
        }
    }

    /// The xterm 256-colour cube or grey ramp entry nearest an RGB colour.
    static func cube(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        let (cr, cg, cb) = (level(r), level(g), level(b))
        let cubeIndex = 16 + 36 * cr + 6 * cg + cb
        let steps = [0, 95, 135, 175, 215, 255]
        let cubeColor = (steps[cr], steps[cg], steps[cb])
        let avg = (Int(r) + Int(g) + Int(b)) / 3
        let greyLevel = avg > 238 ? 23 : max(0, (avg - 3) / 10)
        let grey = 8 + 10 * greyLevel
        let target = (Int(r), Int(g), Int(b))
        return distance(target, (grey, grey, grey)) < distance(target, cubeColor) ? 232 + greyLevel : cubeIndex
    }

    /// The RGB value xterm gives an index.
    static func xterm(_ n: Int) -> (Int, Int, Int) {
        if n < 16 { return basic[n] }
        if n >= 232 {
            let v = 8 + 10 * (n - 232)
            return (v, v, v)
        }
        let steps = [0, 95, 135, 175, 215, 255]
        let i = n - 16
        return (steps[i / 36], steps[i / 6 % 6], steps[i % 6])
    }

    static let basic: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    static func nearest(_ c: (Int, Int, Int), among count: Int) -> Int {
        (0..<min(count, 16)).min { distance(c, basic[$0]) < distance(c, basic[$1]) } ?? 7
    }

    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }
}
