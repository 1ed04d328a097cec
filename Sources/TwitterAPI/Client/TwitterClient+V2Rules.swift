import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// API v2's filtered stream rules (the app's bearer token).
extension TwitterClient {
    /// A rule of the app's filtered stream. Linnet tags its own rules (`linnet:…`) and touches
    /// no others.
    public struct V2Rule: Equatable, Sendable {
        public var id: String
        public var value: String
        public var tag: String
        public init(id: String, value: String, tag: String) {
            self.id = id
            self.value = value
            self.tag = tag
        }
    }

    private static func rules(_ json: JSONValue) -> [V2Rule] {
        guard case .array(let items)? = json["data"] else { return [] }
        return items.compactMap { r in
            guard let id = r["id"]?.stringValue, let value = r["value"]?.stringValue else { return nil }
            return V2Rule(id: id, value: value, tag: r["tag"]?.stringValue ?? "")
        }
    }

    public func v2Rules() async throws -> [V2Rule] {
        Self.rules(try JSONValue.parse(try await call("GET", "/2/tweets/search/stream/rules")))
    }

    /// Adds rules (or, with `dryRun`, only checks them); returns those created. A rule refused
    /// (invalid, a duplicate) is an error in words.
    public func v2AddRules(_ rules: [(value: String, tag: String)], dryRun: Bool = false) async throws -> [V2Rule] {
        let body = JSONValue.object([
            ("add", .array(rules.map { .object([("value", .string($0.value)), ("tag", .string($0.tag))]) }))
        ])
        let data = try await call(
            "POST", "/2/tweets/search/stream/rules", dryRun ? [("dry_run", "true")] : [], json: Data(body.serialized.utf8))
        let json = try JSONValue.parse(data)
        if case .array(let errors)? = json["errors"], let first = errors.first {
            let why = first["title"]?.stringValue ?? "refused"
            throw APIError(httpStatus: 400, code: nil, message: "the rule \"\(first["value"]?.stringValue ?? "")\" was not added: \(why)")
        }
        return Self.rules(json)
    }

    /// Makes the app's Linnet rules (tags starting with `prefix`) exactly `wanted`: Linnet's
    /// rules no longer wanted are deleted, missing ones checked with a dry run and then added.
    /// Rules with other tags (another program's) are never touched. Returns the rules in force.
    public func v2SyncRules(_ wanted: [(value: String, tag: String)], prefix: String = "linnet:") async throws -> [V2Rule] {
        precondition(wanted.allSatisfy { $0.tag.hasPrefix(prefix) }, "Linnet's rules carry its tag prefix")
        let current = try await v2Rules()
        let mine = current.filter { $0.tag.hasPrefix(prefix) }
        let stale = mine.filter { r in !wanted.contains { $0.value == r.value && $0.tag == r.tag } }
        if !stale.isEmpty { _ = try await v2DeleteRules(ids: stale.map(\.id)) }
        let missing = wanted.filter { w in !mine.contains { $0.value == w.value && $0.tag == w.tag } }
        if !missing.isEmpty {
            _ = try await v2AddRules(missing, dryRun: true)
            _ = try await v2AddRules(missing)
        }
        return try await v2Rules()
    }

    /// Deletes rules by id; returns how many went.
    public func v2DeleteRules(ids: [String]) async throws -> Int {
        let body = JSONValue.object([("delete", .object([("ids", .array(ids.map(JSONValue.string)))]))])
        let json = try JSONValue.parse(try await call("POST", "/2/tweets/search/stream/rules", [], json: Data(body.serialized.utf8)))
        return Int(json["meta"]?["summary"]?["deleted"]?.intValue ?? 0)
    }
}
