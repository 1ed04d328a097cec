import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A JSON value as a request or the contract carries it (booleans apart from numbers, as JSON Schema needs).
enum ContractValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ContractValue])
    case object([String: ContractValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([ContractValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: ContractValue].self))
        }
    }

    var object: [String: ContractValue]? { if case .object(let o) = self { o } else { nil } }
    var array: [ContractValue]? { if case .array(let a) = self { a } else { nil } }
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var number: Double? { if case .number(let n) = self { n } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// As plain values (`[String: Any]`, `[Any]`, `String`, `Bool`, a whole number as `Int` and
    /// any other as `Double`; null as an empty optional), for handlers that read a JSON body.
    var plain: Any {
        switch self {
        case .null: return Optional<Any>.none as Any
        case .bool(let b): return b
        case .number(let n): return n.rounded() == n && abs(n) < 9e15 ? Int(n) as Any : n
        case .string(let s): return s
        case .array(let a): return a.map(\.plain)
        case .object(let o): return o.mapValues(\.plain)
        }
    }

    /// A request body that is a JSON object, as plain values; nil for anything else.
    static func object(_ body: Data) -> [String: Any]? {
        (try? JSONDecoder().decode(ContractValue.self, from: body))?.plain as? [String: Any]
    }
}

/// The subset of JSON Schema (OpenAPI 3.0) that X's contract uses to describe requests:
/// types, enums, patterns, lengths, bounds, items, properties, required, additionalProperties,
/// allOf/anyOf/oneOf, nullable, date-time, and `$ref` to the contract's named schemas.
struct ContractSchemas: Sendable {
    let named: [String: ContractValue]
    private let patterns: [String: PatternBox]

    /// `named` are the `$ref` targets; patterns are compiled once from all of `table`.
    init(named: [String: ContractValue], table: ContractValue) {
        self.named = named
        var found: [String: PatternBox] = [:]
        func collect(_ v: ContractValue) {
            switch v {
            case .object(let o):
                if let p = o["pattern"]?.string, found[p] == nil, let r = try? Regex(p) {
                    found[p] = PatternBox(regex: r.matchingSemantics(.unicodeScalar))
                }
                o.values.forEach(collect)
            case .array(let a): a.forEach(collect)
            default: break
            }
        }
        collect(table)
        patterns = found
    }

    func resolve(_ schema: ContractValue) -> [String: ContractValue] {
        var s = schema.object ?? [:]
        var hops = 0
        while let ref = s["$ref"]?.string, let target = named[ref]?.object, hops < 32 {
            s = target
            hops += 1
        }
        return s
    }

    /// Why `value` does not match `schema`, or nil when it does; `at` names where (`$.text`).
    func problem(_ value: ContractValue, _ schema: ContractValue, at: String) -> String? {
        let s = resolve(schema)
        if value == .null, s["nullable"]?.bool == true { return nil }
        if let all = s["allOf"]?.array {
            for part in all { if let p = problem(value, part, at: at) { return p } }
        }
        if let any = s["anyOf"]?.array, !any.contains(where: { problem(value, $0, at: at) == nil }) {
            return "\(at): matches none of the allowed forms"
        }
        if let one = s["oneOf"]?.array {
            let matching = one.filter { problem(value, $0, at: at) == nil }.count
            if matching != 1 { return "\(at): matches \(matching) of the allowed forms, where exactly one must match" }
        }
        if let type = s["type"]?.string, let p = typeProblem(value, type, at: at) { return p }
        if let allowed = s["enum"]?.array, !allowed.contains(value) {
            return "\(at): \(Self.show(value)) is not one of [\(allowed.map(Self.show).joined(separator: ","))]"
        }
        switch value {
        case .string(let text): return stringProblem(text, s, at: at)
        case .number(let n):
            if let min = s["minimum"]?.number, n < min { return "\(at): \(Self.show(value)) is less than \(Self.show(.number(min)))" }
            if let max = s["maximum"]?.number, n > max { return "\(at): \(Self.show(value)) is more than \(Self.show(.number(max)))" }
        case .array(let items):
            if let min = s["minItems"]?.number, Double(items.count) < min { return "\(at): fewer than \(Int(min)) items" }
            if let max = s["maxItems"]?.number, Double(items.count) > max { return "\(at): more than \(Int(max)) items" }
            if s["uniqueItems"]?.bool == true {
                for (i, item) in items.enumerated() where items[..<i].contains(item) { return "\(at): \(Self.show(item)) is repeated" }
            }
            if let each = s["items"] {
                for (i, item) in items.enumerated() { if let p = problem(item, each, at: "\(at)[\(i)]") { return p } }
            }
        case .object(let fields): return objectProblem(fields, s, at: at)
        default: break
        }
        return nil
    }

    private func typeProblem(_ value: ContractValue, _ type: String, at: String) -> String? {
        let ok: Bool
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("array", .array), ("object", .object), ("number", .number): ok = true
        case ("integer", .number(let n)): ok = n.rounded() == n && abs(n) < 9.3e18
        default: ok = false
        }
        let article = ["integer", "array", "object"].contains(type) ? "an" : "a"
        return ok ? nil : "\(at): \(Self.show(value)) is not \(article) \(type)"
    }

    private func stringProblem(_ text: String, _ s: [String: ContractValue], at: String) -> String? {
        let length = text.unicodeScalars.count
        if let min = s["minLength"]?.number, Double(length) < min { return "\(at): shorter than \(Int(min)) characters" }
        if let max = s["maxLength"]?.number, Double(length) > max { return "\(at): longer than \(Int(max)) characters" }
        if let p = s["pattern"]?.string, let r = patterns[p]?.regex {
            if (try? r.firstMatch(in: text)) == nil { return "\(at): \(Self.show(.string(text))) does not match \(p)" }
        }
        if s["format"]?.string == "date-time", !RFC3339.isValid(text) {
            return "\(at): \(Self.show(.string(text))) is not an RFC 3339 date-time"
        }
        return nil
    }

    private func objectProblem(_ fields: [String: ContractValue], _ s: [String: ContractValue], at: String) -> String? {
        let properties = s["properties"]?.object ?? [:]
        for name in s["required"]?.array?.compactMap(\.string) ?? [] where fields[name] == nil {
            return "\(at).\(name): is missing but it is required"
        }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            if let schema = properties[name] {
                if let p = problem(value, schema, at: "\(at).\(name)") { return p }
            } else if let extra = s["additionalProperties"] {
                if extra == .bool(false) { return "\(at).\(name): is not a property this object takes" }
                if extra.object != nil, let p = problem(value, extra, at: "\(at).\(name)") { return p }
            }
        }
        return nil
    }

    static func show(_ v: ContractValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.rounded() == n && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return s
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A compiled pattern shared across tasks (a Regex is a value, not changed once made). Matched
/// scalar by scalar, as ICU's patterns (X's contract's) are.
struct PatternBox: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>
}

/// RFC 3339 `date-time` (section 5.6): `2026-11-25T13:54:23Z`, fractions and offsets allowed.
enum RFC3339 {
    static func isValid(_ s: String) -> Bool {
        let b = Array(s.utf8)
        func digits(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= b.count else { return nil }
            var v = 0
            for i in at..<(at + n) {
                guard (48...57).contains(b[i]) else { return nil }
                v = v * 10 + Int(b[i] - 48)
            }
            return v
        }
        guard b.count >= 20, digits(0, 4) != nil, b[4] == 45, let month = digits(5, 2), b[7] == 45, let day = digits(8, 2),
            b[10] == 84 || b[10] == 116, let hour = digits(11, 2), b[13] == 58, let minute = digits(14, 2), b[16] == 58,
            let second = digits(17, 2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return false }
        var i = 19
        if b[i] == 46 {
            i += 1
            let start = i
            while i < b.count, (48...57).contains(b[i]) { i += 1 }
            guard i > start else { return false }
        }
        guard i < b.count else { return false }
        if b[i] == 90 || b[i] == 122 { return i + 1 == b.count }
        guard b[i] == 43 || b[i] == 45, i + 6 == b.count, let h = digits(i + 1, 2), b[i + 3] == 58, let m = digits(i + 4, 2) else {
            return false
        }
        return h < 24 && m < 60
    }
}
