import Foundation
import LinnetCore
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// A filter's regular expression is matched in time linear in the post, whatever the user
/// wrote: the classic catastrophic patterns on 10 KB posts decide at once.
@Suite struct HostileFilterTests {
    static let catastrophic = [
        "(a+)+b", "(a|aa)+b", "(a*)*b", "(a|a?)+b", "(.*a){12}b", "(x+x+)+y", "^(([a-z])+.)+[A-Z]([a-z])+$", "(\\w+\\s?)*$b",
    ]

    @Test func catastrophicPatternsOnLongPostsDecideAtOnce() {
        let posts = [
            String(repeating: "a", count: 10_000), String(repeating: "x", count: 10_000),
            String(repeating: "aaaa ", count: 2_000) + "!", String(repeating: "ac", count: 5_000),
        ]
        var slowest = 0.0
        for pattern in Self.catastrophic {
            #expect(Filters.check(pattern: pattern) == nil, "\(pattern)")
            let f = FiltersTests.filters(patterns: [pattern])
            for text in posts {
                let t = Tweet(id: TweetID(7), createdAt: Int64(Scene.now), user: Scene.kenji, text: text)
                let started = Date()
                #expect(!f.hides(t), "\(pattern) must not match")
                slowest = max(slowest, Date().timeIntervalSince(started))
            }
        }
        // Printed for the record; a timed assertion has no place in a test.
        print("filters: slowest catastrophic pattern on a 10 KB post took \(String(format: "%.2f", slowest * 1000)) ms")
        // And they still match what they describe.
        let hit = Tweet(id: TweetID(8), createdAt: Int64(Scene.now), user: Scene.kenji, text: String(repeating: "a", count: 10_000) + "b")
        #expect(FiltersTests.filters(patterns: ["(a+)+b"]).hides(hit))
    }

    @Test func whatRE2DoesNotTakeIsNamedInTheConfig() {
        for pattern in ["(a)\\1", "(?=a)b", "(?<!x)y", "(unclosed"] {
            let why = Filters.check(pattern: pattern)
            #expect(why?.hasPrefix("\"\(pattern)\" is not a regular expression Linnet takes (RE2 syntax): ") == true, "\(why ?? "nil")")
        }
        #expect(Filters.check(pattern: "(?i)giveaway\\b") == nil)
        #expect(
            FiltersTests.filters(patterns: ["(?i)GIVEAWAY\\b"]).hides(
                Tweet(id: TweetID(9), createdAt: 0, user: Scene.kenji, text: "a giveaway!")))
        #expect(FiltersTests.filters(patterns: ["字+"]).hides(Tweet(id: TweetID(9), createdAt: 0, user: Scene.kenji, text: "漢字字")))
    }
}
