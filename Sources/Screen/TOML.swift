/// A TOML value (TOML 1.0), as Linnet's settings files use them.
public indirect enum TOMLValue: Equatable, Sendable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    /// A date or time, kept as written (Linnet's settings have none).
    case datetime(String)
    case array([TOMLValue])
    case table(TOMLTable)

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var int: Int? { if case .int(let v) = self { v } else { nil } }
    public var double: Double? { if case .double(let v) = self { v } else { nil } }
    public var bool: Bool? { if case .bool(let v) = self { v } else { nil } }
    public var array: [TOMLValue]? { if case .array(let v) = self { v } else { nil } }
    public var table: TOMLTable? { if case .table(let v) = self { v } else { nil } }
}

/// A table: keys in the order they were written.
public struct TOMLTable: Equatable, Sendable {
    public private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]
    /// Made by a `[header]` or a dotted key (may be extended), or inline (closed).
    var defined = false
    var inline = false

    public init() {}

    public subscript(key: String) -> TOMLValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }

    public static func == (a: TOMLTable, b: TOMLTable) -> Bool { a.keys == b.keys && a.values == b.values }
}

/// Why a TOML text could not be read, and on which line.
public struct TOMLError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "line \(line): \(reason)" }
}

/// A TOML 1.0 reader written for Linnet's settings files (config, themes, accounts). It reads
/// every byte once, nests at most 64 deep, and reports the first problem with its line; it
/// never stops the program (the C++ parser it replaces aborted on some malformed input).
public struct TOMLParser {
    private let b: [UInt8]
    private var i = 0
    private var line = 1
    private var root = TOMLTable()
    /// The path of the current `[table]` (or the last element of an `[[array]]`).
    private var current: [String] = []
    private var arrayTables: Set<String> = []
    static let maxDepth = 64

    public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        var p = TOMLParser(Array(text.utf8))
        return try p.document()
    }

    private init(_ bytes: [UInt8]) {
        b = bytes
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    private func fail(_ reason: String) -> TOMLError { TOMLError(line: line, reason: reason) }
    private var atEnd: Bool { i >= b.count }
    private var peek: UInt8 { i < b.count ? b[i] : 0 }

    private mutating func skipSpaces() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
    }

    /// Spaces, then an optional comment; then the line must end.
    private mutating func endOfLine() throws(TOMLError) {
        skipSpaces()
        if peek == 0x23 { try comment() }
        if atEnd { return }
        if peek == 0x0D, i + 1 < b.count, b[i + 1] == 0x0A { i += 1 }
        guard peek == 0x0A else { throw fail("expected the end of the line, found \(Self.describe(peek))") }
        i += 1
        line += 1
    }

    private mutating func comment() throws(TOMLError) {
        while i < b.count, b[i] != 0x0A {
            if b[i] == 0x0D, i + 1 < b.count, b[i + 1] == 0x0A { break }
            if b[i] < 0x20 && b[i] != 0x09 || b[i] == 0x7F { throw fail("a control character in a comment") }
            i += 1
        }
    }

    static func describe(_ c: UInt8) -> String {
        if c == 0 { return "the end of the file" }
        if c == 0x0A || c == 0x0D { return "the end of the line" }
        if c < 0x20 || c >= 0x7F { return "byte \(c)" }
        return "\"\(Character(Unicode.Scalar(c)))\""
    }

    private mutating func document() throws(TOMLError) -> TOMLTable {
        while !atEnd {
            skipSpaces()
            switch peek {
            case 0x0A, 0x0D, 0x23: try endOfLine()
            case 0x5B: try header()
            default:
                try keyValue(into: current)
                try endOfLine()
            }
        }
        return root
    }

    // MARK: Keys

    private static func isBare(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
    }

    private mutating func key() throws(TOMLError) -> [String] {
        var parts: [String] = []
        while true {
            skipSpaces()
            switch peek {
            case 0x22: parts.append(try basicString())
            case 0x27: parts.append(try literalString())
            case let c where Self.isBare(c):
                let start = i
                while i < b.count, Self.isBare(b[i]) { i += 1 }
                parts.append(String(decoding: b[start..<i], as: UTF8.self))
            default: throw fail("a key must be letters, digits, _ or -, or quoted; found \(Self.describe(peek))")
            }
            skipSpaces()
            guard peek == 0x2E else { return parts }
            i += 1
        }
    }

    // MARK: Tables

    private mutating func header() throws(TOMLError) {
        i += 1
        let isArray = peek == 0x5B
        if isArray { i += 1 }
        let path = try key()
        guard peek == 0x5D else { throw fail("a table name must end with ]") }
        i += 1
        if isArray {
            guard peek == 0x5D else { throw fail("an array of tables must end with ]]") }
            i += 1
        }
        if isArray {
            try appendTable(path)
        } else {
            try defineTable(path)
        }
        try endOfLine()
    }

    private mutating func defineTable(_ path: [String]) throws(TOMLError) {
        try Self.modify(&root, path[...], depth: 0, line: line) { (t: inout TOMLTable) throws(TOMLError) in
            if t.defined { throw TOMLError(line: 0, reason: "the table [\(path.joined(separator: "."))] is defined twice") }
            t.defined = true
        }
        current = path
    }

    private mutating func appendTable(_ path: [String]) throws(TOMLError) {
        let name = path.joined(separator: ".")
        guard let last = path.last else { throw fail("an empty table name") }
        let known = arrayTables.contains(name)
        try Self.modify(&root, path.dropLast()[...], depth: 0, line: line) { (t: inout TOMLTable) throws(TOMLError) in
            switch t[last] {
            case nil: t[last] = .array([.table(TOMLTable())])
            case .array(var items)? where known:
                items.append(.table(TOMLTable()))
                t[last] = .array(items)
            default: throw TOMLError(line: 0, reason: "\(name) is already a value, not an array of tables")
            }
        }
        arrayTables.insert(name)
        current = path
    }

    /// Runs `body` on the table at `path` (made on the way), or on the last table of an array
    /// of tables found on the way.
    private static func modify(
        _ table: inout TOMLTable, _ path: ArraySlice<String>, depth: Int, line: Int, _ body: (inout TOMLTable) throws(TOMLError) -> Void
    ) throws(TOMLError) {
        func fail(_ reason: String) -> TOMLError { TOMLError(line: line, reason: reason) }
        guard depth < Self.maxDepth else { throw fail("tables nest too deeply") }
        guard let first = path.first else {
            do { try body(&table) } catch { throw TOMLError(line: line, reason: error.reason) }
            return
        }
        switch table[first] {
        case nil:
            var t = TOMLTable()
            try modify(&t, path.dropFirst(), depth: depth + 1, line: line, body)
            table[first] = .table(t)
        case .table(var t)?:
            if t.inline { throw fail("\(first) is an inline table and cannot be extended") }
            try modify(&t, path.dropFirst(), depth: depth + 1, line: line, body)
            table[first] = .table(t)
        case .array(var items)?:
            guard case .table(var t)? = items.last else { throw fail("\(first) is an array, not a table") }
            try modify(&t, path.dropFirst(), depth: depth + 1, line: line, body)
            items[items.count - 1] = .table(t)
            table[first] = .array(items)
        default:
            throw fail("\(first) is already a value, not a table")
        }
    }

    private mutating func keyValue(into path: [String]) throws(TOMLError) {
        let k = try key()
        guard peek == 0x3D else { throw fail("expected = after the key \(k.joined(separator: "."))") }
        i += 1
        skipSpaces()
        let v = try value(depth: 0)
        try set(path, k, v)
    }

    private mutating func set(_ path: [String], _ k: [String], _ v: TOMLValue) throws(TOMLError) {
        let name = k.joined(separator: ".")
        try Self.modify(&root, (path + k.dropLast())[...], depth: 0, line: line) { (t: inout TOMLTable) throws(TOMLError) in
            guard let last = k.last else { return }
            if t[last] != nil { throw TOMLError(line: 0, reason: "the key \(name) is set twice") }
            t[last] = v
        }
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(TOMLError) -> TOMLValue {
        guard depth < Self.maxDepth else { throw fail("values nest too deeply") }
        switch peek {
        case 0x22:
            if b[i...].starts(with: [0x22, 0x22, 0x22]) { return .string(try multilineBasic()) }
            return .string(try basicString())
        case 0x27:
            if b[i...].starts(with: [0x27, 0x27, 0x27]) { return .string(try multilineLiteral()) }
            return .string(try literalString())
        case 0x5B: return try array(depth: depth)
        case 0x7B: return try inlineTable(depth: depth)
        case 0x74, 0x66:
            if b[i...].starts(with: Array("true".utf8)) {
                i += 4
                return .bool(true)
            }
            if b[i...].starts(with: Array("false".utf8)) {
                i += 5
                return .bool(false)
            }
            throw fail("expected a value, found \(Self.describe(peek))")
        default:
            return try numberOrDate()
        }
    }

    private mutating func array(depth: Int) throws(TOMLError) -> TOMLValue {
        i += 1
        var items: [TOMLValue] = []
        while true {
            try skipBlank()
            if peek == 0x5D {
                i += 1
                return .array(items)
            }
            items.append(try value(depth: depth + 1))
            try skipBlank()
            switch peek {
            case 0x2C: i += 1
            case 0x5D:
                i += 1
                return .array(items)
            default: throw fail("expected , or ] in an array, found \(Self.describe(peek))")
            }
        }
    }

    /// Spaces, newlines and comments inside an array.
    private mutating func skipBlank() throws(TOMLError) {
        while true {
            skipSpaces()
            switch peek {
            case 0x23: try comment()
            case 0x0A:
                i += 1
                line += 1
            case 0x0D where i + 1 < b.count && b[i + 1] == 0x0A:
                i += 2
                line += 1
            default: return
            }
        }
    }

    private mutating func inlineTable(depth: Int) throws(TOMLError) -> TOMLValue {
        i += 1
        var t = TOMLTable()
        skipSpaces()
        if peek == 0x7D {
            i += 1
            t.inline = true
            return .table(t)
        }
        while true {
            let k = try key()
            guard peek == 0x3D else { throw fail("expected = after the key \(k.joined(separator: ".")) in an inline table") }
            i += 1
            skipSpaces()
            let v = try value(depth: depth + 1)
            try Self.modify(&t, k.dropLast()[...], depth: depth, line: line) { (inner: inout TOMLTable) throws(TOMLError) in
                guard let last = k.last else { return }
                if inner[last] != nil { throw TOMLError(line: 0, reason: "the key \(k.joined(separator: ".")) is set twice") }
                inner[last] = v
            }
            skipSpaces()
            switch peek {
            case 0x2C: i += 1
            case 0x7D:
                i += 1
                t.inline = true
                return .table(t)
            default: throw fail("expected , or } in an inline table, found \(Self.describe(peek))")
            }
        }
    }

    // MARK: Strings

    private mutating func basicString() throws(TOMLError) -> String {
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

    private mutating func escape(_ out: inout [UInt8]) throws(TOMLError) {
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

    private mutating func literalString() throws(TOMLError) -> String {
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

    private mutating func multilineBasic() throws(TOMLError) -> String {
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

    private mutating func multilineLiteral() throws(TOMLError) -> String {
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

    private mutating func numberOrDate() throws(TOMLError) -> TOMLValue {
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
        guard let v = Int(s.replacingOccurrences(of: "_", with: ""), radix: radix) else { return nil }
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
        return Double(text.replacingOccurrences(of: "_", with: ""))
    }

    static func looksLikeDate(_ text: String) -> Bool {
        let c = Array(text.utf8)
        let digits = c.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || [0x2D, 0x3A, 0x54, 0x74, 0x5A, 0x7A, 0x2E, 0x2B, 0x20].contains($0) }
        return digits && (c.count >= 10 && c[4] == 0x2D && c[7] == 0x2D || c.count >= 8 && c[2] == 0x3A && c[5] == 0x3A)
    }
}
