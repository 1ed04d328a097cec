/// Strings, numbers and dates for `TOMLParser`.
extension TOMLParser {
    // MARK: Strings

    mutating func basicString() throws(TOMLError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < b.count else { throw fail("a string is not closed") }
            let c = b[i]
            switch c {
            case 0x22:
                i += 1
                return String(decoding: out, as: UTF8.self)
            case 0x5C: try escape(&out)
            case 0x0A, 0x0D: throw fail("a string is not closed before the end of the line")
            default:
                if c < 0x20 && c != 0x09 || c == 0x7F { throw fail("a control character in a string: use an escape") }
                out.append(c)
                i += 1
            }
        }
    }

    mutating func escape(_ out: inout [UInt8]) throws(TOMLError) {
        i += 1
        guard i < b.count else { throw fail("a string is not closed") }
        let c = b[i]
        i += 1
        switch c {
        case 0x62: out.append(0x08)
        case 0x74: out.append(0x09)
        case 0x6E: out.append(0x0A)
        case 0x66: out.append(0x0C)
        case 0x72: out.append(0x0D)
        case 0x65: out.append(0x1B)
        case 0x22, 0x5C: out.append(c)
        case 0x75, 0x55:
            let n = c == 0x75 ? 4 : 8
            guard i + n <= b.count, let v = UInt32(String(decoding: b[i..<(i + n)], as: UTF8.self), radix: 16), let u = Unicode.Scalar(v)
            else { throw fail("a \\u or \\U escape must name a Unicode scalar in hex") }
            i += n
            out += Array(String(Character(u)).utf8)
        default: throw fail("unknown escape \\\(Self.describe(c)) in a string")
        }
    }

    mutating func literalString() throws(TOMLError) -> String {
        i += 1
        let start = i
        while true {
            guard i < b.count else { throw fail("a string is not closed") }
            switch b[i] {
            case 0x27:
                let s = String(decoding: b[start..<i], as: UTF8.self)
                i += 1
                return s
            case 0x0A, 0x0D: throw fail("a string is not closed before the end of the line")
            default: i += 1
            }
        }
    }

    mutating func multilineBasic() throws(TOMLError) -> String {
        i += 3
        if peek == 0x0A { (i, line) = (i + 1, line + 1) } else if b[i...].starts(with: [0x0D, 0x0A]) { (i, line) = (i + 2, line + 1) }
        var out: [UInt8] = []
        while true {
            guard i < b.count else { throw fail("a multi-line string is not closed") }
            if b[i...].starts(with: [0x22, 0x22, 0x22]) {
                i += 3
                // Up to two quotes may end the content.
                while peek == 0x22, out.count < Int.max {
                    out.append(0x22)
                    i += 1
                }
                return String(decoding: out, as: UTF8.self)
            }
            let c = b[i]
            if c == 0x5C {
                // A backslash at the end of a line joins the next non-blank text.
                var j = i + 1
                while j < b.count, b[j] == 0x20 || b[j] == 0x09 { j += 1 }
                if j < b.count, b[j] == 0x0A || b[j] == 0x0D {
                    i = j
                    while i < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[i]) {
                        if b[i] == 0x0A { line += 1 }
                        i += 1
                    }
                    continue
                }
                try escape(&out)
                continue
            }
            if c == 0x0A { line += 1 }
            if c < 0x20 && c != 0x09 && c != 0x0A && c != 0x0D || c == 0x7F { throw fail("a control character in a string") }
            out.append(c)
            i += 1
        }
    }

    mutating func multilineLiteral() throws(TOMLError) -> String {
        i += 3
        if peek == 0x0A { (i, line) = (i + 1, line + 1) } else if b[i...].starts(with: [0x0D, 0x0A]) { (i, line) = (i + 2, line + 1) }
        let start = i
        while true {
            guard i < b.count else { throw fail("a multi-line string is not closed") }
            if b[i...].starts(with: [0x27, 0x27, 0x27]) {
                var end = i
                i += 3
                while peek == 0x27 {
                    end += 1
                    i += 1
                }
                return String(decoding: b[start..<end], as: UTF8.self)
            }
            if b[i] == 0x0A { line += 1 }
            i += 1
        }
    }

    // MARK: Numbers and dates

    mutating func numberOrDate() throws(TOMLError) -> TOMLValue {
        let start = i
        while i < b.count, !([0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x5D, 0x7D, 0x23].contains(b[i])) { i += 1 }
        // A date and a time may be separated by one space.
        if i - start == 10, peek == 0x20, i + 1 < b.count, b[i + 1] >= 0x30, b[i + 1] <= 0x39 {
            i += 1
            while i < b.count, !([0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x5D, 0x7D, 0x23].contains(b[i])) { i += 1 }
        }
        let text = String(decoding: b[start..<i], as: UTF8.self)
        guard !text.isEmpty else { throw fail("expected a value, found \(Self.describe(peek))") }
        if let v = Self.integer(text) { return .int(v) }
        if let v = Self.float(text) { return .double(v) }
        if Self.looksLikeDate(text) { return .datetime(text) }
        throw fail("\"\(text.prefix(40))\" is not a TOML value (strings need quotes)")
    }

    static func integer(_ text: String) -> Int? {
        var s = Substring(text)
        var sign = 1
        if s.first == "+" || s.first == "-" {
            if s.first == "-" { sign = -1 }
            s = s.dropFirst()
        }
        var radix = 10
        if s.hasPrefix("0x") || s.hasPrefix("0o") || s.hasPrefix("0b") {
            guard sign == 1, text.first != "+" else { return nil }
            radix = s.hasPrefix("0x") ? 16 : s.hasPrefix("0o") ? 8 : 2
            s = s.dropFirst(2)
        } else if s.count > 1, s.first == "0" {
            return nil
        }
        guard !s.isEmpty, s.first != "_", s.last != "_", !s.contains("__") else { return nil }
        guard let v = Int(s.replacingAll("_", with: ""), radix: radix) else { return nil }
        return sign * v
    }

    static func float(_ text: String) -> Double? {
        switch text {
        case "inf", "+inf": return .infinity
        case "-inf": return -.infinity
        case "nan", "+nan", "-nan": return .nan
        default: break
        }
        guard text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), !text.hasPrefix("."), !text.hasSuffix("."),
            !text.contains("_."), !text.contains("._"), !text.contains("__"),
            text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-._eE".contains($0)) })
        else { return nil }
        return Double(text.replacingAll("_", with: ""))
    }

    static func looksLikeDate(_ text: String) -> Bool {
        let c = Array(text.utf8)
        let digits = c.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || [0x2D, 0x3A, 0x54, 0x74, 0x5A, 0x7A, 0x2E, 0x2B, 0x20].contains($0) }
        return digits && (c.count >= 10 && c[4] == 0x2D && c[7] == 0x2D || c.count >= 8 && c[2] == 0x3A && c[5] == 0x3A)
    }
}
