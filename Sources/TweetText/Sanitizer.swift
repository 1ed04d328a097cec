/// Makes text from the network safe to put on a terminal: no control characters, no escape
/// sequences, no bidi overrides, no invisible format characters that could hide or reorder
/// what the reader sees.
public enum Sanitizer {
    /// Spaces a tab becomes.
    public static let tabWidth = 4

    /// Whether a scalar may not reach a terminal as it is: C0 and C1 controls (ESC among
    /// them), DEL, bidi embeddings, overrides and isolates, and the line and paragraph
    /// separators.
    public static func isUnsafe(_ v: UInt32) -> Bool {
        v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x2028 || v == 0x2029
    }

    /// `text` for a message (an error, a file name, a value from a file or a server) with
    /// every unsafe scalar written out as `\u{1B}`, so nothing is hidden and nothing acts on
    /// the terminal. Newlines stay when `keepNewlines`; tabs stay.
    public static func visible(_ text: String, keepNewlines: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0.value) && !($0 == "\n" && keepNewlines) && $0 != "\t" }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            if isUnsafe(u.value) && !(u == "\n" && keepNewlines) && u != "\t" {
                out.append(contentsOf: "\\u{\(String(u.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    /// `text` with every control, escape sequence, bidi override and invisible format character
    /// removed. Newlines stay; tabs become spaces; CR LF, lone CR and U+2028/2029 become newlines.
    public static func sanitize(_ text: String) -> String {
        // ASCII text is read by the byte first (a scalar's checks cost tens of instructions).
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A }) { return text }
        if text.unicodeScalars.allSatisfy(isPlainSafe) { return text }
        let input = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        out.reserveCapacity(input.count)
        var i = 0
        let n = input.count
        while i < n {
            let c = input[i]
            let v = c.value
            switch v {
            case 0x0A:
                out.append(c)
                i += 1
            case 0x0D:
                out.append("\n")
                i += (i + 1 < n && input[i + 1].value == 0x0A) ? 2 : 1
            case 0x09:
                out.append(contentsOf: String(repeating: " ", count: tabWidth).unicodeScalars)
                i += 1
            case 0x1B:
                i = skipEscape(input, from: i + 1)
            case 0x9B:
                i = skipCSI(input, from: i + 1)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                i = skipString(input, from: i + 1)
            case 0x2028, 0x2029:
                out.append("\n")
                i += 1
            default:
                if keeps(input, at: i, previous: out.last) { out.append(c) }
                i += 1
            }
        }
        return String(out)
    }

    @inline(__always) private static func isPlainSafe(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x7F { return v >= 0x20 || v == 0x0A }
        if v < 0xA0 || v == 0x2028 || v == 0x2029 || v == 0xFFFE || v == 0xFFFF { return false }
        return c.properties.generalCategory != .format
    }

    private static func keeps(_ s: [Unicode.Scalar], at i: Int, previous: Unicode.Scalar?) -> Bool {
        let c = s[i]
        let v = c.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return false }
        if v == 0xFFFE || v == 0xFFFF { return false }
        if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) { return false }
        guard c.properties.generalCategory == .format else { return true }
        switch v {
        case 0x200C, 0x200D:
            // Joiners stay only between two visible characters (inside a word or an emoji).
            guard let p = previous, i + 1 < s.count else { return false }
            return isJoinable(p) && isJoinable(s[i + 1])
        case 0xE0020...0xE007F:
            // Tag characters stay inside an emoji tag sequence (subdivision flags).
            guard let p = previous else { return false }
            return (0xE0020...0xE007F).contains(p.value) || p.properties.isEmoji && p.value >= 0x80
        case 0x0600...0x0605, 0x06DD, 0x070F, 0x08E2, 0x110BD, 0x110CD:
            return true  // visible signs that prefix numbers
        default:
            return false
        }
    }

    private static func isJoinable(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v <= 0x20 || CharacterClasses.isSpace(v) { return false }
        switch c.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator: return false
        default: return true
        }
    }

    /// Skips what follows an ESC: a CSI, a string command (OSC, DCS, SOS, PM, APC) or a short
    /// escape with intermediates and a final byte. Returns the index after it.
    private static func skipEscape(_ s: [Unicode.Scalar], from start: Int) -> Int {
        guard start < s.count else { return start }
        switch s[start].value {
        case 0x5B: return skipCSI(s, from: start + 1)  // [
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: return skipString(s, from: start + 1)  // ] P X ^ _
        default:
            var i = start
            while i < s.count, (0x20...0x2F).contains(s[i].value) { i += 1 }
            if i < s.count, (0x30...0x7E).contains(s[i].value) { return i + 1 }
            return i
        }
    }

    /// Parameters and intermediates, then one final byte in 0x40...0x7E.
    private static func skipCSI(_ s: [Unicode.Scalar], from start: Int) -> Int {
        var i = start
        while i < s.count, (0x20...0x3F).contains(s[i].value) { i += 1 }
        if i < s.count, (0x40...0x7E).contains(s[i].value) { return i + 1 }
        return i
    }

    /// A string command runs to BEL or ST (ESC \ or U+009C); unterminated, to the end of the
    /// text, which is what a terminal would have swallowed.
    private static func skipString(_ s: [Unicode.Scalar], from start: Int) -> Int {
        var i = start
        while i < s.count {
            let v = s[i].value
            if v == 0x07 || v == 0x9C { return i + 1 }
            if v == 0x1B { return i + 1 < s.count && s[i + 1].value == 0x5C ? i + 2 : i + 1 }
            i += 1
        }
        return i
    }
}

/// Decoding of the HTML entities Twitter puts in tweet text (`&amp;`, `&lt;`, `&gt;`, and a few
/// more that clients have seen, plus numeric references).
public enum HTMLEntities {
    private static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
    ]

    /// `text` with entities replaced by the characters they stand for; unknown or malformed
    /// entities are left as written.
    public static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let s = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < s.count {
            if s[i] == "&", let (scalar, end) = entity(s, at: i) {
                out.append(scalar)
                i = end
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return String(out)
    }

    /// The character an entity at `i` stands for and the index after its `;`.
    static func entity(_ s: [Unicode.Scalar], at i: Int) -> (Unicode.Scalar, Int)? {
        var j = i + 1
        while j < s.count, j - i <= 10, s[j] != ";" { j += 1 }
        guard j < s.count, s[j] == ";", j > i + 1 else { return nil }
        let body = String(String.UnicodeScalarView(s[(i + 1)..<j]))
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let v = value, let scalar = Unicode.Scalar(v) else { return nil }
            return (scalar, j + 1)
        }
        guard let scalar = named[body] else { return nil }
        return (scalar, j + 1)
    }
}
