import Foundation
import LinnetTestSupport
import Testing
import Timeline

/// The prices Linnet counts with are those of docs/X-LIMITS.md (each with X's section named).
@Suite struct PricesTableTests {
    @Test func thePricesAreTheDocumentedOnes() throws {
        let table = try LimitsDoc.prices()
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
