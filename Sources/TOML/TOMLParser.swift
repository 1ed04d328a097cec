/// A TOML 1.0 reader written for Linnet's settings files (config, themes, accounts). It reads
/// every byte once, nests at most 64 deep, and reports the first problem with its line; it
/// never stops the program (the C++ parser it replaces aborted on some malformed input).
public struct TOMLParser {
    let b: [UInt8]
    var i = 0
    var line = 1
    var root = TOMLTable()
    /// The path of the current `[table]` (or the last element of an `[[array]]`).
    var current: [String] = []
    var arrayTables: Set<String> = []
    static let maxDepth = 64

    public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        var p = TOMLParser(Array(text.utf8))
        return try p.document()
    }

    init(_ bytes: [UInt8]) {
        b = bytes
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    func fail(_ reason: String) -> TOMLError { TOMLError(line: line, reason: reason) }
    var atEnd: Bool { i >= b.count }
    var peek: UInt8 { i < b.count ? b[i] : 0 }

    mutating func skipSpaces() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
    }

    /// Spaces, then an optional comment; then the line must end.
    mutating func endOfLine() throws(TOMLError) {
        skipSpaces()
        if peek == 0x23 { try comment() }
        if atEnd { return }
        if peek == 0x0D, i + 1 < b.count, b[i + 1] == 0x0A { i += 1 }
        guard peek == 0x0A else { throw fail("expected the end of the line, found \(Self.describe(peek))") }
        i += 1
        line += 1
    }

    mutating func comment() throws(TOMLError) {
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

    mutating func document() throws(TOMLError) -> TOMLTable {
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

    static func isBare(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
    }

    mutating func key() throws(TOMLError) -> [String] {
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

    mutating func header() throws(TOMLError) {
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

    mutating func defineTable(_ path: [String]) throws(TOMLError) {
        try Self.modify(&root, path[...], depth: 0, line: line) { (t: inout TOMLTable) throws(TOMLError) in
            if t.defined { throw TOMLError(line: 0, reason: "the table [\(path.joined(separator: "."))] is defined twice") }
            t.defined = true
        }
        current = path
    }

    mutating func appendTable(_ path: [String]) throws(TOMLError) {
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
    static func modify(
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

    mutating func keyValue(into path: [String]) throws(TOMLError) {
        let k = try key()
        guard peek == 0x3D else { throw fail("expected = after the key \(k.joined(separator: "."))") }
        i += 1
        skipSpaces()
        let v = try value(depth: 0)
        try set(path, k, v)
    }

    mutating func set(_ path: [String], _ k: [String], _ v: TOMLValue) throws(TOMLError) {
        let name = k.joined(separator: ".")
        try Self.modify(&root, (path + k.dropLast())[...], depth: 0, line: line) { (t: inout TOMLTable) throws(TOMLError) in
            guard let last = k.last else { return }
            if t[last] != nil { throw TOMLError(line: 0, reason: "the key \(name) is set twice") }
            t[last] = v
        }
    }

    // MARK: Values

    mutating func value(depth: Int) throws(TOMLError) -> TOMLValue {
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

    mutating func array(depth: Int) throws(TOMLError) -> TOMLValue {
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
    mutating func skipBlank() throws(TOMLError) {
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

    mutating func inlineTable(depth: Int) throws(TOMLError) -> TOMLValue {
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
}
