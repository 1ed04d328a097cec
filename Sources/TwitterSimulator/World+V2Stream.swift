import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// API v2's filtered stream: an app's rules, and one connection per app that carries the posts
/// matching them.
extension World {
    struct V2Rule {
        var id: String
        var value: String
        var tag: String
        var query: SearchQuery
    }

    static let maxRules = 1000
    static let maxRuleLength = 1024

    private func appOnly(_ identity: Identity) -> String? {
        if case .app(let consumer) = identity { return consumer }
        return nil
    }

    static let appOnlyRequired = problem(
        403, "Unsupported Authentication",
        "Authenticating with OAuth 1.0a User Context is forbidden for this endpoint.  Supported authentication types are [OAuth 2.0 Application-Only].",
        type: "https://api.twitter.com/2/problems/unsupported-authentication")

    private func ruleJSON(_ r: V2Rule) -> J { .object([("id", .string(r.id)), ("value", .string(r.value)), ("tag", .string(r.tag))]) }

    func v2ListRules(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let consumer = appOnly(identity) else { return Self.appOnlyRequired }
        let rules = v2Rules[consumer] ?? []
        var out: [(String, J)] = []
        if !rules.isEmpty { out.append(("data", .array(rules.map(ruleJSON)))) }
        out.append(("meta", .object([("sent", .string(SimDate.iso(now))), ("result_count", .int(Int64(rules.count)))])))
        return .json(200, .object(out))
    }

    /// `POST /2/tweets/search/stream/rules`: `{"add":[{"value","tag"}]}` or
    /// `{"delete":{"ids":[…]}}`; with `dry_run=true` nothing is kept.
    func v2ChangeRules(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        guard let consumer = appOnly(identity) else { return Self.appOnlyRequired }
        let body = try Self.jsonBody(r)
        let dryRun = Self.truthy(r.param("dry_run"))
        var rules = v2Rules[consumer] ?? []
        let sent = ("sent", J.string(SimDate.iso(now)))
        if let add = body["add"] as? [[String: Any]] {
            var created: [V2Rule] = []
            var errors: [J] = []
            for item in add {
                let value = (item["value"] as? String ?? "").trimmed()
                let tag = item["tag"] as? String ?? ""
                if value.isEmpty || value.count > Self.maxRuleLength {
                    errors.append(
                        .object([
                            ("value", .string(value)),
                            ("details", .array([.string("Rules must be 1 to \(Self.maxRuleLength) characters long.")])),
                            ("title", .string("Invalid Rule")), ("type", .string("https://api.twitter.com/2/problems/invalid-rules")),
                        ]))
                } else if rules.contains(where: { $0.value == value }) || created.contains(where: { $0.value == value }) {
                    errors.append(
                        .object([
                            ("value", .string(value)), ("id", .string(rules.first { $0.value == value }?.id ?? "")),
                            ("title", .string("DuplicateRule")), ("type", .string("https://api.twitter.com/2/problems/duplicate-rules")),
                        ]))
                } else {
                    created.append(V2Rule(id: String(nextID()), value: value, tag: tag, query: SearchQuery(value)))
                }
            }
            guard rules.count + created.count <= Self.maxRules else {
                return Self.problem(
                    400, "RulesCapExceeded", "You have exceeded the maximum number of rules.",
                    type: "https://api.twitter.com/2/problems/rule-cap")
            }
            if !dryRun { rules += created }
            v2Rules[consumer] = rules
            var out: [(String, J)] = []
            if !created.isEmpty { out.append(("data", .array(created.map(ruleJSON)))) }
            if !errors.isEmpty { out.append(("errors", .array(errors))) }
            out.append(
                (
                    "meta",
                    .object([
                        sent,
                        (
                            "summary",
                            .object([
                                ("created", .int(Int64(created.count))), ("not_created", .int(Int64(errors.count))),
                                ("valid", .int(Int64(created.count))), ("invalid", .int(Int64(errors.count))),
                            ])
                        ),
                    ])
                ))
            // 200, as the contract documents (its only success status for this call).
            return .json(errors.isEmpty || !created.isEmpty ? 200 : 400, .object(out))
        }
        if let delete = body["delete"] as? [String: Any], let ids = delete["ids"] as? [String] {
            let before = rules.count
            let remaining = rules.filter { !ids.contains($0.id) }
            let deleted = before - remaining.count
            if !dryRun { v2Rules[consumer] = remaining }
            return .json(
                200,
                .object([
                    (
                        "meta",
                        .object([
                            sent,
                            ("summary", .object([("deleted", .int(Int64(deleted))), ("not_deleted", .int(Int64(ids.count - deleted)))])),
                        ])
                    )
                ]))
        }
        return Self.invalidRequest("add", "The request body must have `add` or `delete`")
    }

    /// `GET /2/tweets/search/stream`: one connection per app; a second is refused.
    func v2OpenStream(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let consumer = appOnly(identity) else { return Self.appOnlyRequired }
        let open = subscribers.values.contains {
            if case .rules(let c, _) = $0.kind { return c == consumer }
            return false
        }
        if open {
            return Self.problem(
                429, "ConnectionException", "This stream is currently at the maximum allowed connection limit.",
                type: "https://api.twitter.com/2/problems/streaming-connection",
                extra: [("connection_issue", .string("TooManyConnections"))])
        }
        let frames = subscribe(kind: .rules(consumer: consumer, fields: V2Fields(r)), delimited: false, stallWarnings: false)
        return SimResponse(status: 200, headers: [("Content-Type", "application/json")], body: .stream(frames))
    }
}
