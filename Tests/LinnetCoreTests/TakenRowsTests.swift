import Foundation
import LinnetCore
import Testing
import Timeline
import TwitterAPI

@testable import Screen

/// A frame that takes its cards' rows from the frame before (`Views.render(previous:)`) looks
/// as the frame drawn afresh, whatever came between them.
@Suite struct TakenRowsTests {
    static func sameLook(_ a: Screen, _ b: Screen) -> Bool {
        guard a.width == b.width, a.height == b.height, a.anchors == b.anchors, a.pictures == b.pictures,
            a.cursor.map({ [$0.x, $0.y] }) == b.cursor.map({ [$0.x, $0.y] }), a.text == b.text
        else { return false }
        for y in 0..<a.height {
            for x in 0..<a.width where !Screen.same(a[x, y], in: a, b[x, y], in: b) { return false }
        }
        return true
    }

    static func store() async -> TimelineStore {
        let scripts = ["漢字とかなが混ざった長い文章 👨‍👩‍👧 ", "한국어 🇯🇵🇫🇷 ", "مرحبا بالعالم — ", "Zoë e\u{301}te\u{301} 👍🏽 ", ""]
        let posts = (1..<60).map { i in
            Scene.tweet(
                UInt64(1000 + i), [Scene.ann, Scene.kenji, Scene.noor, Scene.zoe][i % 4],
                scripts[i % scripts.count] + Array(repeating: "word", count: [1, 9, 30, 2, 14][i % 5]).joined(separator: " "),
                age: Double(40 * i), likes: i % 3)
        }
        let store = TimelineStore()
        await store.merge(page: posts + Scene.homeTweets, into: .home, request: PageRequest(count: 200))
        await store.merge(page: Array(posts.prefix(9)), into: .mentions, request: PageRequest(count: 200))
        return store
    }

    @Test func aFrameFromTheRowsBeforeLooksAsOneDrawnAfresh() async throws {
        let env = ["LINNET_THEMES": ThemeFolder.path, "HOME": "/nonexistent"]
        let themes = [try Theme.load("dark", environment: env), try Theme.load("light", environment: env)]
        var c = Scene.context(await Self.store().snapshot())
        var s = Scene.state(100, 30)
        _ = Scene.run(&s, c, [.storeChanged])
        var seed: UInt64 = 20_261_129
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % n
        }
        let moves: [Action] =
            ["j", "j", "j", "k", "jjj", "kk", "G", "gg", "2", "1", "?", "?", "\u{4}", "\u{15}", "r", "o"].map(Scene.keys)
            + [.keys([.escape]), .keys([.escape]), .keys([.enter])]
        var theme = themes[0]
        var last = Views.render(s, c, theme: theme)
        var taken = 0
        for step in 0..<300 {
            switch next(12) {
            case 0: c.selectionBand.toggle()
            case 1: theme = themes[next(2)]
            case 2: s.now += 60
            case 3: _ = Scene.run(&s, c, [.resize(width: [60, 100, 101][next(3)], height: [12, 30][next(2)])])
            default: _ = Scene.run(&s, c, [moves[next(moves.count)]])
            }
            let fresh = Views.render(s, c, theme: theme)
            let frame = Views.render(s, c, theme: theme, previous: last)
            let same = Self.sameLook(frame, fresh) && frame == fresh
            #expect(same, "step \(step)")
            // A row that may hold a wide grapheme or a cluster is marked so where it was taken.
            let marks = (0..<frame.height).allSatisfy {
                (!fresh.mayHoldWide($0) || frame.mayHoldWide($0)) && (!fresh.mayHoldCluster($0) || frame.mayHoldCluster($0))
            }
            #expect(marks, "step \(step)")
            // Rows taken, not drawn: a mark behind the names of the frame before shows through.
            var marked = last
            for y in 0..<marked.height where marked.isNamed(y) { marked.cells[y * marked.width + marked.width - 1].code = 0x2603 }
            let through = Views.render(s, c, theme: theme, previous: marked)
            taken += (0..<through.height).filter { through[through.width - 1, $0].code == 0x2603 }.count
            last = frame
        }
        #expect(taken > 1000, "rows taken: \(taken)")
    }

    /// A row named on the frame before is copied, not drawn: a cell changed behind the name's
    /// back (which no write does: each forgets it) shows on the next frame, moved with its card.
    @Test func aNamedRowIsCopiedNotDrawn() async throws {
        let c = Scene.context(await Self.store().snapshot())
        var s = Scene.state(100, 30)
        _ = Scene.run(&s, c, [.storeChanged, Scene.keys("jjjjj")])
        var before = Views.render(s, c)
        let named = (0..<before.height).filter { before.isNamed($0) }
        #expect(named.count > 10)
        for y in named { before.cells[y * before.width + before.width - 1].code = 0x2603 }
        _ = Scene.run(&s, c, [Scene.keys("j")])
        let after = Views.render(s, c, previous: before)
        let marked = (0..<after.height).filter { after[after.width - 1, $0].code == 0x2603 }
        // The cards that stayed, one of them moved (the new selection and the old are drawn).
        #expect(marked.count > 5 && marked.count < named.count, "\(marked)")
        let same = Self.sameLook(after, Views.render(s, c))
        #expect(!same)
    }
}
