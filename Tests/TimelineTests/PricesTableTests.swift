import Foundation
import Testing
import Timeline

/// The prices Linnet counts with are those of docs/X-LIMITS.md (each with X's section named).
@Suite struct PricesTableTests {
    @Test func thePricesAreTheDocumentedOnes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/X-LIMITS.md"), encoding: .utf8)
        let section = try #require(doc.components(separatedBy: "## Prices").last)
        var table: [String: Double] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count == 3, let price = Double(cells[1]) { table[cells[0]] = price }
        }
        let p = UsagePrices()
        let expected: [(String, Double)] = [
            ("Post read", p.postRead), ("User read", p.userRead), ("Owned read", p.ownedRead), ("Post create", p.postCreate),
            ("Post create with a URL", p.postCreateWithURL), ("Interaction delete", p.delete),
            ("User interaction create (like, repost, follow)", p.interaction),
        ]
        #expect(table.count == expected.count, "\(table)")
        for (kind, price) in expected {
            #expect(table[kind] == price, "\(kind): table \(String(describing: table[kind])), Linnet \(price)")
        }
    }
}
