import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

/// The tab bar keeps the active tab in view however many panes are open, and names a thread
/// by its author.
@Suite struct TabBarTests {
    @Test func theActiveTabIsAlwaysVisible() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 24)
        _ = Reducer.reduce(&s, .storeChanged, c)
        for q in 1...10 { _ = Scene.run(&s, c, [.keys([.char("/")]), Scene.keys("search\(q)"), .keys([.enter])]) }
        #expect(s.panes.count == 12 && s.active == 11)
        // Tabs hidden on the left are marked, and those hidden on the right.
        var bar = Views.render(s, c).mismatch(
            from: 0, ["‹ 9 Search: search7 │ 10 Search: search8 │ 11 Search: search9 │ 12 Search: search10 │"])
        #expect(bar == nil, "\(bar ?? "")")
        _ = Scene.run(&s, c, [.keys([.char("1")])])
        bar = Views.render(s, c).mismatch(
            from: 0, [" 1 Home │ 2 Mentions (2) │ 3 Search: search1 │ 4 Search: search2 │ 5 Search: search3 │             …"])
        #expect(bar == nil, "\(bar ?? "")")
        // Every pane is reachable by the next-pane key, tab 12 too, and directly: alt-0 is pane
        // 10, alt-1 … alt-9 panes 11 to 19.
        for _ in 0..<11 { _ = Scene.run(&s, c, [.keys([.tab])]) }
        #expect(s.active == 11 && Views.render(s, c).line(0).contains("12 Search: search10"))
        _ = Scene.run(&s, c, [.keys([.alt("0")])])
        #expect(s.active == 9)
        _ = Scene.run(&s, c, [.keys([.alt("1")])])
        #expect(s.active == 10)
        _ = Scene.run(&s, c, [.keys([.char("?")])])
        #expect(Views.render(s, c).text.contains("alt-0 … alt-9"))
    }

    @Test func aThreadTabNamesItsAuthor() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(120, 24)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [.keys([.enter])])
        let bar = Views.render(s, c).mismatch(from: 0, [" 1 Home │ 2 Mentions (2) │ 3 Thread @ann │"])
        #expect(bar == nil, "\(bar ?? "")")
    }
}

/// The tab's unread count and the "▲ N newer (M new)" marker count the same tweets.
@Suite struct UnreadAgreementTests {
    @Test func theTabAndTheMarkerAgree() async {
        let store = await Scene.store()
        var c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 12)
        _ = Reducer.reduce(&s, .storeChanged, c)
        // Read down to the oldest (everything above is read), then two arrive.
        _ = Scene.run(&s, c, [.keys([.char("G")])])
        for fx in Scene.run(&s, c, [.keys([.char("k"), .char("j")])]) {
            if case .markRead(let id, let t) = fx { await store.markRead(id, upTo: t) }
        }
        await store.markRead(.home, upTo: TweetID(110))
        await store.add(Scene.tweet(120, Scene.ann, "new one", age: 1), to: [.home])
        await store.add(Scene.tweet(121, Scene.ann, "new two", age: 0), to: [.home])
        c = Scene.context(await store.snapshot())
        _ = Reducer.reduce(&s, .storeChanged, c)
        let screen = Views.render(s, c)
        #expect(screen.line(0).contains("Home (2)"), "\(screen.line(0))")
        #expect(screen.line(1).contains("newer (2 new)"), "\(screen.line(1))")
    }
}

/// Enter on a reply opens its conversation with the reply selected, not the first post.
@Suite struct ThreadSelectionTests {
    @Test func theConversationOpensOnTheTweetItWasOpenedFrom() async {
        let store = await Scene.store()
        var c = Scene.context(await store.snapshot())
        var s = Scene.state(120, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        // The reply in the scene (Zoë's, to Ann's first tweet).
        let reply = c.snapshot.tweets(in: .home).first { $0.inReplyToStatusID != nil }!
        while s.pane.selected != reply.id { _ = Scene.run(&s, c, [.keys([.char("j")])]) }
        _ = Scene.run(&s, c, [.keys([.enter])])
        #expect(s.pane.id == .thread(reply.id) && s.pane.selected == reply.id)
        // The conversation arrives, the post it answers first (threads read oldest first).
        let parent =
            c.snapshot.tweets[reply.inReplyToStatusID!]
            ?? Scene.tweet(reply.inReplyToStatusID!.rawValue, Scene.ann, "the post answered", age: 90)
        await store.add(parent, to: [.thread(reply.id)])
        await store.add(reply, to: [.thread(reply.id)])
        c = Scene.context(await store.snapshot())
        _ = Reducer.reduce(&s, .storeChanged, c)
        #expect(s.pane.selected == reply.id)
        // What is above the reply came before it, and is called so.
        let line = Views.render(s, c).line(1)
        #expect(line.hasPrefix("▲ 1 earlier in the conversation · "), "\(line)")
        #expect(!line.contains("newer"))
    }
}

/// The help fits the screen: nothing cut at 100 columns or more (where it is longer than the
/// screen, j/k scroll it and every key is on some page), and a heading is never the last line
/// of a column.
@Suite struct HelpLayoutTests {
    @Test(arguments: [(100, 30), (120, 40), (160, 50)]) func nothingIsCut(_ size: (Int, Int)) async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(size.0, size.1)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [.keys([.char("?")])])
        var pages = [Views.render(s, c).text]
        for _ in 0..<200 {
            _ = Scene.run(&s, c, [.keys([.char("j")])])
            let page = Views.render(s, c).text
            if page == pages.last { break }
            pages.append(page)
        }
        if size.0 >= 120 { #expect(pages.count == 1, "the help scrolls at \(size)") }
        if pages.count > 1 { #expect(pages[0].contains("j/k for more"), "\(pages[0])") }
        // Back up, then closed and opened again from the top.
        _ = Scene.run(&s, c, [.keys([.char("k")])])
        #expect(pages.count == 1 || Views.render(s, c).text == pages[pages.count - 2])
        _ = Scene.run(&s, c, [.keys([.char("q")]), .keys([.char("?")])])
        #expect(Views.render(s, c).text == pages[0])
        let text = pages.joined(separator: "\n")
        for b in c.keyMap.bindings where b.mode == .timeline || b.mode == .compose {
            if ([Command.pane2, .pane3, .pane4, .pane5, .pane6, .pane7, .pane8, .pane9, .pane1] + Command.farPanes).contains(b.command) {
                continue
            }
            #expect(text.contains(b.help), "\(b.help) is cut at \(size):\n\(text)")
            let keys = c.keyMap.keys(for: b.command, in: b.mode).joined(separator: ", ")
            #expect(text.contains(keys), "the keys \(keys) are cut at \(size):\n\(text)")
        }
    }
}
