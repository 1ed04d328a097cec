import Foundation
import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

/// On the "terminal too small" screen nothing can be seen, so nothing acts but quitting: typed
/// keys do not reach the draft, Enter sends nothing, and quitting keeps the draft.
@Suite struct TooSmallTests {
    @Test func keysDoNothingUnseenButQuit() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(80, 24)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys("hello")])
        #expect(s.compose?.editor.text == "hello")
        _ = Reducer.reduce(&s, .resize(width: 20, height: 5), c)
        #expect(Views.render(s, c).text.contains("Linnet needs at"))
        var fx = Scene.run(&s, c, [.keys([.char("x"), .enter, .char("j"), .ctrl("o"), .escape])])
        #expect(fx.isEmpty, "\(fx)")
        #expect(s.compose?.editor.text == "hello" && s.compose?.attach == nil && s.compose?.sending == false)
        // q asks about the draft as at any size, on this screen; n goes back, y quits keeping it.
        fx = Scene.run(&s, c, [.keys([.char("q")])])
        #expect(fx.isEmpty && !s.quitting && s.question == .quitWithDraft)
        let shown = Views.render(s, c).text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(shown.contains("Quit with an unsent draft?"), "\(shown)")
        fx = Scene.run(&s, c, [.keys([.char("n")])])
        #expect(fx.isEmpty && s.question == nil && !s.quitting)
        fx = Scene.run(&s, c, [.keys([.char("q"), .char("y")])])
        #expect(s.quitting)
        #expect(fx == [.saveDrafts([DraftRecord(text: "hello", replyTo: nil)]), .quit], "\(fx)")
    }

    @Test func enlargedItActsAgain() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(30, 5)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [.keys([.char("n")])])
        #expect(s.compose == nil)
        _ = Reducer.reduce(&s, .resize(width: 80, height: 24), c)
        _ = Scene.run(&s, c, [.keys([.char("n")])])
        #expect(s.compose != nil)
    }

    @Test func reasonsEndInOneFullStop() {
        #expect(
            Words.couldNotLoad("Home", "log in again (linnet login).", retryAt: "10:42:05")
                == "Could not load Home: log in again (linnet login). Trying again at 10:42:05.")
        #expect(Words.couldNotLoad("Home", "network error 18") == "Could not load Home: network error 18.")
    }
}
