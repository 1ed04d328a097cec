import LinnetCore
import Screen
import Testing
import Timeline

/// `selection_band`: the selected card on the theme's band, or marked by the gutter bar alone
/// (the choice over ssh, where a move under a band writes both cards' text again).
@Suite struct SelectionBandTests {
    static func frame(band: Bool, _ actions: [Action] = []) async throws -> (Screen, Theme) {
        let theme = try Theme.load("dark", environment: ["LINNET_THEMES": ThemeFolder.path, "HOME": "/nonexistent"])
        var c = Scene.context(await Scene.store().snapshot())
        c.selectionBand = band
        var s = Scene.state(100, 30)
        _ = Scene.run(&s, c, [.storeChanged] + actions)
        return (Views.render(s, c, theme: theme), theme)
    }

    static func barRows(_ screen: Screen) -> [Int] { (0..<screen.height).filter { screen.line($0).hasPrefix("▌") } }

    @Test func theBarAloneMarksTheSameRowsWithTheSameText() async throws {
        let (banded, theme) = try await Self.frame(band: true)
        let (plain, _) = try await Self.frame(band: false)
        let selectionBG = theme[.selection].bg
        #expect(selectionBG != .default)
        let rows = Self.barRows(banded)
        #expect(rows.count >= 2)
        #expect(Self.barRows(plain) == rows)
        // The band covers the card's rows, every column; without it no cell takes its background.
        #expect(rows.allSatisfy { y in (0..<banded.width).allSatisfy { banded[$0, y].style.bg == selectionBG } })
        #expect(!plain.cells.contains { $0.style.bg == selectionBG })
        // Only the look differs: every row reads the same.
        #expect(banded.text == plain.text)
        for y in 0..<plain.height where !rows.contains(y) {
            #expect((0..<plain.width).allSatisfy { plain[$0, y] == banded[$0, y] }, "row \(y)")
        }
    }

    @Test func withoutTheBandAMoveChangesOnlyTheGutter() async throws {
        let (before, _) = try await Self.frame(band: false)
        let (after, _) = try await Self.frame(band: false, [Scene.keys("j")])
        #expect(Self.barRows(after) != Self.barRows(before) && !Self.barRows(after).isEmpty)
        // Above the status bar (which says where the reader is), only the gutter's cells change.
        let all = Screen.diff(from: before, to: after)
        let pane = all.filter { $0.y < after.height - 1 }
        #expect(!pane.isEmpty)
        #expect(pane.allSatisfy { $0.x == 0 && $0.count == 1 }, "\(pane)")
        #expect(Set(pane.map(\.y)) == Set(Self.barRows(before)).symmetricDifference(Self.barRows(after)))
        // With the band, the same move rewrites whole rows of both cards.
        let (bandBefore, _) = try await Self.frame(band: true)
        let (bandAfter, _) = try await Self.frame(band: true, [Scene.keys("j")])
        let cells = Screen.diff(from: bandBefore, to: bandAfter).reduce(0) { $0 + $1.count }
        #expect(cells > 10 * pane.count)
    }

    @Test func theSettingReadsBackAndDefaultsBySession() throws {
        #expect(try Config.parse("", file: "c").selectionBand == nil)
        let off = try Config.parse("selection_band = false\n", file: "c")
        #expect(off.selectionBand == false)
        #expect(try Config.parse(off.rendered, file: "again").selectionBand == false)
        #expect(try Config.parse(Config().rendered, file: "again").selectionBand == nil)
        for text in ["selection_band = true\n", "selection_band = false\ntheme = \"mono\"\n", ""] {
            let c = try Config.parse(text, file: "c")
            // What `linnet config` prints reads back as the same settings (the key map, written
            // out binding by binding, is checked as bindings in ConfigTests).
            var again = try Config.parse(c.rendered, file: "again")
            again.keys = c.keys
            #expect(again == c, "\(text)")
        }
        #expect(Config().selectionBandShown(remote: false) && !Config().selectionBandShown(remote: true))
        #expect(!off.selectionBandShown(remote: false))
        #expect(try Config.parse("selection_band = true\n", file: "c").selectionBandShown(remote: true))
        #expect(throws: Config.Problem.self) { try Config.parse("selection_band = \"auto\"\n", file: "c") }
    }
}
