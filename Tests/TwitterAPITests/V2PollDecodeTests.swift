import Foundation
import Testing
import TwitterAPI

/// A poll as X's documentation shows one (`includes.polls`, joined by `attachments.poll_ids`):
/// choices in their positions whatever order they come in, votes, end and status.
@Suite struct V2PollDecodeTests {
    @Test func aPollIsJoinedToItsPost() throws {
        let answer = """
            {"data":[{"id":"1199786642791452673","text":"C#","author_id":"12","attachments":{"poll_ids":["1199786642468413448"]},
            "edit_history_tweet_ids":["1199786642791452673"]}],
            "includes":{"users":[{"id":"12","name":"Dev","username":"dev"}],
            "polls":[{"id":"1199786642468413448","voting_status":"closed","duration_minutes":1440,
            "options":[{"position":2,"label":"“Sea-Shell”","votes":0},{"position":1,"label":"“C-Sharp”","votes":795}],
            "end_datetime":"2019-11-28T20:26:41.000Z"}]}}
            """
        let page = try V2Decoder().posts(from: Data(answer.utf8))
        let poll = try #require(page.tweets.first?.extras?.poll)
        #expect(poll.choices == [.init(label: "“C-Sharp”", votes: 795), .init(label: "“Sea-Shell”", votes: 0)])
        #expect(poll.isClosed && poll.durationMinutes == 1440 && poll.endsAt == 1_574_972_801)
        // A poll id with no poll in includes: the post comes without one, nothing else lost.
        let missing = answer.replacingOccurrences(of: "\"polls\"", with: "\"other\"")
        let bare = try V2Decoder().posts(from: Data(missing.utf8))
        #expect(bare.tweets.first?.text == "C#" && bare.tweets.first?.extras?.poll == nil)
    }
}
