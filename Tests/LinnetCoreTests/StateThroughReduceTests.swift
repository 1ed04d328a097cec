import Foundation
import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

/// Every change to the app's state goes through `reduce`: an opened account, the pane a session
/// is restored to, a quit called off, the bell and desktop notices (effects the reducer returns),
/// and the attach prompt's questions of the disk (effects answered by actions).
@Suite struct StateThroughReduceTests {
    @Test func anOpenedAccountSaysWhatItAllows() {
        var s = Scene.state(80, 24)
        let facts = AccountFacts(confirmBeforePost: true, readOnly: true, cannot: [.like: "not on this key"], statusNote: "demo pace")
        let fx = Reducer.reduce(&s, .accountOpened(facts), Scene.context(TimelineSnapshot()))
        #expect(fx.isEmpty)
        #expect(s.confirmBeforePost && s.readOnly && s.cannot == [.like: "not on this key"] && s.statusNote == "demo pace")
    }

    @Test func aRestoredSessionReturnsToItsPaneOrOpensIt() {
        var s = Scene.state(80, 24)
        let c = Scene.context(TimelineSnapshot())
        #expect(Reducer.reduce(&s, .sessionRestored(.mentions), c).isEmpty)
        #expect(s.active == 1 && s.panes.count == 2)
        let fx = Reducer.reduce(&s, .sessionRestored(.search("linnet")), c)
        #expect(fx == [.open(.search("linnet"))])
        #expect(s.panes.map(\.id) == [.home, .mentions, .search("linnet")] && s.active == 2)
    }

    @Test func aQuitCalledOffKeepsTheReaderOpenAndSaysWhy() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(80, 24)
        _ = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys("unsaved"), .keys([.escape]), .keys([.char("q")])])
        s.quitting = true
        _ = Reducer.reduce(&s, .quitCalledOff("the disk is full"), c)
        #expect(!s.quitting)
        #expect(s.notice?.isError == true && s.notice?.text == Words.draftNotSavedQuitCalledOff("the disk is full"))
    }

    /// The bells and notices among a turn's effects.
    func rings(_ fx: [Effect]) -> [Effect] {
        fx.filter {
            switch $0 {
            case .bell, .notify: true
            default: false
            }
        }
    }

    @Test func aNewMentionRingsAsAnEffectAndAMutedOneDoesNot() async {
        let store = await Scene.store()
        var c = Scene.context(await store.snapshot())
        c.alertRules = AlertRules(bellOnMention: true, desktop: true)
        var s = Scene.state(80, 24)
        // The mentions first seen are where counting starts: nothing rings.
        #expect(rings(Reducer.reduce(&s, .storeChanged, c)).isEmpty)
        let fresh = Scene.tweet(120, Scene.ann, "@linnet_demo a new one", age: 1)
        await store.merge(page: [fresh], into: .mentions, request: PageRequest(count: 200))
        c.snapshot = await store.snapshot()
        // Muted (the filters leave it out of the pane): nothing rings, whatever the reveal key shows.
        var muted = c
        muted.unrevealedMentions = [TweetID(110), TweetID(109)]
        var quiet = s
        #expect(rings(Reducer.reduce(&quiet, .storeChanged, muted)).isEmpty)
        let fx = rings(Reducer.reduce(&s, .storeChanged, c))
        #expect(fx.first == .bell)
        #expect(
            fx.contains { if case .notify(let title, let body) = $0 { title.contains("ann") && body.contains("a new one") } else { false } }
        )
        // Once seen, it does not ring again.
        #expect(rings(Reducer.reduce(&s, .storeChanged, c)).isEmpty)
    }

    @Test func theAttachPromptAsksTheDiskThroughEffects() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 30)
        _ = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys("look"), .keys([.ctrl("o")]), Scene.keys("/nowhere/ph")])
        #expect(Reducer.reduce(&s, .keys([.tab]), c) == [.listFiles("/nowhere/ph")])
        // An answer for a path no longer typed is let go; the one for the path fills it in.
        _ = Reducer.reduce(&s, .filesListed(prefix: "/elsewhere/", ["/elsewhere/a.png"]), c)
        #expect(s.compose?.attach?.editor.text == "/nowhere/ph")
        _ = Reducer.reduce(&s, .filesListed(prefix: "/nowhere/ph", ["/nowhere/photo.png"]), c)
        #expect(s.compose?.attach?.editor.text == "/nowhere/photo.png")
        #expect(Reducer.reduce(&s, .keys([.enter]), c) == [.inspectFile("/nowhere/photo.png")])
        let photo = MediaFile(path: "/nowhere/photo.png", kind: .photo, mimeType: "image/png", bytes: 2048)
        _ = Reducer.reduce(&s, .fileInspected(path: "/nowhere/photo.png", .success(photo)), c)
        guard case .altText(let file)? = s.compose?.attach?.stage else {
            Issue.record("no alt text asked for")
            return
        }
        #expect(file == photo)
    }
}

/// The terminal's width mode reaches the views through the context: the same frame lays out a
/// family emoji in six cells per scalar and in two per cluster (mode 2027).
@Suite struct WidthModeContextTests {
    @Test func theViewsMeasureInTheContextsMode() async {
        let store = TimelineStore()
        await store.merge(page: [Scene.tweet(1, Scene.ann, "👨‍👩‍👧 fin", age: 60)], into: .home, request: PageRequest(count: 20))
        var c = Scene.context(await store.snapshot())
        var s = Scene.state(60, 12)
        _ = Reducer.reduce(&s, .storeChanged, c)
        func column(_ screen: Screen) -> Int? {
            for y in 0..<screen.height {
                for x in 0..<(screen.width - 2)
                where screen.grapheme(x, y) == "f" && screen.grapheme(x + 1, y) == "i" && screen.grapheme(x + 2, y) == "n" {
                    return x
                }
            }
            return nil
        }
        let perScalar = column(Views.render(s, c))
        c.widthMode = .grapheme
        let perCluster = column(Views.render(s, c))
        #expect(perScalar != nil && perCluster != nil)
        #expect((perScalar ?? 0) - (perCluster ?? 0) == 4, "\(String(describing: perScalar)) \(String(describing: perCluster))")
    }
}
