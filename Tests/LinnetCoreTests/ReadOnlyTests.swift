import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

/// An app-only account reads; every key that would write answers why it cannot.
@Suite struct ReadOnlyTests {
    func setup() async -> (AppState, Context) {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = AppState(account: "reader", width: 80, height: 24, now: Scene.now, panes: [.home])
        s.readOnly = true
        _ = Reducer.reduce(&s, .storeChanged, c)
        return (s, c)
    }

    @Test func everyWriteKeyIsRefusedInWords() async {
        let (start, c) = await setup()
        #expect(start.pane.selected != nil)
        for key: Character in ["n", "r", "Q", "t", "f", "D"] {
            var s = start
            let fx = Scene.run(&s, c, [.keys([.char(key)])])
            #expect(fx.isEmpty, "key \(key) asked for \(fx)")
            #expect(s.compose == nil && s.question == nil, "key \(key) opened something")
            #expect(s.notice?.text == SyncEngine.appOnlyWrites, "key \(key): \(String(describing: s.notice))")
        }
        // Reading goes on as usual.
        var s = start
        _ = Scene.run(&s, c, [.keys([.char("j")])])
        #expect(s.pane.selected != start.pane.selected)
        #expect(Scene.run(&s, c, [.keys([.char("u")])]).contains { if case .open(.user) = $0 { true } else { false } })
    }

    @Test func theLastPaneStaysAndTheSwitchKeyExplains() async {
        var (s, c) = await setup()
        s.panes = [PaneState(.search("swift"))]
        s.active = 0
        #expect(Scene.run(&s, c, [.keys([.char("x")])]).isEmpty)
        #expect(s.panes.count == 1)
        #expect(s.notice?.text == "The last pane stays open.")
        _ = Scene.run(&s, c, [.keys([.char("A")])])
        #expect(s.notice?.text.contains("linnet --account NAME") == true)
    }

    @Test func theStatusBarNamesTheAccountAsAppOnly() async {
        let (s, c) = await setup()
        let screen = Views.render(s, c)
        let bar = screen.text.split(separator: "\n").first { $0.contains("(app-only)") }
        #expect(bar?.hasPrefix(" reader (app-only) · Home") == true, "\(screen.text)")
        #expect(!screen.text.contains("@reader"))
    }
}
