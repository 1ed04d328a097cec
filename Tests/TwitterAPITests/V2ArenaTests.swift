import Foundation
import Testing

@testable import TwitterAPI

/// A v2 answer's texts and entities lie in the decoder's arena until its posts are joined.
@Suite struct V2ArenaTests {
    static func page(_ id: Int, _ text: String, _ tag: String) -> Data {
        Data(
            #"""
            {"data":[{"id":"\#(id)","text":"\#(text) #\#(tag)","author_id":"7",
              "entities":{"hashtags":[{"start":\#(text.count + 1),"end":\#(text.count + 2 + tag.count),"tag":"\#(tag)"}]}}]}
            """#.utf8)
    }

    /// An answer kept unjoined (its authors looked up later) keeps its own texts and entities,
    /// though the decoder has since read other answers into its arena.
    @Test func anUnjoinedAnswerOutlivesTheNextDocument() throws {
        let decoder = V2Decoder()
        let kept = try decoder.unjoinedPosts(from: Self.page(1, "日本語の投稿です", "linnet"))
        let other = try decoder.posts(from: Self.page(2, String(repeating: "x", count: 300), "overwritten"))
        #expect(other.tweets.first?.text == String(repeating: "x", count: 300) + " #overwritten")
        let joined = decoder.join(kept, users: [UserID(7): User(id: UserID(7), screenName: "ada", name: "Ada")])
        let t = try #require(joined.tweets.first)
        #expect(t.text == "日本語の投稿です #linnet")
        #expect(t.entities.hashtags.map(\.text) == ["linnet"])
        #expect(t.user.screenName == "ada")
    }

    /// Reply settings that limit who may answer are kept; "everyone", or nothing, says nothing.
    @Test(arguments: [("following", "following" as String?), ("mentionedUsers", "mentionedUsers"), ("everyone", nil), ("", nil)])
    func replySettingsAreKeptOnlyWhenTheyLimit(_ said: String, _ kept: String?) throws {
        let json = #"{"data":{"id":"5","text":"hello","reply_settings":"\#(said)"}}"#
        let t = try #require(try V2Decoder().posts(from: Data(json.utf8)).tweets.first)
        #expect(t.extras?.replySettings == kept)
        if kept == nil { #expect(t.extras == nil, "nothing else to say") }
    }
}
