import Bedrock
import FoundationEssentials
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// An error answer from the Twitter API: HTTP status, Twitter's error code and message, and what
/// it means in plain words.
public struct APIError: Error, Equatable, Sendable, CustomStringConvertible {
    public var httpStatus: Int
    /// Twitter's error code, when the body carried one.
    public var code: Int?
    /// Twitter's message, or the body's text.
    public var message: String
    /// `retry-after` or `x-rate-limit-reset`, when the answer gave one (Unix seconds).
    public var retryAt: Int64?
    /// The kind of a v2 problem (`client-forbidden`, `usage-capped`, …), the last part of its
    /// `type`, when the body was one.
    public var problemType: String?

    public init(httpStatus: Int, code: Int?, message: String, retryAt: Int64? = nil) {
        self.httpStatus = httpStatus
        self.code = code
        self.message = message
        self.retryAt = retryAt
    }

    /// Builds the error from a response body: `{"errors":[{"code":…,"message":…}]}`, a v2
    /// problem (`{"type","title","detail"}`, alone or in `errors`), `{"error":"…"}`, or plain
    /// text (as 420 answers were).
    public init(httpStatus: Int, body: Data, retryAt: Int64? = nil) {
        self.httpStatus = httpStatus
        self.retryAt = retryAt
        code = nil
        message = ""
        if let json = try? JSONValue.parse(body) {
            var problem = json
            if case .array(let errors)? = json["errors"], let first = errors.first {
                code = first["code"]?.intValue.map { Int($0) }
                message = first["message"]?.stringValue ?? ""
                problem = first
            } else if let text = json["error_description"]?.stringValue ?? json["error"]?.stringValue {
                // OAuth 2.0 token errors: `{"error":"invalid_request","error_description":"…"}`.
                message = text
            }
            // A v2 problem: the detail says most, the title names it.
            if message.isEmpty, let words = problem["detail"]?.stringValue ?? problem["title"]?.stringValue {
                message = words
            }
            // The kind: the item's own type, else the answer's (an invalid request lists its
            // parameters in `errors` and names itself at the top).
            if let type = problem["type"]?.stringValue ?? json["type"]?.stringValue, type != "about:blank" {
                problemType = type.split(separator: "/").last.map(String.init)
            }
            if code == nil, let c = problem["code"]?.intValue { code = Int(c) }
        }
        if message.isEmpty { message = Self.plainMessage(body) ?? HTTPStatus.reason(httpStatus) }
    }

    /// A body that is not Twitter's JSON, in words: the title of an HTML error page (a proxy's
    /// "502 Bad Gateway"), or the first line of plain text (as 420 answers were), escapes made
    /// visible. Nil when neither gives anything.
    static func plainMessage(_ body: Data) -> String? {
        let text = String(decoding: body.prefix(4096), as: UTF8.self).trimmedLines()
        var found: Substring
        if text.hasPrefix("<") {
            let lower = text.lowercased()
            guard let open = lower.scalarRange(of: "<title>"), let close = lower.scalarRange(of: "</title>", from: open.upperBound)
            else {
                return nil
            }
            let start = text.index(text.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: open.upperBound))
            let end = text.index(text.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: close.lowerBound))
            found = text[start..<end]
        } else {
            found = text.prefix { $0 != "\n" && $0 != "\r" }
        }
        let words = Sanitizer.visible(String(found.prefix(200)), keepNewlines: false).trimmed()
        return words.isEmpty ? nil : words
    }

    /// Limits of a key's access level that X answers with an error, each said as itself.
    public enum TierRestriction: Equatable, Sendable {
        /// Error 453: the key's tier does not include this v1.1 endpoint.
        case v1NotOnTier
        /// A self-serve key may reply only where the author mentioned or quoted you.
        case replyNotAllowed
        /// The key's app is not in a project, or its tier does not include the call.
        case notEnrolled
        /// The month's usage cap is reached.
        case usageCapped
    }

    /// The tier restriction this error is, if any.
    public var tierRestriction: TierRestriction? {
        if code == 453 { return .v1NotOnTier }
        if message.contains("Reply to this conversation is not allowed") { return .replyNotAllowed }
        switch problemType {
        case "client-forbidden": return .notEnrolled
        case "usage-capped": return .usageCapped
        default: return nil
        }
    }

    /// What went wrong, in words a user can act on.
    public var explanation: String {
        switch tierRestriction {
        case .v1NotOnTier:
            return "Your key's access level does not include this API v1.1 endpoint; use API v2 (linnet --api v2)."
        case .replyNotAllowed:
            return
                "X allows this reply only where the author mentioned or quoted you (the post's reply settings, or your key's access level)."
        case .notEnrolled:
            return "Your key's app is not allowed this call: it must belong to a project whose access level includes it."
        case .usageCapped:
            return "Your key has used up this month's allowance of reads; it resets with the billing period."
        case nil: break
        }
        if let c = code, let words = Self.meanings[c] { return words }
        switch httpStatus {
        case 400: return "Twitter rejected the request as malformed."
        case 401: return "Twitter did not accept the credentials."
        case 403: return "Twitter refused this action."
        case 404: return "Twitter has no such page or tweet."
        case 420, 429: return "Rate limited: too many requests; wait before trying again."
        case 500, 502, 504: return "Twitter had an internal error; try again shortly."
        case 503: return "Twitter is over capacity; try again shortly."
        default: return "Twitter answered HTTP \(httpStatus)."
        }
    }

    /// Plain words for Twitter's common error codes (docs/PROTOCOL.md §5).
    public static let meanings: [Int: String] = [
        32: "Could not authenticate: the signature or keys were not accepted. Check the consumer key and secret and the access token.",
        34: "That page or endpoint does not exist.",
        50: "That user does not exist.",
        63: "That account has been suspended.",
        64: "Your account is suspended and may not use the API.",
        87: "This app is not allowed to do that (for example, xAuth is not enabled for it).",
        88: "Rate limit reached for this endpoint; it resets at the end of its 15-minute window.",
        89: "The access token is invalid or was revoked; log in again.",
        99: "The app's consumer key and secret were not accepted.",
        130: "Twitter is over capacity; try again shortly.",
        131: "Twitter had an internal error; try again shortly.",
        135: "Your computer's clock is too far off Twitter's for the request to be accepted.",
        139: "You have already liked this tweet.",
        144: "No tweet with that id exists (it may have been deleted).",
        179: "You are not allowed to see that tweet (the account may be protected).",
        185: "You have reached the daily limit of tweets.",
        186: "The tweet is too long: at most 280 characters, as Twitter counts them.",
        187: "You already posted exactly that text; Twitter refuses duplicates.",
        215: "The request carried no usable authentication.",
        220: "These credentials may not use this endpoint (app-only access cannot read home or mentions, or write).",
        226: "Twitter thinks this request looks automated and refused it; try again later.",
        261: "This app may not write (it lacks write permission).",
        326: "Your account is temporarily locked; log in on the web to unlock it.",
        327: "You have already retweeted this tweet.",
    ]

    public var description: String {
        let codePart = code.map { " (code \($0))" } ?? ""
        return "HTTP \(httpStatus)\(codePart): \(message) — \(explanation)"
    }
}

/// Reason phrases for HTTP statuses.
public enum HTTPStatus {
    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 406: return "Not Acceptable"
        case 410: return "Gone"
        case 413: return "Payload Too Large"
        case 416: return "Range Not Satisfiable"
        case 420: return "Enhance Your Calm"
        case 422: return "Unprocessable Entity"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "HTTP \(status)"
        }
    }
}
