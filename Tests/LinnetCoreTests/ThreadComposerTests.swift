import Foundation
import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

/// The thread box: tweets separated by `---` lines, each counted and checked, sent in order;
/// a refusal keeps the rest, continuing from the last tweet sent.
@Suite struct ThreadComposerTests {
    @Test func partsAreSplitAtDashLinesAndNothingElseChanges() {
        #expect(Reducer.threadParts("one\n---\ntwo  \n  ---  \nthree\n\nstill three") == ["one", "two  ", "three\n\nstill three"])
        #expect(Reducer.threadParts("a --- b\n----\nc") == ["a --- b\n----\nc"], "only a line of exactly three dashes splits")
        #expect(Reducer.threadParts("only") == ["only"])
    }

    @Test func aNewThreadIsCountedPerTweetAndSentInOrder() async {
        let c = Scene.context(await Scene.store().snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [Scene.keys("N")])
        #expect(s.compose?.thread == true && s.compose?.replyTo == nil)
        s.compose?.editor = Editor("First of three 🐦\n---\n" + String(repeating: "x", count: 275) + "\n---\nthird")
        // The caret's tweet is counted: at the end, the third.
        var text = Views.render(s, c).text
        #expect(text.contains("Thread · tweet 3 of 3") && text.contains(" 275 "), "\(text)")
        s.compose?.editor = Editor("First of three 🐦\n---\n" + String(repeating: "x", count: 285) + "\n---\nthird", caret: 20)
        text = Views.render(s, c).text
        #expect(text.contains("Thread · tweet 2 of 3") && text.contains(" -5 "), "\(text)")
        var fx = Scene.run(&s, c, [.keys([.enter])])
        #expect(fx.isEmpty && s.compose?.error == Words.threadPart(2, of: 3, Words.tooLong(by: 5)))
        s.compose?.editor = Editor("First of three 🐦\n---\nsecond\n---\nthird")
        fx = Scene.run(&s, c, [.keys([.enter])])
        #expect(fx == [.postThread(["First of three 🐦", "second", "third"], inReplyTo: nil, media: [])])
        _ = Scene.run(&s, c, [.threadProgress(sent: 1)])
        #expect(Views.render(s, c).text.contains("Sending 2 of 3…"))
        let sent = (1...3).map { Scene.tweet(UInt64(200 + $0), Scene.me, "t\($0)", age: 0) }
        fx = Scene.run(&s, c, [.threadFinished(sent: sent, of: 3, error: nil)])
        #expect(s.compose == nil && s.notice?.text == Words.threadSent(3))
    }

    @Test func aRefusedTweetKeepsTheRestContinuingFromTheLastSent() async {
        let c = Scene.context(await Scene.store().snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        // C continues from one's own tweet only.
        _ = Scene.run(&s, c, [Scene.keys("C")])
        #expect(s.compose == nil && s.notice?.text == Words.continueOnlyYours)
        _ = Scene.run(&s, c, [Scene.keys("G"), Scene.keys("C")])
        #expect(s.compose?.thread == true && s.compose?.replyTo == TweetID(104))
        s.compose?.editor = Editor("one\n---\ntwo\n---\nthree")
        _ = Scene.run(&s, c, [.keys([.enter])])
        let first = Scene.tweet(301, Scene.me, "one", age: 0)
        let fx = Scene.run(&s, c, [.threadFinished(sent: [first], of: 3, error: SyncError(.failed("Status is a duplicate.")))])
        #expect(s.compose?.editor.text == "two\n---\nthree" && s.compose?.replyTo == TweetID(301) && s.compose?.sending == false)
        #expect(s.compose?.error == Words.threadStopped(sent: 1, of: 3, "Status is a duplicate."))
        #expect(
            fx.contains { if case .saveDrafts(let d) = $0 { d.first?.thread == true && d.first?.replyTo == TweetID(301) } else { false } })
        // Sending again picks up there.
        #expect(Scene.run(&s, c, [.keys([.enter])]) == [.postThread(["two", "three"], inReplyTo: TweetID(301), media: [])])
    }
}
