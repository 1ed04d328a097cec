import LinnetTestSupport
import Testing

/// One case of the twitter-text conformance suite, loaded from Tests/Fixtures/twitter-text.
struct ConformanceCase: Sendable, CustomTestStringConvertible {
    var section: String
    var description: String
    var text: String
    /// Expected values: strings for list sections, `(text, start, end)` for indexed sections,
    /// numbers and booleans (as strings) for weighted sections.
    var expectedList: [String] = []
    var expectedIndexed: [IndexedValue] = []
    var expectedFields: [String: String] = [:]
    /// Set when the fixture could not be read: the test then fails with this message.
    var loadError: String?

    struct IndexedValue: Sendable, Equatable, CustomStringConvertible {
        var text: String
        var start: Int
        var end: Int
        var description: String { "\(text)[\(start),\(end)]" }
    }

    var testDescription: String { "\(section): \(description)" }

    static func load(_ file: String, _ section: String, indexKey: String? = nil) -> [ConformanceCase] {
        do {
            return try Fixtures.conformanceCases(file, section: section).map { raw in
                var c = ConformanceCase(
                    section: section, description: raw["description"] as? String ?? "?",
                    text: raw["text"] as? String ?? "")
                if let list = raw["expected"] as? [Any], let key = indexKey {
                    c.expectedIndexed = list.compactMap { item in
                        guard let d = item as? [String: Any], let t = d[key] as? String,
                            let idx = d["indices"] as? [Int], idx.count == 2
                        else { return nil }
                        return IndexedValue(text: t, start: idx[0], end: idx[1])
                    }
                } else if let list = raw["expected"] as? [Any] {
                    c.expectedList = list.map { "\($0)" }
                } else if let d = raw["expected"] as? [String: Any] {
                    c.expectedFields = d.mapValues { "\($0)" }
                }
                return c
            }
        } catch {
            return [ConformanceCase(section: section, description: "load", text: "", loadError: "\(error)")]
        }
    }
}
