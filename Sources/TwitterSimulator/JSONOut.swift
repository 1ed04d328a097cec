/// The simulator's own JSON writer (it shares no JSON code with the client on purpose, so one
/// bug cannot hide on both sides).
enum J: Sendable {
    case object([(String, J)])
    case array([J])
    case string(String)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case bool(Bool)
    case null

    static func int(_ v: Int) -> J { .int(Int64(v)) }

    /// Compact JSON with `/` escaped as Twitter does (`\/`).
    var text: String {
        var out = ""
        out.reserveCapacity(256)
        write(&out)
        return out
    }

    var bytes: [UInt8] { Array(text.utf8) }

    private func write(_ out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (i, (k, v)) in members.enumerated() {
                if i > 0 { out += "," }
                J.quote(k, into: &out)
                out += ":"
                v.write(&out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (i, v) in items.enumerated() {
                if i > 0 { out += "," }
                v.write(&out)
            }
            out += "]"
        case .string(let s): J.quote(s, into: &out)
        case .int(let v): out += String(v)
        case .uint(let v): out += String(v)
        case .double(let v): out += String(v)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x2028 || u.value == 0x2029 || (0x7F...0x9F).contains(u.value) {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
