import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// X's contract (openapi.json, through `ContractTable`) as the simulator holds requests to it:
/// every operation's path, query and JSON body checked before anything else is done, and a
/// request X would refuse answered with X's 400 `Invalid Request` problem. Derived, not typed
/// per route, so a route added later is strict too.
struct Contract: Sendable {
    struct Parameter: Sendable {
        let name: String
        let location: String
        let required: Bool
        let schema: ContractValue
    }

    struct Operation: Sendable {
        let method: String
        let template: String
        /// Path segments after the leading `/`, nil where the template names a parameter.
        let segments: [String?]
        let parameters: [Parameter]
        let body: ContractValue?
        let bodyRequired: Bool
        /// The media types the body may come as (`application/json`, `multipart/form-data`…).
        let bodyTypes: [String]
    }

    let version: String
    let operations: [Operation]
    let schemas: ContractSchemas

    static let x = Contract(table: ContractTable.json)

    init(table text: String) {
        // A table that does not read is a generator fault: an empty one would let every request through.
        let table: ContractValue
        do { table = try JSONDecoder().decode(ContractValue.self, from: Data(text.utf8)) } catch {
            fatalError("ContractTable is not JSON (\(error)); run Tools/contract-table.py")
        }
        let root = table.object ?? [:]
        version = root["version"]?.string ?? "?"
        schemas = ContractSchemas(named: root["schemas"]?.object ?? [:], table: table)
        let shared = root["parameters"]?.object ?? [:]
        var ops: [Operation] = []
        for (key, value) in (root["operations"]?.object ?? [:]).sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, let o = value.object else { continue }
            let params = (o["parameters"]?.array ?? []).compactMap { p -> Parameter? in
                // A parameter several operations share is written once, by name.
                let q = p.object?["$ref"]?.string.flatMap { shared[$0]?.object } ?? p.object
                guard let q, let name = q["name"]?.string, let location = q["in"]?.string else { return nil }
                let required = q["required"]?.bool ?? false
                return Parameter(name: name, location: location, required: required, schema: q["schema"] ?? .object([:]))
            }
            let segments = parts[1].split(separator: "/").map { s -> String? in s.hasPrefix("{") ? nil : String(s) }
            ops.append(
                Operation(
                    method: parts[0], template: parts[1], segments: segments, parameters: params, body: o["body"],
                    bodyRequired: o["bodyRequired"]?.bool ?? false, bodyTypes: o["bodyTypes"]?.array?.compactMap(\.string) ?? []))
        }
        operations = ops
    }

    /// The operation a request is for, and its path parameters by name (the most literal
    /// template wins: `/2/users/me` before `/2/users/{id}`).
    func operation(method: String, rawPath: String) -> (Operation, [String: String])? {
        let sent = rawPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            FormCoding.percentDecode(String($0), plusIsSpace: false)
        }
        var best: (Operation, [String: String], Int)?
        for op in operations where op.method == method && op.segments.count == sent.count {
            var literal = 0
            var matched = true
            for (want, got) in zip(op.segments, sent) {
                if let w = want {
                    guard w == got else {
                        matched = false
                        break
                    }
                    literal += 1
                }
            }
            guard matched, literal > best?.2 ?? -1 else { continue }
            let names = op.template.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
            let values = zip(op.segments, sent).filter { $0.0 == nil }.map(\.1)
            best = (op, Dictionary(zip(names, values), uniquingKeysWith: { a, _ in a }), literal)
        }
        return best.map { ($0.0, $0.1) }
    }

    /// What X would say of this request, or nil when the contract allows it.
    func refusal(_ r: SimRequest) -> SimResponse? {
        guard let (op, pathValues) = operation(method: r.method, rawPath: r.rawPath) else { return nil }
        var errors: [(String, [String], String)] = []
        let query = FormCoding.parse(r.rawQuery)
        let known = op.parameters.filter { $0.location == "query" }
        for (name, _) in query where !known.contains(where: { $0.name == name }) {
            guard !errors.contains(where: { $0.0 == name }) else { continue }
            errors.append(
                (name, [name], "The query parameter [\(name)] is not one of [\(known.map(\.name).sorted().joined(separator: ","))]"))
        }
        for p in op.parameters where p.location == "path" || p.location == "query" {
            // An array may come as one comma list or as the name repeated (`explode`); both read
            // as one list.
            let all = query.filter { $0.0 == p.name }.map(\.1)
            let isArray = schemas.resolve(p.schema)["type"]?.string == "array"
            let value = p.location == "path" ? pathValues[p.name] : all.isEmpty ? nil : isArray ? all.joined(separator: ",") : all.last
            guard let raw = value else {
                if p.required { errors.append((p.name, [], "The `\(p.name)` query parameter can not be empty")) }
                continue
            }
            if let why = parameterProblem(p, raw) { errors.append((p.name, [raw], why)) }
        }
        if errors.isEmpty, let schema = op.body, let why = bodyProblem(r, schema, op) {
            errors.append(("", [], why))
        }
        guard !errors.isEmpty else { return nil }
        let items: [J] = errors.map { name, values, message in
            .object([
                ("parameters", .object(name.isEmpty ? [] : [(name, .array(values.map(J.string)))])), ("message", .string(message)),
            ])
        }
        return World.problemJSON(
            400,
            .object([
                ("errors", .array(items)), ("title", .string("Invalid Request")),
                ("detail", .string("One or more parameters to your request was invalid.")),
                ("type", .string("https://api.twitter.com/2/problems/invalid-request")),
            ]))
    }

    /// A path or query value against its schema, in X's words: an array is a comma-separated
    /// list (OpenAPI `form`, not exploded), a number is written in digits.
    func parameterProblem(_ p: Parameter, _ raw: String) -> String? {
        let s = schemas.resolve(p.schema)
        let value: ContractValue
        switch s["type"]?.string {
        case "array":
            let itemType = schemas.resolve(s["items"] ?? .null)["type"]?.string
            value = .array(raw.split(separator: ",", omittingEmptySubsequences: false).map { Self.typed(String($0), itemType) })
        default: value = Self.typed(raw, s["type"]?.string)
        }
        guard schemas.problem(value, p.schema, at: "$") != nil else { return nil }
        if let items = value.array, let each = s["items"], let allowed = schemas.resolve(each)["enum"]?.array,
            let bad = items.first(where: { !allowed.contains($0) })
        {
            return
                "The `\(p.name)` query parameter value [\(ContractSchemas.show(bad))] is not one of [\(allowed.map(ContractSchemas.show).joined(separator: ","))]"
        }
        if case .number = value, let min = s["minimum"]?.number, let max = s["maximum"]?.number {
            return
                "The `\(p.name)` query parameter value [\(raw)] is not between \(ContractSchemas.show(.number(min))) and \(ContractSchemas.show(.number(max)))"
        }
        return "The `\(p.name)` query parameter value [\(raw)] is not valid"
    }

    /// Text as the type the schema asks for; text that is not one stays text (and fails).
    static func typed(_ text: String, _ type: String?) -> ContractValue {
        switch type {
        case "integer", "number":
            let digits = text.utf8.enumerated().allSatisfy { i, b in (48...57).contains(b) || (i == 0 && b == 45) }
            if !text.isEmpty, text != "-", digits || type == "number", let n = Double(text), n.isFinite { return .number(n) }
            return .string(text)
        case "boolean": return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        default: return .string(text)
        }
    }

    /// A JSON body against its schema; a body of another type the operation takes (a
    /// multipart upload) is the route's own to read.
    func bodyProblem(_ r: SimRequest, _ schema: ContractValue, _ op: Operation) -> String? {
        if r.body.isEmpty { return op.bodyRequired ? "The request body is missing: this operation takes a JSON body" : nil }
        let type = (r.headers["content-type"] ?? "").lowercased().split(separator: ";").first.map {
            $0.trimmed()
        }
        guard type == "application/json" else {
            if let t = type, op.bodyTypes.contains(t) { return nil }
            return "The request body must be sent as \(op.bodyTypes.joined(separator: " or "))"
        }
        guard let value = try? JSONDecoder().decode(ContractValue.self, from: r.body) else { return "The request body is not valid JSON" }
        return schemas.problem(value, schema, at: "$")
    }
}
