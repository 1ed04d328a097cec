import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

/// The timeline anchors each card at its first row, and the anchors of two frames say the
/// scroll the rows themselves show (found apart, by the rows' hashes).
@Suite struct PaneAnchorTests {
    @Test(arguments: [(80, 24), (60, 30)]) func eachCardIsAnchoredWhereItStartsAndTheAnchorsSayTheScroll(_ size: (Int, Int)) async throws {
        let extra = (0..<30).map { i in
            Scene.tweet(
                UInt64(60 + i), [Scene.ann, Scene.kenji, Scene.noor][i % 3], "Post \(i): " + String(repeating: "words ", count: i % 9),
                age: 90_000 + Double(i))
        }
        let store = await Scene.store(extraHome: extra)
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(size.0, size.1)
        _ = Reducer.reduce(&s, .storeChanged, c)
        var last = Views.render(s, c)
        var scrolls = 0
        for key in Array(repeating: "j", count: 30) + Array(repeating: "k", count: 12) {
            #expect(!last.anchors.isEmpty)
            #expect(Set(last.anchors.map(\.key)).count == last.anchors.count)
            #expect(zip(last.anchors, last.anchors.dropFirst()).allSatisfy { $0.y < $1.y })
            for a in last.anchors {
                let tweet = try #require(c.snapshot.tweets[TweetID(rawValue: a.key)])
                // The card's first row names who posted it (a retweet, who retweeted it); the row
                // above it is the blank between cards.
                let who = tweet.retweetedStatus == nil ? "@" + tweet.user.screenName : tweet.user.name + " retweeted"
                #expect(last.line(a.y).contains(who), "\(last.text)\n\(a)")
                #expect(a.y == a.top || last.line(a.y - 1).allSatisfy { $0 == " " || $0 == "▌" })
                // The pane's rows, below the line of newer posts once there is one.
                #expect(a.top == (last.line(1).contains("newer") ? 2 : 1) && a.bottom == size.1 - 2)
            }
            _ = Reducer.reduce(&s, .keys([.char(Character(key))]), c)
            let next = Views.render(s, c)
            let byAnchors = Screen.anchoredShift(from: last, to: next)
            // Found apart: the move the rows' hashes vote for (without the terminal's first look
            // at every fourth row, which a scroll by a card of three rows and its blank fools).
            let byHashes = Screen.shift(last.rowHashes(), next.rowHashes())
            if let byAnchors, byAnchors.by != 0 {
                #expect(byAnchors.by == byHashes?.by)
                // The region is the pane's rows, and every card in both frames moves by the shift.
                #expect(byAnchors.top == next.anchors.first?.top && byAnchors.bottom == next.anchors.first?.bottom)
                let was = Dictionary(last.anchors.map { ($0.key, $0.y) }, uniquingKeysWith: { a, _ in a })
                let moved = next.anchors.filter { was[$0.key] != nil }
                #expect(!moved.isEmpty)
                for a in moved { #expect(was[a.key].map { $0 - byAnchors.by } == a.y, "\(a)") }
                let written = Set(Screen.diff(from: last, through: byAnchors, to: next).map(\.y))
                #expect(written.count < Set(Screen.diff(from: last, to: next).map(\.y)).count)
                scrolls += 1
            } else {
                #expect(byAnchors?.by == 0)
                #expect(byHashes == nil)
            }
            last = next
        }
        #expect(scrolls >= 4)
        // Under the help, the cards' rows are not what the anchors say: none are given.
        _ = Reducer.reduce(&s, .keys([.char("?")]), c)
        #expect(s.showHelp)
        #expect(Views.render(s, c).anchors.isEmpty)
    }
}
