import Foundation
import Testing

@testable import TwitterAPI

/// A v2 post's entities as the decoder packs them while reading (X's documented shapes).
@Suite struct V2EntityTests {
    /// Entities packed as they are read hold what X sent, field by field: kinds in any order,
    /// cashtags among the hashtags as they came, `unwound_url` first, a missing `display_url`
    /// shown as the t.co link, a mention without an id, escapes undone, and a media link
    /// placed with its medium between the links and the mentions.
    @Test func entitiesAreKeptFieldByField() throws {
        let json = #"""
            {"data":{"id":"9","text":"$FAR @ada @bo #t\u00e9 https://t.co/a https://t.co/m","attachments":{"media_keys":["3_1"]},
              "entities":{
                "cashtags":[{"start":0,"end":4,"tag":"FAR"}],
                "mentions":[{"start":5,"end":9,"username":"ada","id":"2"},{"start":10,"end":13,"username":"bo"}],
                "urls":[{"start":18,"end":32,"url":"https://t.co/a","expanded_url":"https://e.org/x","unwound_url":"https://e.org/x?full"},
                        {"start":33,"end":47,"url":"https://t.co/m","expanded_url":"https://x.com/p/1","display_url":"pic.x.com/m","media_key":"3_1"}],
                "hashtags":[{"start":14,"end":17,"tag":"t\u00e9"}]}},
             "includes":{"media":[{"media_key":"3_1","type":"video","preview_image_url":"https://pbs.twimg.com/p.jpg","width":640,"height":360,"duration_ms":5000}]}}
            """#
        let t = try #require(try V2Decoder().posts(from: Data(json.utf8)).tweets.first)
        #expect(String(String.UnicodeScalarView(Array(t.text.unicodeScalars)[33..<47])) == "https://t.co/m")
        #expect(t.textBytes.withUnsafeBufferPointer(V2Decoder.codePoints) == 47)
        #expect(
            t.entities.hashtags == [
                Entities.Hashtag(text: "FAR", isSymbol: true, range: 0..<4), Entities.Hashtag(text: "té", range: 14..<17),
            ])
        #expect(
            t.entities.mentions == [
                Entities.Mention(screenName: "ada", userID: UserID(2), range: 5..<9),
                Entities.Mention(screenName: "bo", userID: nil, range: 10..<13),
            ])
        #expect(t.entities.urls == [Entities.Link(target: "https://e.org/x?full", display: "https://t.co/a", range: 18..<32)])
        #expect(
            t.entities.media == [
                Entities.Media(
                    type: "video", target: "https://x.com/p/1", display: "pic.x.com/m", mediaURL: "https://pbs.twimg.com/p.jpg",
                    range: 33..<47,
                    width: 640, height: 360, altText: nil, durationMs: 5000)
            ])
        #expect(t.entityBytes == t.entities.compacted(text: t.textBytes, id: t.id), "the bytes kept are those the entities pack to")
    }

    /// Invalid UTF-8 in an entity's strings is kept as a `String` of it holds it (U+FFFD), in
    /// the bytes too, whether or not another entity runs past the text (which packs again).
    @Test(arguments: [false, true])
    func invalidUTF8InEntitiesIsReplaced(pastTheText: Bool) throws {
        let past = pastTheText ? #",{"start":90,"end":94,"tag":"far"}"# : ""
        var json = Data(##"{"data":{"id":"9","text":"#ab @cd","entities":{"hashtags":[{"start":0,"end":3,"tag":"a"##.utf8)
        json += [0xFF]
        json += Data(#""}\#(past)],"mentions":[{"start":4,"end":7,"username":"c"#.utf8)
        json += [0xC3]
        json += Data(#"","id":"5"}]}}}"#.utf8)
        let t = try #require(try V2Decoder().posts(from: json).tweets.first)
        #expect(t.entities.hashtags.map(\.text) == ["a\u{FFFD}"])
        #expect(t.entities.mentions.map(\.screenName) == ["c\u{FFFD}"])
        #expect(t.entityBytes == t.entities.compacted(text: t.textBytes, id: t.id))
    }

    /// Strings with escapes are unescaped into a pool, several in one `entities` object (each
    /// found past the one before), beside strings copied straight from the document.
    @Test func escapedAndPlainStringsInOneObject() throws {
        let json = #"""
            {"data":{"id":"9","text":"#té @böb https://t.co/x @ann","entities":{
              "hashtags":[{"start":0,"end":3,"tag":"t\u00e9"}],
              "mentions":[{"start":4,"end":8,"username":"b\u00f6b","id":"7"},{"start":24,"end":28,"username":"ann"}],
              "urls":[{"start":9,"end":23,"url":"https:\/\/t.co\/x","expanded_url":"https://e.org/\u00e9","display_url":"e.org/\u00e9"}]}}}
            """#
        let t = try #require(try V2Decoder().posts(from: Data(json.utf8)).tweets.first)
        #expect(t.entities.hashtags == [Entities.Hashtag(text: "té", range: 0..<3)])
        #expect(t.entities.mentions.map(\.screenName) == ["böb", "ann"])
        #expect(t.entities.mentions.map(\.range) == [4..<8, 24..<28])
        #expect(t.entities.urls.map(\.target) == ["https://e.org/é"])
        #expect(t.entities.urls.map(\.display) == ["e.org/é"])
        #expect(t.entityBytes == t.entities.compacted(text: t.textBytes, id: t.id))
    }
}
