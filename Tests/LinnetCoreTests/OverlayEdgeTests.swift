import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

/// An overlay owns every cell of the rows it covers: nothing of the pane beneath shows beside
/// it, wide characters cut by its edges included.
@MainActor @Suite struct OverlayEdgeTests {
    /// Rows of the box (those whose column 2 has the overlay's style): every other cell of the row
    /// is blank.
    static func check(_ screen: Screen, box style: Style, _ what: String) {
        var rows = 0
        for y in 1..<(screen.height - 1) where screen[2, y].style == style {
            rows += 1
            let line = screen.line(y)
            let chars = Array(line)
            #expect(chars.prefix(2).allSatisfy { $0 == " " }, "\(what): row \(y) starts \(String(chars.prefix(4)).debugDescription)")
            #expect(chars.suffix(2).allSatisfy { $0 == " " }, "\(what): row \(y) ends \(String(chars.suffix(4)).debugDescription)")
        }
        #expect(rows > 0, "\(what): no box found")
    }

    @Test func theProfileTheLogAndThePickerCoverTheirRows() async {
        let store = await Scene.store()
        // A post of wide characters from edge to edge beneath the overlays.
        await store.add(Scene.tweet(150, Scene.kenji, String(repeating: "字", count: 400), age: 1), to: [.home])
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(130, 40)
        _ = Reducer.reduce(&s, .storeChanged, c)
        let help = Theme.fallback[.help]
        // The link picker, on a post with links.
        while s.pane.selected != TweetID(110) { _ = Scene.run(&s, c, [.keys([.char("j")])]) }
        _ = Scene.run(&s, c, [.keys([.char("o")])])
        Self.check(Views.render(s, c), box: help, "link picker")
        _ = Scene.run(&s, c, [.keys([.escape])])
        // The profile.
        _ = Reducer.reduce(&s, .profileLoaded(Profile(user: ProfileTests.ann, relationship: .init())), c)
        Self.check(Views.render(s, c), box: help, "profile")
        _ = Scene.run(&s, c, [.keys([.escape])])
        // The notice log.
        s.noticeLog = [Notice("one", isError: false, at: s.now)]
        _ = Scene.run(&s, c, [.keys([.char("L")])])
        #expect(s.showLog)
        let screen = Views.render(s, c)
        for y in 2..<(screen.height - 2) { #expect(!screen.line(y).contains("字"), "the log lets the pane show at row \(y)") }
    }
}
