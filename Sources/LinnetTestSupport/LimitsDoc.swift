import Foundation

/// docs/X-LIMITS.md as tests read it: the prices table, kind → US dollars.
public enum LimitsDoc {
    public static func prices() throws -> [String: Double] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/X-LIMITS.md"), encoding: .utf8)
        var table: [String: Double] = [:]
        for line in (doc.components(separatedBy: "## Prices").last ?? "").split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count == 3, let price = Double(cells[1]) { table[cells[0]] = price }
        }
        return table
    }
}
