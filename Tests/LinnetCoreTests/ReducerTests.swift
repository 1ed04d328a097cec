import Foundation
import LinnetCore
import Screen
import Testing
import Timeline
import TweetText
import TwitterAPI

@Suite struct ReducerTests {
    func setup(_ w: Int = 80, _ h: Int = 24) async -> (AppState, Context, TimelineStore) {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(w, h)
        _ = Reducer.reduce(&s, .storeChanged, c)
        return (s, c, store)
    }

    @Test func theNewestIsSelectedAndMovingMarksRead() async {
        var (s, c, _) = await setup()
        #expect(s.pane.selected == TweetID(110))
        let fx = Scene.run(&s, c, [.keys([.char("j"), .char("j")])])
        #expect(s.pane.selected == TweetID(108))
        #expect(fx.isEmpty, "older tweets are already read: \(fx)")
        _ = Scene.run(&s, c, [.keys([.char("G")])])
        #expect(s.pane.selected == TweetID(104))
        #expect(s.pane.top != TweetID(110), "scrolled so the selection shows")
        _ = Scene.run(&s, c, [.keys([.char("g"), .char("g")])])
        #expect(s.pane.selected == TweetID(110) && s.pane.top == TweetID(110))
    }

    @Test func nearTheEndOlderTweetsAreAskedFor() async {
        var (s, c, _) = await setup()
        let fx = Scene.run(&s, c, [.keys([.char("G")])])
        #expect(fx.contains(.loadOlder(.home)))
        var busy = c
        var st = SyncStatus()
        st.loadingOlder = true
        busy.statuses[.home] = st
        #expect(!Scene.run(&s, busy, [.keys([.char("k"), .char("j")])]).contains(.loadOlder(.home)))
    }

    @Test func newTweetsAboveDoNotMoveTheReader() async {
        var (s, c, store) = await setup()
        _ = Scene.run(&s, c, [.keys([.char("j"), .char("j"), .char("j")])])
        let top = s.pane.top
        let selected = s.pane.selected
        await store.add(Scene.tweet(120, Scene.ann, "brand new", age: 1), to: [.home])
        await store.add(Scene.tweet(121, Scene.ann, "newer still", age: 0), to: [.home])
        let c2 = Scene.context(await store.snapshot())
        _ = Reducer.reduce(&s, .storeChanged, c2)
        #expect(s.pane.top == top && s.pane.selected == selected)
        let screen = Views.render(s, c2)
        #expect(screen.line(1).hasPrefix("▲ "))
        #expect(screen.line(1).hasPrefix("▲ 2 new · "), "\(screen.line(1))")
    }

    @Test func aDeletedSelectionMovesToTheNextOlder() async {
        var (s, c, store) = await setup()
        _ = Scene.run(&s, c, [.keys([.char("j")])])
        await store.delete(TweetID(109))
        _ = Reducer.reduce(&s, .storeChanged, Scene.context(await store.snapshot()))
        #expect(s.pane.selected == TweetID(108))
    }

    @Test func replyPrefillsEveryoneButMe() async {
        var (s, c, _) = await setup()
        let store = TimelineStore()
        let t = Tweet(
            id: TweetID(300), createdAt: 0, user: Scene.ann, text: "@linnet_demo @kenji hi",
            entities: Entities(mentions: [
                .init(screenName: "linnet_demo", userID: nil, range: 0..<12), .init(screenName: "kenji", userID: nil, range: 13..<19),
            ]))
        await store.add(t, to: [.home])
        c = Scene.context(await store.snapshot())
        s = Scene.state(80, 24)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [.keys([.char("r")])])
        #expect(s.compose?.editor.text == "@ann @kenji ")
        #expect(s.compose?.replyTo == TweetID(300))
        let fx = Scene.run(&s, c, [Scene.keys("agreed"), .keys([.enter])])
        #expect(fx == [.perform(.post("@ann @kenji agreed", inReplyTo: TweetID(300)))])
        #expect(s.compose?.sending == true)
        // Typing while sending changes nothing; success closes the box and forgets the draft.
        _ = Scene.run(&s, c, [Scene.keys("zz")])
        #expect(s.compose?.editor.text == "@ann @kenji agreed")
        let done = Scene.run(&s, c, [.writeFinished(.post("@ann @kenji agreed", inReplyTo: TweetID(300)), .success(t))])
        #expect(s.compose == nil && s.drafts.isEmpty)
        #expect(done.contains(.saveDrafts([])))
        #expect(s.notice?.text == "Reply sent.")
    }

    @Test func aFailedPostKeepsTheTextAndSaysWhy() async {
        var (s, c, _) = await setup()
        _ = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys("hello"), .keys([.enter])])
        let fx = Scene.run(
            &s, c,
            [
                .writeFinished(
                    .post("hello", inReplyTo: nil),
                    .failure(SyncError(.failed("Over capacity"), doing: .write(.post("hello", inReplyTo: nil)), status: 503)))
            ])
        #expect(s.compose?.editor.text == "hello")
        #expect(s.compose?.sending == false)
        #expect(s.compose?.error == "Could not post the tweet: Over capacity. The box is still open; esc keeps it as a draft.")
        // Said once: in the box, and in the notice log, not again on the status line.
        #expect(s.notice?.isError != true && s.noticeLog.last?.text == s.compose?.error)
        // Whole, wrapped in the box, however narrow: every word of it on the screen.
        let long = SyncError(
            .replyRule(
                "Self-serve access cannot reply to @ivan: X answers replies only to those who mention you or whom you follow, and @ivan did not here."
            ), doing: .write(.post("hello", inReplyTo: nil)), status: 403)
        _ = Scene.run(&s, c, [.keys([.enter]), .writeFinished(.post("hello", inReplyTo: nil), .failure(long))])
        s.width = 60
        let screen = Views.render(s, c).text
        let flat = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        for word in (s.compose?.error ?? "").split(separator: " ") { #expect(flat.contains(word), "\(word) not shown:\n\(screen)") }
        #expect(fx.contains(.saveDrafts([DraftRecord(text: "hello", replyTo: nil)])))
    }

    @Test func escapeKeepsTheDraftAndQuitAsksFirst() async {
        var (s, c, _) = await setup()
        let fx = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys("half a thought"), .keys([.escape])])
        #expect(s.compose == nil)
        #expect(s.drafts.map(\.editor.text) == ["half a thought"])
        #expect(fx.contains(.saveDrafts([DraftRecord(text: "half a thought", replyTo: nil)])))
        _ = Scene.run(&s, c, [.keys([.char("n")])])
        #expect(s.compose?.editor.text == "half a thought")
        _ = Scene.run(&s, c, [.keys([.escape]), .keys([.char("q")])])
        #expect(s.question == .quitWithDraft && !s.quitting)
        _ = Scene.run(&s, c, [.keys([.char("n")])])
        #expect(s.question == nil && !s.quitting)
        let quit = Scene.run(&s, c, [.keys([.char("q")]), .keys([.char("y")])])
        #expect(s.quitting)
        #expect(quit == [.saveDrafts([DraftRecord(text: "half a thought", replyTo: nil)]), .quit])
    }

    @Test func sendingIsRefusedWhileInvalidWithTheReason() async {
        var (s, c, _) = await setup()
        let long = String(repeating: "a", count: 281)
        let fx = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys(long), .keys([.enter])])
        #expect(fx.isEmpty)
        #expect(s.compose?.error == "Too long by 1 characters; shorten it to send.")
        _ = Scene.run(&s, c, [.keys([.backspace])])
        #expect(s.compose?.error == nil)
        #expect(Reducer.refusal("   ") == "Nothing to send yet.")
    }

    @Test func aPasteWithLineBreaksDoesNotSend() async {
        var (s, c, _) = await setup()
        _ = Scene.run(&s, c, [.keys([.char("n")])])
        let paste: [Key] = "one".map { .char($0) } + [.enter] + "two".map { .char($0) } + [.enter] + "three".map { .char($0) }
        let fx = Scene.run(&s, c, [.keys(paste)])
        #expect(fx.isEmpty)
        #expect(s.compose?.editor.text == "one\ntwo\nthree")
        #expect(s.notice?.text == "Pasted 3 lines; press Enter to send.")
        // A lone Enter afterwards sends.
        #expect(Scene.run(&s, c, [.keys([.enter])]) == [.perform(.post("one\ntwo\nthree", inReplyTo: nil))])
    }

    @Test func aQuickEscapeThenAKeyIsTwoKeys() async {
        var (s, c, _) = await setup()
        _ = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys("x")])
        // The terminal reports Esc followed at once by j as Alt-j, which nothing binds.
        _ = Scene.run(&s, c, [.keys([.alt("j")])])
        #expect(s.compose == nil)
        #expect(s.pane.selected == TweetID(109))
        #expect(s.drafts.map(\.editor.text) == ["x"])
        // Alt-Enter is bound in the compose box: a new line.
        _ = Scene.run(&s, c, [.keys([.char("n"), .alt("\r"), .char("y")])])
        #expect(s.compose?.editor.text == "x\ny")
    }

    @Test func retweetAndDeleteAskFirst() async {
        var (s, c, _) = await setup()
        _ = Scene.run(&s, c, [.keys([.char("t")])])
        #expect(s.question == .retweet(TweetID(110)))
        #expect(Scene.run(&s, c, [.keys([.char("y")])]) == [.perform(.retweet(TweetID(110)))])
        _ = Scene.run(&s, c, [.keys([.char("D")])])
        #expect(s.question == nil)
        #expect(s.notice?.text == "You can only delete your own tweets.")
        _ = Scene.run(&s, c, [.keys([.char("G"), .char("D")])])
        #expect(s.question == .delete(TweetID(104)))
        #expect(Scene.run(&s, c, [.keys([.escape])]).isEmpty && s.question == nil)
        #expect(Scene.run(&s, c, [.keys([.char("f")])]) == [.perform(.like(TweetID(104)))])
    }

    @Test func searchThreadAndAuthorOpenPanes() async {
        var (s, c, _) = await setup()
        let fx = Scene.run(&s, c, [.keys([.char("/")]), Scene.keys("swift tips"), .keys([.enter])])
        #expect(fx == [.open(.search("swift tips"))])
        #expect(s.pane.id == .search("swift tips") && s.active == 2)
        _ = Scene.run(&s, c, [.keys([.char("1")])])
        #expect(Scene.run(&s, c, [.keys([.enter])]) == [.open(.thread(TweetID(110)))])
        _ = Scene.run(&s, c, [.keys([.char("1")])])
        #expect(Scene.run(&s, c, [.keys([.char("u")])]) == [.open(.user("ann"))])
        #expect(Scene.run(&s, c, [.keys([.char("x")])]) == [.close(.user("ann"))])
        #expect(s.panes.count == 4)
        _ = Scene.run(&s, c, [.keys([.char("1"), .char("x")])])
        #expect(s.panes.count == 4 && s.notice?.text == "Home and Mentions stay open.")
    }

    @Test func theAccountKeyCyclesAccounts() async {
        var (s, c, _) = await setup()
        #expect(Scene.run(&s, c, [.keys([.char("A")])]).isEmpty)
        #expect(s.notice?.text == "There is one account; add another with `linnet login`.")
        c.accounts = ["one", "two", "three"]
        c.currentAccount = "two"
        #expect(Scene.run(&s, c, [.keys([.char("A")])]) == [.switchAccount("three")])
        c.currentAccount = "three"
        #expect(Scene.run(&s, c, [.keys([.char("A")])]) == [.switchAccount("one")])
    }

    @Test func themesCycle() async {
        var (s, c, _) = await setup()
        #expect(Scene.run(&s, c, [.keys([.char("T")])]) == [.setTheme("light")])
        #expect(
            Scene.run(&s, c, [.keys([.char("T"), .char("T"), .char("T")])]) == [
                .setTheme("mono"), .setTheme("solarized-dark"), .setTheme("dark"),
            ])
    }

    @Test func noticesFade() async {
        var (s, c, _) = await setup()
        _ = Scene.run(&s, c, [.notice("Something went wrong", isError: true)])
        _ = Scene.run(&s, c, [.tick(now: Scene.now + 5)])
        #expect(s.notice != nil)
        _ = Scene.run(&s, c, [.tick(now: Scene.now + 9)])
        #expect(s.notice == nil)
    }
}

@Suite struct KeyMapTests {
    @Test func sequencesPrefixesAndModes() {
        let k = KeyMap.standard
        #expect(k.resolve(.timeline, [.char("j")]) == .command(.down))
        #expect(k.resolve(.timeline, [.char("g")]) == .prefix)
        #expect(k.resolve(.timeline, [.char("g"), .char("g")]) == .command(.top))
        #expect(k.resolve(.timeline, [.char("z")]) == .none)
        #expect(k.resolve(.compose, [.char("j")]) == .none, "letters are text in the compose box")
        #expect(k.resolve(.compose, [.ctrl("w")]) == .command(.deleteWord))
        #expect(k.resolve(.confirm, [.char("y")]) == .command(.yes))
    }

    @Test func overridesReplaceAndUnbind() throws {
        var k = KeyMap.standard
        try k.override(mode: .timeline, [(keys: "ctrl-n", command: "down"), (keys: "j", command: "none"), (keys: "z z", command: "quit")])
        #expect(k.resolve(.timeline, [.ctrl("n")]) == .command(.down))
        #expect(k.resolve(.timeline, [.char("j")]) == .none)
        #expect(k.resolve(.timeline, [.char("z"), .char("z")]) == .command(.quit))
        #expect(k.keys(for: .down, in: .timeline) == ["down", "ctrl-n"])
        #expect(throws: KeyMap.OverrideError.self) { try k.override(mode: .timeline, [(keys: "j", command: "fly")]) }
        #expect(throws: KeyMap.OverrideError.self) { try k.override(mode: .timeline, [(keys: "hyper-x", command: "down")]) }
    }

    @Test func everyCommandInHelpHasAKey() {
        let k = KeyMap.standard
        for b in k.bindings { #expect(!b.help.isEmpty) }
        for c in [
            Command.compose, .reply, .quote, .retweet, .like, .delete, .thread, .author, .search, .refresh, .help, .cycleTheme, .quit,
        ] {
            #expect(!k.keys(for: c, in: .timeline).isEmpty, "\(c) has no key")
        }
    }
}

@Suite struct EditorTests {
    @Test func shellKeys() {
        var e = Editor("hello big world")
        e.deleteWord()
        #expect(e.text == "hello big ")
        e.insert("wide world")
        e.home()
        e.right()
        e.killToLineEnd()
        #expect(e.text == "h")
        e.insert("i\nsecond line")
        e.vertical(-1)
        #expect(e.caret == 2)
        e.killToLineStart()
        #expect(e.text == "\nsecond line")
        e.textEnd()
        e.deleteBackward()
        #expect(e.text == "\nsecond lin")
        e.insert("e\u{301}")
        #expect(e.characters.last == "e\u{301}")
        e.left()
        e.insert("\u{301}")
        #expect(e.text == "\nsecond lin\u{301}e\u{301}")
        #expect(e.characters.suffix(2) == ["n\u{301}", "e\u{301}"])
    }

    @Test func layoutWrapsByWidthAndPlacesTheCaret() {
        let e = Editor("漢字漢字漢字")
        let (rows, caret) = e.layout(width: 5)
        #expect(rows.map(\.count) == [2, 2, 2])
        #expect(caret.row == 2 && caret.col == 4)
        let f = Editor("abcde")
        #expect(f.layout(width: 5).caret == (row: 1, col: 0))
    }
}
