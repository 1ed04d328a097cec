import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI

/// The least `max_results` Linnet asks of each paged read is the contract's own minimum.
@Suite struct V2MinimumResultsTests {
    @Test func theMinimumsAreTheContracts() throws {
        let doc = try JSONSerialization.jsonObject(with: Fixtures.data("x-api-v2/openapi.json")) as? [String: Any] ?? [:]
        let paths = doc["paths"] as? [String: [String: Any]] ?? [:]
        for (template, least) in TwitterClient.V2Query.minimumResults {
            let get = paths[template]?["get"] as? [String: Any]
            let parameters = get?["parameters"] as? [[String: Any]] ?? []
            let max = parameters.first { $0["name"] as? String == "max_results" }
            let minimum = (max?["schema"] as? [String: Any])?["minimum"] as? Int
            #expect(minimum == least, "\(template): the contract says \(String(describing: minimum)), Linnet \(least)")
        }
        #expect(TwitterClient.V2Query.maxResults(1, for: "/2/users/{id}/mentions") == "5")
        #expect(TwitterClient.V2Query.maxResults(1, for: "/2/users/{id}/timelines/reverse_chronological") == "1")
        #expect(TwitterClient.V2Query.maxResults(500, for: "/2/tweets/search/recent") == "100")
    }
}
