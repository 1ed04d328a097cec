import Foundation
import Testing

@testable import TwitterAPI

/// A v1.1 tweet's entities, read straight into their packed form: every kind, the fallbacks
/// of each field, escapes, and which media win, from hand-written JSON.
@Suite struct EntityDecodingTests {
    func tweet(_ fields: String) throws -> Tweet {
        let json = #"{"id_str":"1","created_at":"Wed Oct 10 20:19:24 +0000 2018","user":{"id_str":"2","screen_name":"ann"},"# + fields + "}"
        return try V1Decoder().tweet(from: Data(json.utf8))
    }

    @Test func everyKindWithItsFallbacks() throws {
        let t = try tweet(
            #""text":"x","entities":{"hashtags":[{"text":"caf\u00e9","indices":[0,5]}],"#
                + #""symbols":[{"text":"TSLA","indices":[6,11]}],"#
                + #""user_mentions":[{"screen_name":"bob","id_str":"99","indices":[12,16]},{"screen_name":"nix","indices":[17,21]},{"screen_name":"gone"}],"#
                + #""urls":[{"url":"https://t.co/a","expanded_url":"https://example.com/a","display_url":"example.com/a","indices":[22,45]},"#
                + #"{"url":"https://t.co/b","indices":[46,69]},{"url":"https://t.co/c","expanded_url":"https://e.com/c","indices":[70,93]},{"url":7,"indices":[1,2]}],"#
                + #""media":[{"url":"https://t.co/m","media_url_https":"https://pbs/m.jpg","indices":[94,117],"ext_alt_text":"","#
                + #""sizes":{"large":{"w":800,"h":600}}}],"polls":[1]}"#)
        let e = t.entities
        #expect(e.hashtags.map(\.text) == ["café", "TSLA"])
        #expect(e.hashtags.map(\.isSymbol) == [false, true])
        #expect(e.hashtags.map(\.range) == [0..<5, 6..<11])
        #expect(e.mentions.map(\.screenName) == ["bob", "nix"])
        #expect(e.mentions.map(\.userID) == [UserID(99), nil])
        #expect(e.urls.map(\.target) == ["https://example.com/a", "https://t.co/b", "https://e.com/c"])
        #expect(e.urls.map(\.display) == ["example.com/a", "https://t.co/b", "https://e.com/c"])
        #expect(e.media.count == 1)
        #expect(e.media.first?.type == "photo")
        #expect(e.media.first?.target == "https://t.co/m")
        #expect(e.media.first?.mediaURL == "https://pbs/m.jpg")
        #expect(e.media.first?.altText == nil)
        #expect(e.media.first.map { [$0.width, $0.height] } == [800, 600])
        #expect(e.media.first?.range == 94..<117)
    }

    @Test func extendedMediaReplaceTheOthersOnlyWhenThereAreAny() throws {
        let plain =
            #""entities":{"media":[{"type":"photo","url":"https://t.co/1","indices":[0,5]}]}"#
        let twoVideos =
            #""extended_entities":{"media":[{"type":"video","url":"https://t.co/2","indices":[0,5],"original_info":{"width":"1280","height":720}},"#
            + #"{"type":"video","url":"https://t.co/3","indices":[0,5],"ext_alt_text":"a dog"}]}"#
        let replaced = try tweet(#""text":"x","# + plain + "," + twoVideos).entities.media
        #expect(replaced.map(\.type) == ["video", "video"])
        #expect(replaced.map(\.width) == [1280, 0])
        #expect(replaced.map(\.altText) == [nil, "a dog"])
        let kept = try tweet(#""text":"x","# + plain + #","extended_entities":{"media":[]}"#).entities.media
        #expect(kept.map(\.target) == ["https://t.co/1"])
        // A long tweet's own entities and media come from extended_tweet, not the cut text's.
        let long = try tweet(
            #""text":"cut","truncated":true,"entities":{"hashtags":[{"text":"cut","indices":[0,4]}]},"#
                + #""extended_tweet":{"full_text":"whole #tag","entities":{"hashtags":[{"text":"tag","indices":[6,10]}],"#
                + #""media":[{"url":"https://t.co/4","indices":[0,1]}]},"# + twoVideos + "}")
        #expect(long.text == "whole #tag")
        #expect(long.entities.hashtags.map(\.text) == ["tag"])
        #expect(long.entities.media.map(\.target) == ["https://t.co/2", "https://t.co/3"])
        // The same with the extended media first: the others' are then only skipped, but
        // still checked, and a tweet's outer media the same way.
        let mediaFirst = try tweet(
            #""text":"cut","truncated":true,"extended_tweet":{"# + twoVideos + #","full_text":"whole","#
                + #""entities":{"media":[{"url":"https://t.co/4","indices":[0,1]}],"hashtags":[{"text":"w","indices":[0,1]}]}}"#)
        #expect(mediaFirst.entities.media.map(\.target) == ["https://t.co/2", "https://t.co/3"])
        #expect(mediaFirst.entities.hashtags.map(\.text) == ["w"])
        #expect(try tweet(#""text":"x","# + twoVideos + "," + plain).entities.media.map(\.target) == ["https://t.co/2", "https://t.co/3"])
        #expect(throws: JSONError.self) {
            try self.tweet(#""text":"x","extended_tweet":{"# + twoVideos + #","full_text":"y","entities":{"media":[{"url":}]}}"#)
        }
        #expect(throws: JSONError.self) {
            try self.tweet(#""text":"x","# + twoVideos + #","entities":{"media":[{"url":"a\qb","indices":[0,1]}]}"#)
        }
        #expect(try tweet(#""text":"none","entities":null"#).entities == Entities())
    }
}
