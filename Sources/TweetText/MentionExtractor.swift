/// Finds `@name` and `@name/list` with twitter-text's rules on what may precede and follow.
struct MentionExtractor {
    private let s: [UInt32]

    init(_ scalars: [UInt32]) { s = scalars }

    struct Found {
        var range: Range<Int>
        var nameRange: Range<Int>
        var slugRange: Range<Int>?
    }

    /// `Extractor.mentionsOrLists` skips texts without these marks: a new one goes there too.
    @inline(__always) private static func isAtSign(_ v: UInt32) -> Bool { v == 0x40 || v == 0xFF20 }

    @inline(__always) private static func isNameChar(_ v: UInt32) -> Bool {
        CharacterClasses.isASCIIAlnum(v) || v == 0x5F
    }

    func extract() -> [Found] {
        var found: [Found] = []
        let n = s.count
        var i = 0
        while i < n {
            guard Self.isAtSign(s[i]), precedingAllows(i) else {
                i += 1
                continue
            }
            var j = i + 1
            while j < n, j - i - 1 < 20, Self.isNameChar(s[j]) { j += 1 }
            guard j > i + 1 else {
                i += 1
                continue
            }
            let nameRange = (i + 1)..<j
            var end = j
            var slug: Range<Int>?
            if end + 1 < n, s[end] == 0x2F, CharacterClasses.isASCIILetter(s[end + 1]) {
                var k = end + 2
                while k < n, k - end - 1 < 25, Self.isNameChar(s[k]) || s[k] == 0x2D { k += 1 }
                slug = end..<k
                end = k
            }
            if !followedByForbidden(end) {
                found.append(Found(range: i..<end, nameRange: nameRange, slugRange: slug))
            }
            i = end
        }
        return found
    }

    /// Start of text, a character that is not `[A-Za-z0-9_!#$%&*@＠]`, or `RT`/`RT:` after such.
    private func precedingAllows(_ at: Int) -> Bool {
        guard at > 0 else { return true }
        let p = s[at - 1]
        if !(Self.isNameChar(p) || p == 0x21 || p == 0x23 || p == 0x24 || p == 0x25 || p == 0x26
            || p == 0x2A || Self.isAtSign(p))
        {
            return true
        }
        var k = at - 1
        if s[k] == 0x3A { k -= 1 }
        guard k >= 1, CharacterClasses.asciiLower(s[k]) == 0x74,
            CharacterClasses.asciiLower(s[k - 1]) == 0x72
        else { return false }
        guard k >= 2 else { return true }
        let b = s[k - 2]
        return !(Self.isNameChar(b) || b == 0x2B || b == 0x7E || b == 0x2E || b == 0x2D)
    }

    /// A mention followed by `@`, an accented Latin letter or `://` is not a mention.
    private func followedByForbidden(_ end: Int) -> Bool {
        guard end < s.count else { return false }
        let v = s[end]
        if Self.isAtSign(v) || CharacterClasses.isLatinAccent(v) { return true }
        return v == 0x3A && end + 2 < s.count && s[end + 1] == 0x2F && s[end + 2] == 0x2F
    }
}

/// Finds `#hashtags` in any script: letters, marks, digits and a few joiners, with at least
/// one letter.
struct HashtagExtractor {
    private let scalars: [Unicode.Scalar]

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    private static func isAlpha(_ c: Unicode.Scalar) -> Bool {
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    private static func isAlnum(_ c: Unicode.Scalar) -> Bool {
        if isAlpha(c) || c.properties.generalCategory == .decimalNumber { return true }
        switch c.value {
        case 0x5F, 0x200C, 0x200D, 0xA67E, 0x05BE, 0x05F3, 0x05F4, 0xFF5E, 0x301C, 0x309B, 0x309C,
            0x30A0, 0x30FB, 0x3003, 0x0F0B, 0x0F0C, 0x00B7:
            return true
        default:
            return false
        }
    }

    /// `Extractor.hashtags` skips texts without these marks: a new one goes there too.
    @inline(__always) private static func isHash(_ v: UInt32) -> Bool { v == 0x23 || v == 0xFF03 }

    /// Ranges of whole hashtags, `#` included.
    func extract() -> [Range<Int>] {
        var found: [Range<Int>] = []
        let n = scalars.count
        var i = 0
        while i < n {
            guard Self.isHash(scalars[i].value), boundaryAllows(i) else {
                i += 1
                continue
            }
            var j = i + 1
            if j < n, scalars[j].value == 0xFE0F || scalars[j].value == 0x20E3 {
                i += 1
                continue
            }
            var sawAlpha = false
            while j < n, Self.isAlnum(scalars[j]) {
                if Self.isAlpha(scalars[j]) { sawAlpha = true }
                j += 1
            }
            guard sawAlpha else {
                i += 1
                continue
            }
            let followedByHashOrURL =
                j < n
                && (Self.isHash(scalars[j].value)
                    || (scalars[j] == ":" && j + 2 < n && scalars[j + 1] == "/" && scalars[j + 2] == "/"))
            if !followedByHashOrURL { found.append(i..<j) }
            i = j
        }
        return found
    }

    /// A hashtag starts the text or follows a variation selector or a character that is
    /// neither part of a word nor `&`.
    private func boundaryAllows(_ at: Int) -> Bool {
        guard at > 0 else { return true }
        let p = scalars[at - 1]
        if p.value == 0xFE0E || p.value == 0xFE0F { return true }
        return !(Self.isAlnum(p) || p == "&")
    }
}
