import Foundation
import Testing

@testable import TwitterAPI

/// Code points of `text` in `range`: what an entity covers.
func covered(_ text: String, _ range: Range<Int>) -> String {
    let scalars = Array(text.unicodeScalars)
    return String(String.UnicodeScalarView(scalars[range]))
}

/// The v2 decoder's entities where one post's could reach another's text: a long post's note
/// without its own, and one decoder's reader kept from post to post.
@Suite struct V2DecoderEntityTests {
    func posts(_ json: String) throws -> V2PostsPage { try V2Decoder().posts(from: Data(json.utf8)) }

    /// A long post whose note has no entities keeps only the cut's entities within the text
    /// both share: the cut's link and its files' link, past the "…", would otherwise hide
    /// characters of the note's text. The file stays attached, at the text's end.
    @Test func aNoteWithoutEntitiesBorrowsOnlyTheSharedStart() throws {
        let long = "@bob " + String(repeating: "word ", count: 80) + "end"
        let cut = String(long.prefix(270)) + "… https://t.co/more https://t.co/pic"
        let json = """
            {"data":{"id":"10","text":"\(cut)","note_tweet":{"text":"\(long)"},
              "attachments":{"media_keys":["3_1"]},
              "entities":{"mentions":[{"start":0,"end":4,"username":"bob","id":"2"}],
                "urls":[{"start":272,"end":289,"url":"https://t.co/more","expanded_url":"https://x.com/i/web/status/10","display_url":"x.com/i/web/status/10"},
                  {"start":290,"end":306,"url":"https://t.co/pic","expanded_url":"https://x.com/u/status/10/photo/1","display_url":"pic.x.com/pic","media_key":"3_1"}]}},
             "includes":{"media":[{"media_key":"3_1","type":"photo","url":"https://pbs.twimg.com/media/a.jpg","width":4,"height":3}]}}
            """
        let t = try #require(try posts(json).tweets.first)
        #expect(t.text == long)
        #expect(t.entities.mentions.count == 1 && covered(t.text, t.entities.mentions[0].range) == "@bob")
        #expect(t.entities.urls.isEmpty, "the cut's own link is not the note's")
        #expect(t.entities.media.count == 1 && t.entities.media[0].mediaURL == "https://pbs.twimg.com/media/a.jpg")
        #expect(t.entities.media.first?.range == long.unicodeScalars.count..<long.unicodeScalars.count)
        #expect(t.displayText.text == long, "every character of the note is shown")
    }

    /// One decoder reads every post's entities with the same reader: nothing of one post's
    /// (a file's link, mentions, cashtags) reaches the next, nor does a read that failed.
    @Test func entitiesDoNotCarryFromOnePostToTheNext() throws {
        let decoder = V2Decoder()
        let bad = #"{"data":[{"id":"1","text":"@ada $X","entities":{"mentions":[{"start":0,"end":4,"username":"ada" "id":"2"}]}}]}"#
        #expect(throws: JSONError.self) { try decoder.posts(from: Data(bad.utf8)) }
        let json = #"""
            {"data":[
              {"id":"10","text":"@ada $X https://t.co/p","attachments":{"media_keys":["3_1"]},
               "entities":{"mentions":[{"start":0,"end":4,"username":"ada","id":"2"}],"cashtags":[{"start":5,"end":7,"tag":"X"}],
                 "urls":[{"start":8,"end":22,"url":"https://t.co/p","expanded_url":"https://x.com/a/status/10/photo/1","display_url":"pic.x.com/p","media_key":"3_1"}]}},
              {"id":"11","text":"nothing here","entities":{}},
              {"id":"12","text":"just #tag","entities":{"hashtags":[{"start":5,"end":9,"tag":"tag"}]}}],
             "includes":{"media":[{"media_key":"3_1","type":"photo","url":"https://pbs.twimg.com/media/p.jpg"}]}}
            """#
        let t = try decoder.posts(from: Data(json.utf8)).tweets
        try #require(t.count == 3)
        #expect(t[0].entities.mentions.count == 1 && t[0].entities.hashtags.first?.isSymbol == true && t[0].entities.media.count == 1)
        #expect(t[1].entities == Entities(), "\(t[1].entities)")
        #expect(t[2].entities.hashtags.map(\.text) == ["tag"] && t[2].entities.mentions.isEmpty && t[2].entities.media.isEmpty)
        #expect(t[2].entities.urls.isEmpty)
    }
}
