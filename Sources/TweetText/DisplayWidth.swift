/// How a terminal advances over a grapheme cluster. Most give each scalar its own width (a
/// Devanagari consonant 1, a virama or vowel sign 0; each emoji of a ZWJ sequence 2): `perScalar`.
/// Terminals in grapheme cluster mode (DEC mode 2027: foot, WezTerm, Ghostty, Contour, recent
/// kitty) treat a whole cluster as one unit: `grapheme`.
public enum WidthMode: Sendable, Hashable {
    case perScalar, grapheme
    /// Per scalar, except the kinds of cluster the terminal was measured drawing as one.
    case measured(ClusterKinds)
}

/// Kinds of grapheme cluster terminals disagree on: each drawn per scalar by some, as one
/// cluster (two cells, or one for a text-style VS-15 form) by others.
public struct ClusterKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Emoji joined by ZWJ (🧑‍🚀).
    public static let zwj = ClusterKinds(rawValue: 1)
    /// Two regional indicators (🇯🇵).
    public static let flag = ClusterKinds(rawValue: 2)
    /// A text character made emoji by VS-16 (❤️).
    public static let vs16 = ClusterKinds(rawValue: 4)
    /// An emoji made text by VS-15 (⌚︎).
    public static let vs15 = ClusterKinds(rawValue: 8)
    /// A keycap (1️⃣).
    public static let keycap = ClusterKinds(rawValue: 16)
    /// An emoji with a skin tone (👍🏽).
    public static let skinTone = ClusterKinds(rawValue: 32)

    /// One sample of each kind, as written to the terminal to measure it.
    public static let samples: [(kind: ClusterKinds, text: String)] = [
        (.zwj, "\u{1F9D1}\u{200D}\u{1F680}"), (.flag, "\u{1F1EF}\u{1F1F5}"), (.vs16, "\u{2764}\u{FE0F}"),
        (.vs15, "\u{231A}\u{FE0E}"), (.keycap, "1\u{FE0F}\u{20E3}"), (.skinTone, "\u{1F44D}\u{1F3FD}"),
    ]

    /// The kinds a cluster of more than one scalar is made of (a woman technologist with a skin
    /// tone is a ZWJ sequence and a skin tone): it is measured as one cluster only where the
    /// terminal was seen joining each of them.
    public static func kinds(of scalars: [Unicode.Scalar]) -> ClusterKinds {
        var k = ClusterKinds()
        for s in scalars {
            switch s.value {
            case 0x20E3: k.insert(.keycap)
            case 0x200D: k.insert(.zwj)
            case 0x1F3FB...0x1F3FF: k.insert(.skinTone)
            case 0xFE0E: k.insert(.vs15)
            default: break
            }
        }
        if scalars.count == 2, scalars.allSatisfy({ (0x1F1E6...0x1F1FF).contains($0.value) }) { k.insert(.flag) }
        // VS-16 of a keycap is part of the keycap, and inside a ZWJ sequence part of the sequence.
        if scalars.contains(where: { $0.value == 0xFE0F }), !k.contains(.keycap), !k.contains(.zwj) { k.insert(.vs16) }
        return k
    }

    /// The kinds a terminal draws as one cluster, from the cells it advanced over each sample
    /// (`measured[i]` for `samples[i]`): a kind counts when the terminal's cells are the
    /// cluster's and not the sum of the scalars'. Nil when the answers are not all there.
    public static func fromMeasured(_ measured: [Int]) -> ClusterKinds? {
        guard measured.count == samples.count else { return nil }
        var kinds = ClusterKinds()
        for (i, sample) in samples.enumerated() {
            let c = Character(sample.text)
            let cluster = DisplayWidth.of(c, mode: .grapheme)
            if measured[i] == cluster, measured[i] != DisplayWidth.of(c, mode: .perScalar) { kinds.insert(sample.kind) }
        }
        return kinds
    }
}

/// Terminal cells a grapheme cluster takes, in the terminal's mode: per scalar (the sum of each
/// scalar's cells, what most terminals do), or per cluster (emoji sequences, flags and VS16
/// forms as two cells: mode 2027).
public enum DisplayWidth {
    /// The mode widths are measured in: bound for a task by whoever knows the terminal (the
    /// reducer and views from their context, the terminal while it draws); per scalar where
    /// nothing is bound. Never a process-wide setting.
    @TaskLocal public static var mode: WidthMode = .perScalar

    /// Cells for one grapheme cluster in the terminal's mode.
    public static func of(_ character: Character) -> Int { of(character, mode: mode) }

    public static func of(_ character: Character, mode: WidthMode) -> Int {
        if let a = character.asciiByte { return a < 0x20 || a == 0x7F ? 0 : 1 }
        if mode == .grapheme { return cluster(character) }
        var it = character.unicodeScalars.makeIterator()
        guard let lone = it.next() else { return 0 }
        guard it.next() != nil else { return single(lone) }
        if case .measured(let joined) = mode, !joined.isEmpty {
            let k = ClusterKinds.kinds(of: Array(character.unicodeScalars))
            if !k.isEmpty, joined.isSuperset(of: k) { return cluster(character) }
        }
        var total = 0
        for s in character.unicodeScalars { total += single(s) }
        return total
    }

    /// Cells one scalar takes on a terminal that advances per scalar (as `wcwidth`).
    public static func scalarWidth(_ v: UInt32) -> Int {
        guard let s = Unicode.Scalar(v) else { return 0 }
        return single(s)
    }

    /// Cells for one grapheme cluster taken as a unit: 0, 1 or 2.
    static func cluster(_ character: Character) -> Int {
        // Most text is ASCII or one scalar per cluster: answer those without building arrays.
        if let a = character.asciiByte { return a < 0x20 || a == 0x7F ? 0 : 1 }
        var it = character.unicodeScalars.makeIterator()
        guard let lone = it.next() else { return 0 }
        if it.next() == nil { return single(lone) }
        let scalars = Array(character.unicodeScalars)
        guard let first = scalars.first else { return 0 }
        let v = first.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return scalars.count > 1 && EmojiScanner.sequenceEnd(scalars, at: 0) != nil ? 2 : 1 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if (0x1160...0x11FF).contains(v) { return 0 }
        if EmojiScanner.sequenceEnd(scalars, at: 0) != nil { return 2 }
        if scalars.contains(where: { $0.value == 0xFE0E }) { return 1 }
        return isWide(v) ? 2 : 1
    }

    /// A cluster of one scalar: no sequence to look at beyond the scalar itself.
    private static func single(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return 1 }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(v) { return 0 }
        if isWide(v) { return 2 }
        if v >= 0x2000 && isEmojiAlone(s) { return 2 }
        return 1
    }

    /// `EmojiScanner.sequenceEnd([s], at: 0) != nil` without the array (a scalar read alone
    /// is an emoji when it is presented as one; a lone regional indicator is not).
    static func isEmojiAlone(_ s: Unicode.Scalar) -> Bool {
        !EmojiScanner.isRegionalIndicator(s) && s.properties.isEmoji && s.properties.isEmojiPresentation
    }

    /// Cells for a whole string.
    public static func of(_ text: String) -> Int {
        let m = mode
        var total = 0
        for c in text { total += of(c, mode: m) }
        return total
    }

    /// East Asian Wide and Fullwidth code points (Unicode EastAsianWidth.txt, W and F), apart
    /// from emoji, which the emoji rule covers.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1AFF0...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
        0x1F260...0x1F265, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF,
        0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    static func isWide(_ v: UInt32) -> Bool {
        var lo = 0
        var hi = wide.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if v < wide[mid].lowerBound {
                hi = mid - 1
            } else if v > wide[mid].upperBound {
                lo = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}

extension Character {
    /// `asciiValue` without its compare with "\r\n", which normalizes a non-ASCII grapheme: the
    /// byte of a grapheme that is one ASCII scalar, 10 for "\r\n", else nil.
    @inlinable @inline(__always) public var asciiByte: UInt8? {
        let bytes = utf8
        guard let first = bytes.first, first < 0x80 else { return nil }
        if bytes.count == 1 { return first }
        return first == 0x0D && bytes.count == 2 && bytes.last == 0x0A ? 0x0A : nil
    }
}
