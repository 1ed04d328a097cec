import Foundation
import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

/// A marked paste is text, line ends included, and never sends; with marked pastes, typed text
/// and Enter in one burst (a slow link) is not taken for a paste.
@Suite struct PasteTests {
    func open(bracketed: Bool) async -> (AppState, Context) {
        let store = await Scene.store()
        var c = Scene.context(await store.snapshot())
        c.bracketedPaste = bracketed
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        return (s, c)
    }

    @Test func aMarkedPasteIsTextAndNeverSends() async {
        var (s, c) = await open(bracketed: true)
        _ = Scene.run(&s, c, [.keys([.char("n")])])
        let fx = Scene.run(&s, c, [.keys([.paste("first line\r\nsecond \u{1B}[31mline")])])
        #expect(fx.isEmpty && s.compose?.sending == false)
        #expect(s.compose?.editor.text == "first line\nsecond [31mline", "controls are not text to post")
        // In a prompt the line ends become spaces, and Enter is still the user's.
        _ = Scene.run(&s, c, [.keys([.escape, .char("/")]), .keys([.paste("swift\nlang")])])
        #expect(s.searchPrompt?.text == "swift lang")
    }

    @Test func typedTextAndEnterInOneBurstIsSentWhenPastesAreMarked() async {
        var (s, c) = await open(bracketed: true)
        _ = Scene.run(&s, c, [.keys([.char("n")])])
        let fx = Scene.run(&s, c, [.keys([.char("o"), .char("k"), .enter])])
        #expect(fx.contains(.perform(.post("ok", inReplyTo: nil))), "\(fx)")
        // Without marked pastes the burst is still taken for one (nothing sent).
        var (t, d) = await open(bracketed: false)
        _ = Scene.run(&t, d, [.keys([.char("n")])])
        #expect(Scene.run(&t, d, [.keys([.char("o"), .char("k"), .enter])]).isEmpty)
        #expect(t.compose?.editor.text == "ok\n")
    }
}
