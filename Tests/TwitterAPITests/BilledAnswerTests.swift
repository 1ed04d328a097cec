import Foundation
import Testing
import TwitterAPI

/// What one answer is billed for, read from the answer (docs/PROTOCOL-V2.md §1): posts in
/// `data` where the call reads posts, users by their `username`, everything in `includes`
/// under either name X gives posts, owned reads by the path, nothing for v1.1 or sign-in.
@Suite struct BilledAnswerTests {
    static func body(_ json: String) -> Data { Data(json.utf8) }

    @Test func aPageOfPostsBillsItsPostsIncludesAndOwner() throws {
        let answer = Self.body(
            #"{"data":[{"id":"11","text":"a"},{"id":"12","text":"b"}],"includes":{"users":[{"id":"7","name":"A","username":"a"}],"#
                + #""tweets":[{"id":"5","text":"q"}],"posts":[{"id":"6","text":"r"}]}}"#)
        let b = try #require(Billable.billed(method: "GET", path: "/2/users/42/mentions", params: [], json: nil, body: answer))
        #expect(b.posts == [11, 12] && b.includedPosts == [5, 6] && b.users == [7] && b.owner == UserID(42))
        // A query written into the path is read as parameters, the path's kind kept.
        let q = try #require(
            Billable.billed(method: "GET", path: "/2/users/42/mentions?max_results=5", params: [], json: nil, body: answer))
        #expect(q == b)
        let worst = try #require(
            Billable.worstCase(method: "GET", path: "/2/users/42/mentions?max_results=5&expansions=author_id", params: [], json: nil))
        #expect(worst.posts.count == 5 && worst.users.count == 5 && worst.owner == UserID(42))
    }

    @Test func listsMessagesAndRulesBillOnlyTheUsersTheyInclude() throws {
        let lists = Self.body(
            #"{"data":[{"id":"900","name":"Birds"}],"includes":{"users":[{"id":"7","name":"A","username":"a"}]}}"#)
        let b = try #require(Billable.billed(method: "GET", path: "/2/users/42/owned_lists", params: [], json: nil, body: lists))
        #expect(b.posts.isEmpty && b.users == [7])
        let me = Self.body(#"{"data":{"id":"42","name":"Me","username":"me"}}"#)
        #expect(Billable.billed(method: "GET", path: "/2/users/me", params: [], json: nil, body: me)?.users == [42])
        let rules = Self.body(#"{"data":[{"id":"1","value":"cats"}],"meta":{"sent":"x"}}"#)
        #expect(Billable.billed(method: "GET", path: "/2/tweets/search/stream/rules", params: [], json: nil, body: rules)?.isEmpty == true)
        #expect(Billable.billed(method: "GET", path: "/1.1/statuses/home_timeline.json", params: [], json: nil, body: me) == nil)
        #expect(Billable.billed(method: "POST", path: "/2/oauth2/token", params: [], json: nil, body: me) == nil)
    }

    @Test func writesAreBilledAtTheirPrice() throws {
        let post = Data(#"{"text":"see linnet.dev"}"#.utf8)
        let made = try #require(Billable.billed(method: "POST", path: "/2/tweets", params: [], json: post, body: Self.body("{}")))
        #expect(made.createsWithURL == 1 && made.creates == 0)
        let like = Billable.billed(method: "POST", path: "/2/users/42/likes", params: [], json: nil, body: Self.body("{}"))
        #expect(like?.interactions == 1)
        #expect(Billable.billed(method: "POST", path: "/2/users/42/muting", params: [], json: nil, body: Self.body("{}")) == nil)
    }
}
