import Foundation

/// A request as the simulator's logic sees it, independent of the HTTP server package.
struct SimRequest: Sendable {
    var method: String
    /// Path as sent, percent-encoded.
    var rawPath: String
    /// Query as sent, without `?`.
    var rawQuery: String
    /// Header names lower-cased.
    var headers: [String: String]
    var body: Data
    var isTLS = false

    var path: String { rawPath.removingPercentEncoding ?? rawPath }

    /// Query and form-body parameters, decoded (form syntax: `+` is a space).
    var parameters: [(String, String)] {
        var all = FormCoding.parse(rawQuery)
        if isForm { all += FormCoding.parse(String(decoding: body, as: UTF8.self)) }
        return all
    }

    var isForm: Bool {
        (headers["content-type"] ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded")
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
    static func encode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 0x0F)])
            }
        }
        return out
    }

    static func decode(_ s: String) -> String {
        let plus = s.replacingOccurrences(of: "+", with: " ")
        return plus.removingPercentEncoding ?? plus
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
