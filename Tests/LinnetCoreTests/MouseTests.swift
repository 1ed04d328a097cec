import Foundation
import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

/// The mouse in the reader: the wheel moves through the pane, a click selects the card under
/// it or switches to the tab under it, a click on a link opens the picker on that link; it
/// does nothing to a draft.
@Suite struct MouseTests {
    static func click(_ x: Int, _ y: Int) -> Action { .keys([.mouse(Mouse(.press(0), x: x, y: y))]) }

    @Test func wheelClicksTabsAndLinks() async {
        let store = await Scene.store(extraHome: [FiltersTests.tagged])
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 40)
        _ = Reducer.reduce(&s, .storeChanged, c)
        let ids = c.ids(s.pane)
        #expect(s.pane.selected == ids[0])
        // The wheel: one card a notch.
        _ = Scene.run(&s, c, [.keys([.mouse(Mouse(.wheelDown, x: 5, y: 10)), .mouse(Mouse(.wheelDown, x: 5, y: 10))])])
        #expect(s.pane.selected == ids[2])
        _ = Scene.run(&s, c, [.keys([.mouse(Mouse(.wheelUp, x: 5, y: 10))])])
        #expect(s.pane.selected == ids[1])
        // A click on a card's row selects it: find the rows as drawn.
        let rows = Views.render(s, c).text.split(separator: "\n", omittingEmptySubsequences: false)
        let plainRow = rows.firstIndex { $0.contains("Plain old tweet") }!
        _ = Scene.run(&s, c, [Self.click(30, plainRow)])
        #expect(s.pane.selected == TweetID(105), "\(String(describing: s.pane.selected))")
        #expect(s.links == nil, "no link there")
        // A release, a middle or right press: nothing.
        _ = Scene.run(&s, c, [.keys([.mouse(Mouse(.release, x: 30, y: 3)), .mouse(Mouse(.press(2), x: 30, y: 3))])])
        #expect(s.pane.selected == TweetID(105))
        // A click on the second tab.
        let tabs = String(rows[0])
        let mentionsColumn = tabs.distance(from: tabs.startIndex, to: tabs.range(of: "Mentions")!.lowerBound)
        _ = Scene.run(&s, c, [Self.click(mentionsColumn + 2, 0)])
        #expect(s.active == 1)
        _ = Scene.run(&s, c, [Self.click(2, 0)])
        #expect(s.active == 0)

        // A click on a link: that card is chosen and the picker opens on that link.
        _ = Scene.run(&s, c, [.keys([.char("g"), .char("g")])])
        let now = Views.render(s, c).text.split(separator: "\n", omittingEmptySubsequences: false)
        let linkRow = now.firstIndex { $0.contains("spoilers.example/…") }!
        let line = String(now[linkRow])
        let linkColumn = line.distance(from: line.startIndex, to: line.range(of: "spoilers.example")!.lowerBound)
        _ = Scene.run(&s, c, [Self.click(linkColumn + 3, linkRow)])
        #expect(s.pane.selected == FiltersTests.tagged.id)
        #expect(s.links?.items[s.links!.selected].url == "https://spoilers.example/finale", "\(String(describing: s.links))")
        // In the picker the wheel moves the choice; Enter opens it.
        _ = Scene.run(&s, c, [.keys([.mouse(Mouse(.wheelDown, x: 1, y: 1))])])
        #expect(s.links?.selected == 1)
    }

    @Test func aClickNeverReachesADraftOrTheHelp() async throws {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 40)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys("draft"), Self.click(5, 3), .keys([.mouse(Mouse(.wheelDown, x: 5, y: 3))])])
        #expect(s.compose?.editor.text == "draft" && s.keyMode == .compose)
        _ = Scene.run(&s, c, [.keys([.escape]), .keys([.char("?")])])
        #expect(s.showHelp)
        _ = Scene.run(&s, c, [Self.click(5, 3)])
        #expect(!s.showHelp, "a click closes the help")
        // Mouse reports are never text: the pasted-burst guess does not take them for typing.
        #expect(try Config.parse("mouse = false", file: "c").mouse == false && Config().mouse)
        #expect(throws: Config.Problem.self) { try Config.parse("mouse = \"no\"", file: "c") }
    }
}
