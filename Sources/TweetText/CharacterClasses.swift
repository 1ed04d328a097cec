/// Character classes shared by the extractors, as twitter-text defines them.
enum CharacterClasses {
    @inline(__always) static func isASCIIAlnum(_ v: UInt32) -> Bool {
        (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
    }

    @inline(__always) static func isASCIILetter(_ v: UInt32) -> Bool {
        (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
    }

    @inline(__always) static func asciiLower(_ v: UInt32) -> UInt32 {
        (v >= 0x41 && v <= 0x5A) ? v + 0x20 : v
    }

    /// Whitespace as twitter-text's `spaces` group lists it.
    static func isSpace(_ v: UInt32) -> Bool {
        switch v {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x180E, 0x2000...0x200A,
            0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    /// Bidi embedding, override and isolate controls plus the directional marks.
    static func isDirectionalMarker(_ v: UInt32) -> Bool {
        switch v {
        case 0x202A...0x202E, 0x061C, 0x200E, 0x200F, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Characters that make a tweet invalid.
    @inline(__always) static func isInvalid(_ v: UInt32) -> Bool {
        v == 0xFFFE || v == 0xFEFF || v == 0xFFFF
    }

    /// ASCII punctuation, which never belongs to a domain label.
    @inline(__always) static func isASCIIPunct(_ v: UInt32) -> Bool {
        (v >= 0x21 && v <= 0x2F) || (v >= 0x3A && v <= 0x40) || (v >= 0x5B && v <= 0x60)
            || (v >= 0x7B && v <= 0x7E)
    }

    /// Latin letters with accents that URLs, mentions and hashtags treat as word characters.
    static func isLatinAccent(_ v: UInt32) -> Bool {
        switch v {
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF, 0x100...0x24F, 0x253, 0x254, 0x256, 0x257,
            0x259, 0x25B, 0x263, 0x268, 0x26F, 0x272, 0x289, 0x28B, 0x2BB, 0x300...0x36F,
            0x1E00...0x1EFF:
            return true
        default:
            return false
        }
    }

    @inline(__always) static func isCyrillic(_ v: UInt32) -> Bool { v >= 0x400 && v <= 0x4FF }

    /// A character that may stand in a domain label (besides `-` and `_`).
    @inline(__always) static func isDomainChar(_ v: UInt32) -> Bool {
        !(isASCIIPunct(v) || isSpace(v) || isInvalid(v) || isDirectionalMarker(v)) && v >= 0x20
    }
}
