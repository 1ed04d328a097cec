import Bedrock
import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// A JSON document as a tree, for the few places that need all of it (error bodies, the
/// generic `api` call). Numbers keep their text so 64-bit ids survive unchanged.
public enum JSONValue: Equatable, Sendable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    /// The number as written in the document.
    case number(String)
    case bool(Bool)
    case null

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let x), .array(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    /// Parses a whole document; trailing bytes other than whitespace are an error.
    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var r = JSONReader(raw)
            let v = try read(&r, depth: 0)
            guard r.atEnd() else { throw r.fail("unexpected data after the document") }
            return v
        }
    }

    static func read(_ r: inout JSONReader, depth: Int) throws -> JSONValue {
        guard depth < JSONReader.maxDepth else { throw r.fail("nested too deeply") }
        switch r.peek() {
        case .object:
            var members: [(String, JSONValue)] = []
            try r.readObject { r, key in members.append((key.string, try read(&r, depth: depth + 1))) }
            return .object(members)
        case .array:
            var items: [JSONValue] = []
            try r.readArray { r in items.append(try read(&r, depth: depth + 1)) }
            return .array(items)
        case .string: return .string(try r.readString())
        case .bool: return .bool(try r.readBool())
        case .null:
            guard r.readNull() else { throw r.fail("unexpected character") }
            return .null
        case .number:
            let start = r.offset
            try r.skipValue()
            return .number(r.text(start..<r.offset))
        case .end: throw r.fail("unexpected end of input")
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The string value, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The integer value, if this is an integral number.
    public var intValue: Int64? {
        if case .number(let n) = self { return Int64(n) }
        return nil
    }

    /// The value of a number.
    public var doubleValue: Double? {
        if case .number(let n) = self { return Double(n) }
        return nil
    }

    /// Compact JSON text.
    public var serialized: String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// Indented JSON text for people.
    public var pretty: String {
        var out = ""
        write(to: &out, indent: "  ", level: 0)
        return out
    }

    private func write(to out: inout String, indent: String?, level: Int) {
        let newline = indent == nil ? "" : "\n"
        let pad = { (l: Int) in indent.map { String(repeating: $0, count: l) } ?? "" }
        switch self {
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{" + newline
            for (i, (k, v)) in members.enumerated() {
                out += pad(level + 1) + JSONValue.quote(k) + (indent == nil ? ":" : ": ")
                v.write(to: &out, indent: indent, level: level + 1)
                out += (i + 1 < members.count ? "," : "") + newline
            }
            out += pad(level) + "}"
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "[" + newline
            for (i, v) in items.enumerated() {
                out += pad(level + 1)
                v.write(to: &out, indent: indent, level: level + 1)
                out += (i + 1 < items.count ? "," : "") + newline
            }
            out += pad(level) + "]"
        case .string(let s): out += JSONValue.quote(s)
        case .number(let n): out += n
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    /// A JSON string literal for `s`, escaping quotes, backslashes and control characters.
    public static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // Controls, bidi overrides and invisible joiners are escaped: the same JSON,
                // but nothing in it can act on a terminal it is printed to.
                if Sanitizer.isUnsafe(u.value) || (0x200B...0x200F).contains(u.value) || u.value == 0xFEFF {
                    out += cFormat("\\u%04x", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

extension JSONReader {
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(start: p + range.lowerBound, count: range.count), as: UTF8.self)
    }
}
