import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

/// A post longer than a card shows (X's long posts run to 25,000 characters): the card shows its
/// first lines and how many more there are; enter reads it whole in an overlay, every word of it.
@MainActor @Suite struct LongPostTests {
    static let words = (0..<4000).map { "w\($0)" }.joined(separator: " ") + " END"

    @Test func theCardIsCutAndTheReaderShowsEveryWord() async throws {
        let long = Tweet(id: TweetID(140), createdAt: Int64(Scene.now - 5), user: Scene.ann, text: Self.words)
        let store = await Scene.store()
        await store.add(long, to: [.home])
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        #expect(s.pane.selected == TweetID(140))
        let card = TweetCard.lines(long, width: 100, theme: .fallback, now: s.now)
        #expect(card.count <= TweetCard.maxTextLines + 2, "\(card.count) lines")
        #expect(card.contains { $0.text.hasPrefix("… ") && $0.text.hasSuffix("more lines: enter reads the whole post") })
        #expect(TweetCard.isCut(long, width: 100))
        // Enter reads it whole instead of opening the thread.
        _ = Scene.run(&s, c, [.keys([.enter])])
        #expect(s.reading == AppState.Reading(id: TweetID(140)) && s.keyMode == .help && s.panes.count == Scene.state(100, 30).panes.count)
        var shown = Views.render(s, c).text
        #expect(shown.contains("The whole post") && shown.contains("w0 w1 w2"), "\(shown)")
        // Paged to the end, every word has been on the screen, in order.
        var seen: [String] = []
        var started = Date()
        var slowest = 0.0
        for _ in 0..<400 {
            for row in shown.split(separator: "\n") {
                for w in row.split(separator: " ")
                where (w.hasPrefix("w") && w.dropFirst().allSatisfy(\.isNumber) && w.count > 1) || w == "END" {
                    if seen.last != String(w), !seen.contains(String(w)) { seen.append(String(w)) }
                }
            }
            if seen.last == "END" { break }
            started = Date()
            _ = Scene.run(&s, c, [.keys([.char(" ")])])
            shown = Views.render(s, c).text
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        print("long post: slowest page key with render \(String(format: "%.1f", slowest * 1000)) ms (debug build)")
        #expect(seen.first == "w0" && seen.last == "END" && seen.count == 4001, "\(seen.count) words, last \(seen.last ?? "")")
        _ = Scene.run(&s, c, [.keys([.escape])])
        #expect(s.reading == nil && s.keyMode == .timeline)
        // From the reader, enter goes on to the conversation.
        let before = s.panes.count
        _ = Scene.run(&s, c, [.keys([.enter])])
        #expect(s.reading != nil)
        let fx = Scene.run(&s, c, [.keys([.enter])])
        #expect(
            s.reading == nil && s.panes.count == before + 1 && s.pane.id == .thread(TweetID(140)) && fx == [.open(.thread(TweetID(140)))])
        // The longest post Linnet keeps: its first frame and enter, timed for the record.
        let biggest = Tweet(
            id: TweetID(142), createdAt: Int64(Scene.now - 3), user: Scene.ann,
            text: String(repeating: "ab cd ", count: Tweet.maxTextBytes / 6))
        await store.add(biggest, to: [.home])
        let c2 = Scene.context(await store.snapshot())
        var s2 = Scene.state(160, 50)
        _ = Reducer.reduce(&s2, .storeChanged, c2)
        let t0 = Date()
        _ = Views.render(s2, c2)
        _ = Scene.run(&s2, c2, [.keys([.enter])])
        _ = Views.render(s2, c2)
        print(
            "long post: a 256 KB post's first frame and enter took \(String(format: "%.0f", Date().timeIntervalSince(t0) * 1000)) ms (debug build)"
        )
        #expect(s2.reading?.id == TweetID(142))
        // A short post still opens its thread.
        let short = Tweet(id: TweetID(141), createdAt: Int64(Scene.now - 4), user: Scene.ann, text: "short")
        #expect(!TweetCard.isCut(short, width: 100))
    }
}
