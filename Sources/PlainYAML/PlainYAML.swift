import CYAML

/// A YAML document as plain values, read with libyaml: mappings as `[String: Any]`, sequences as
/// `[Any]`, scalars as `String` (what twurl's and t's account files hold). Aliases are followed,
/// within bounds, so a document that expands without end is an error, not a hang.
public enum PlainYAML {
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Nodes a document may expand to, aliases followed (a few hundred in an account file).
    public static let maxNodes = 100_000
    public static let maxDepth = 64

    /// The first document of `text`, or nil when there is none.
    public static func load(_ text: String) throws(Problem) -> Any? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw Problem(description: "libyaml could not start") }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        var document = yaml_document_t()
        let loaded = bytes.withUnsafeMutableBufferPointer { buffer -> Bool in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return yaml_parser_load(&parser, &document) == 1
        }
        guard loaded else {
            let what = parser.problem.map { String(cString: $0) } ?? "not YAML"
            throw Problem(description: "\(what) at line \(parser.problem_mark.line + 1), column \(parser.problem_mark.column + 1)")
        }
        defer { yaml_document_delete(&document) }
        guard let root = yaml_document_get_root_node(&document) else { return nil }
        var budget = maxNodes
        return try value(&document, root, depth: 0, budget: &budget)
    }

    private static func value(
        _ d: inout yaml_document_t, _ node: UnsafeMutablePointer<yaml_node_t>, depth: Int, budget: inout Int
    ) throws(Problem) -> Any {
        budget -= 1
        guard budget >= 0 else { throw Problem(description: "expands to more than \(maxNodes) values") }
        guard depth < maxDepth else { throw Problem(description: "nested more than \(maxDepth) deep") }
        let n = node.pointee
        switch n.type {
        case YAML_SCALAR_NODE:
            return String(decoding: UnsafeBufferPointer(start: n.data.scalar.value, count: n.data.scalar.length), as: UTF8.self)
        case YAML_SEQUENCE_NODE:
            var out: [Any] = []
            var item = n.data.sequence.items.start
            while let i = item, i < n.data.sequence.items.top {
                if let child = yaml_document_get_node(&d, i.pointee) {
                    out.append(try value(&d, child, depth: depth + 1, budget: &budget))
                }
                item = i + 1
            }
            return out
        case YAML_MAPPING_NODE:
            var out: [String: Any] = [:]
            var pair = n.data.mapping.pairs.start
            while let p = pair, p < n.data.mapping.pairs.top {
                if let k = yaml_document_get_node(&d, p.pointee.key), let v = yaml_document_get_node(&d, p.pointee.value) {
                    guard let key = try value(&d, k, depth: depth + 1, budget: &budget) as? String else {
                        throw Problem(description: "a key that is not a string")
                    }
                    out[key] = try value(&d, v, depth: depth + 1, budget: &budget)
                }
                pair = p + 1
            }
            return out
        default:
            return ""
        }
    }
}
