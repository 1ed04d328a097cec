import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A request as the simulator's logic sees it, independent of the HTTP server package.
struct SimRequest: Sendable {
    let method: String
    /// Path as sent, percent-encoded.
    let rawPath: String
    /// Query as sent, without `?`.
    let rawQuery: String
    /// Header names lower-cased.
    let headers: [String: String]
    let body: Data
    let isTLS: Bool
    /// The decoded path.
    let path: String
    /// Query and form-body parameters, decoded (form syntax: `+` is a space), in order.
    let parameters: [(String, String)]

    init(method: String, rawPath: String, rawQuery: String, headers: [String: String], body: Data, isTLS: Bool = false) {
        self.method = method
        self.rawPath = rawPath
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.isTLS = isTLS
        path = FormCoding.percentDecode(rawPath, plusIsSpace: false)
        var all = FormCoding.parse(rawQuery)
        if (headers["content-type"] ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded") {
            all += FormCoding.parse(String(decoding: body, as: UTF8.self))
        }
        parameters = all
    }

    func param(_ name: String) -> String? { parameters.last { $0.0 == name }?.1 }
}

/// What the simulator answers.
struct SimResponse: Sendable {
    enum Body: Sendable {
        case bytes(Data)
        /// A live stream of frames.
        case stream(AsyncStream<Data>)
        /// The body is cut after `keep` bytes and the connection dropped.
        case reset(Data, keep: Int)
    }

    var status: Int
    var headers: [(String, String)] = []
    var body: Body

    static func json(_ status: Int, _ value: J, headers: [(String, String)] = []) -> SimResponse {
        SimResponse(
            status: status, headers: [("Content-Type", "application/json;charset=utf-8")] + headers,
            body: .bytes(Data(value.bytes)))
    }

    static func form(_ pairs: [(String, String)]) -> SimResponse {
        SimResponse(
            status: 200, headers: [("Content-Type", "text/html;charset=utf-8")],
            body: .bytes(Data(FormCoding.encode(pairs).utf8)))
    }

    static func html(_ status: Int, _ page: String) -> SimResponse {
        SimResponse(status: status, headers: [("Content-Type", "text/html;charset=utf-8")], body: .bytes(Data(page.utf8)))
    }

    /// Twitter's error body, `{"errors":[{"code":…,"message":…}]}`.
    static func error(_ status: Int, code: Int, _ message: String, headers: [(String, String)] = []) -> SimResponse {
        json(status, .object([("errors", .array([.object([("code", .int(code)), ("message", .string(message))])]))]), headers: headers)
    }
}

/// Percent-encoding and form syntax, written for the simulator alone.
enum FormCoding {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func encode(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(b)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ s: String) -> String { percentDecode(s, plusIsSpace: true) }

    /// `%XX` decoding; malformed escapes stay as written, invalid UTF-8 becomes U+FFFD.
    static func percentDecode(_ s: String, plusIsSpace: Bool) -> String {
        let bytes = Array(s.utf8)
        guard bytes.contains(0x25) || (plusIsSpace && bytes.contains(0x2B)) else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x37
            case 0x61...0x66: return b - 0x57
            default: return nil
            }
        }
        while i < bytes.count {
            if bytes[i] == 0x25, i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(plusIsSpace && bytes[i] == 0x2B ? 0x20 : bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func parse(_ s: String) -> [(String, String)] {
        s.split(separator: "&").compactMap { part in
            guard !part.isEmpty else { return nil }
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(String(kv[0])), kv.count > 1 ? decode(String(kv[1])) : "")
        }
    }

    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}

/// Lets handlers use `Result<_, SimResponse>` for an early answer.
extension SimResponse: Error {}
