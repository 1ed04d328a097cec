import Foundation
import LinnetCore
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// A link in a post of one's own is a link, on both faces: the simulator wraps it in t.co and
/// lists it in the URL entities as X does; the card shows it shortened and `o` lists it.
@Suite struct PostedLinksTests {
    @Test(arguments: TwitterClient.API.allCases) func ownLinksAreWrappedAndListed(api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = TwitterClient(endpoints: .single(sim.server.baseURL), auth: sim.client.auth, http: sim.client.http, api: api)
        let text = "read example.com/some/very/long/path/indeed and https://linnet.org/x now \(api)"
        let posted: Tweet
        if api == .v2 {
            let id = try await client.v2Create(text: text)
            posted = try #require(try await client.v2Lookup([id]).tweets.first)
        } else {
            posted = try await client.update(text)
        }
        let urls = posted.entities.urls
        #expect(urls.map(\.target) == ["http://example.com/some/very/long/path/indeed", "https://linnet.org/x"], "\(urls)")
        #expect(urls.first?.display == "example.com/some/very/long…")
        #expect(posted.text.contains("https://t.co/") && !posted.text.contains("linnet.org"))
        // The card shows the short form; the picker lists both links.
        let shown = posted.displayText.text
        #expect(shown.contains("example.com/some/very/long…") && shown.contains("linnet.org/x"), "\(shown)")
        let picker = LinkPicker(posted)
        #expect(picker.items.filter { $0.label == "link" }.map(\.url) == urls.map(\.target))
    }

    @Test func aPostWithoutEntitiesStillHasItsLinks() {
        let bare = Tweet(
            id: TweetID(5), createdAt: 0, user: User(id: UserID(1), screenName: "a", name: "A"),
            text: "see https://example.com/x and linnet.org")
        let links = LinkPicker(bare).items.filter { $0.label == "link" }.map(\.url)
        #expect(links == ["https://example.com/x", "http://linnet.org"])
        #expect(bare.displayText.highlights.count == 2)
    }
}
