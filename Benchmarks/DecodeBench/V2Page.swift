import Foundation
import TwitterAPI

/// The recorded v1.1 stream tweets laid out as one X API v2 page: posts in `data`, their authors
/// and the retweeted and quoted posts in `includes`, as `V2Decoder` reads a timeline page.
struct V2Page {
    private(set) var bytes = Data()
    private(set) var posts = 0
    private var users: [String: JSONValue] = [:]
    private var included: [String: JSONValue] = [:]
    var userCount: Int { users.count }
    var includedCount: Int { included.count }

    init(lines: [Data]) {
        var data: [JSONValue] = []
        for line in lines {
            if let t = try? JSONValue.parse(line), let p = post(t) { data.append(p) }
        }
        posts = data.count
        bytes = Data(
            JSONValue.object([
                ("data", .array(data)),
                (
                    "includes",
                    .object([
                        ("users", .array(users.sorted { $0.key < $1.key }.map(\.value))),
                        ("tweets", .array(included.sorted { $0.key < $1.key }.map(\.value))),
                    ])
                ),
                ("meta", .object([("result_count", .number(String(data.count))), ("next_token", .string("b26v89c19zqg8o3fpds"))])),
            ]).serialized.utf8)
    }

    private mutating func post(_ t: JSONValue) -> JSONValue? {
        guard let id = t["id_str"]?.stringValue, let user = t["user"], let uid = user["id_str"]?.stringValue else { return nil }
        users[uid] = .object([
            ("id", .string(uid)), ("name", user["name"] ?? .string("")), ("username", user["screen_name"] ?? .string("")),
            ("verified", user["verified"] ?? .bool(false)), ("description", user["description"] ?? .string("")),
            (
                "public_metrics",
                .object([
                    ("followers_count", user["followers_count"] ?? .number("0")),
                    ("following_count", user["friends_count"] ?? .number("0")),
                ])
            ),
        ])
        let ext = t["extended_tweet"]
        var fields: [(String, JSONValue)] = [
            ("id", .string(id)), ("text", ext?["full_text"] ?? t["full_text"] ?? t["text"] ?? .string("")), ("author_id", .string(uid)),
            ("created_at", iso(t["created_at"])), ("lang", t["lang"] ?? .null), ("edit_history_tweet_ids", .array([.string(id)])),
            (
                "public_metrics",
                .object([("retweet_count", t["retweet_count"] ?? .number("0")), ("like_count", t["favorite_count"] ?? .number("0"))])
            ),
        ]
        if let e = v2Entities(ext?["entities"] ?? t["entities"]) { fields.append(("entities", e)) }
        var refs: [JSONValue] = []
        if let rt = t["retweeted_status"], let p = post(rt), let rid = p["id"]?.stringValue {
            included[rid] = p
            refs.append(.object([("type", .string("retweeted")), ("id", .string(rid))]))
        }
        if let q = t["quoted_status"], let p = post(q), let qid = p["id"]?.stringValue {
            included[qid] = p
            refs.append(.object([("type", .string("quoted")), ("id", .string(qid))]))
        }
        if let r = t["in_reply_to_status_id_str"]?.stringValue {
            refs.append(.object([("type", .string("replied_to")), ("id", .string(r))]))
        }
        if !refs.isEmpty { fields.append(("referenced_tweets", .array(refs))) }
        return .object(fields)
    }
}

private func v2Entities(_ e: JSONValue?) -> JSONValue? {
    guard let e else { return nil }
    var out: [(String, JSONValue)] = []
    func range(_ item: JSONValue) -> [(String, JSONValue)] {
        guard case .array(let ix)? = item["indices"], ix.count == 2 else { return [] }
        return [("start", ix[0]), ("end", ix[1])]
    }
    if case .array(let urls)? = e["urls"], !urls.isEmpty {
        out.append(
            (
                "urls",
                .array(
                    urls.map { u in
                        .object(
                            range(u) + [
                                ("url", u["url"] ?? .null), ("expanded_url", u["expanded_url"] ?? .null),
                                ("display_url", u["display_url"] ?? .null),
                            ])
                    })
            ))
    }
    if case .array(let ms)? = e["user_mentions"], !ms.isEmpty {
        out.append(
            (
                "mentions",
                .array(ms.map { m in .object(range(m) + [("username", m["screen_name"] ?? .null), ("id", m["id_str"] ?? .null)]) })
            ))
    }
    if case .array(let hs)? = e["hashtags"], !hs.isEmpty {
        out.append(("hashtags", .array(hs.map { h in .object(range(h) + [("tag", h["text"] ?? .null)]) })))
    }
    return out.isEmpty ? nil : .object(out)
}

private func iso(_ created: JSONValue?) -> JSONValue {
    guard let s = created?.stringValue, let t = TwitterDate.parse(s) else { return .null }
    let f = ISO8601DateFormatter()
    return .string(f.string(from: Date(timeIntervalSince1970: Double(t))))
}
