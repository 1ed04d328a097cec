import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

/// The messages pane and a conversation: rows newest first with unread marked, a conversation
/// drawn whole and marked read once, the message box with its own limit, and what a send's
/// answer does.
@Suite struct DirectMessagesTests {
    static let me = Scene.me.id
    static func dm(_ id: UInt64, from: UserID, to: UserID, _ text: String, age: Double) -> DirectMessage {
        DirectMessage(id: id, senderID: from, recipientID: to, text: text, createdAtMs: Int64((Scene.now - age) * 1000))
    }

    static let long = String(repeating: "A long message that must reach the screen whole. ", count: 6) + "The end."

    static func world() async -> (TimelineStore, AppState, Context) {
        let store = await Scene.store()
        await store.mergeMessages(
            [
                dm(500, from: Scene.kenji.id, to: me, "こんにちは、元気？", age: 7200),
                dm(501, from: me, to: Scene.kenji.id, "元気です", age: 7000),
                dm(600, from: Scene.ann.id, to: me, "Are you coming on Saturday?", age: 600),
                dm(601, from: Scene.ann.id, to: me, long, age: 300),
                dm(700, from: Scene.zoe.id, to: me, "hi \u{1B}]52;c;Zm9v\u{07}there", age: 60),
            ], users: [Scene.ann, Scene.kenji, Scene.zoe], me: me)
        await store.markConversationRead(Mailbox.conversationID(me, Scene.kenji.id))
        var s = Scene.state(100, 30)
        s.panes.append(PaneState(.messages))
        let c = Scene.context(await store.snapshot())
        _ = Reducer.reduce(&s, .storeChanged, c)
        return (store, s, c)
    }

    @Test func thePaneListsConversationsNewestFirstWithUnreadMarked() async {
        var (_, s, c) = await Self.world()
        #expect(Views.render(s, c).text.split(separator: "\n").first?.contains("3 ✉ Messages (3)") == true)
        _ = Scene.run(&s, c, [Scene.keys("3")])
        let text = Views.render(s, c).text
        // Newest first, unread marked and counted, one's own last word marked as such, a long
        // message ended at the edge on this list (whole in its conversation).
        let shown = Views.render(s, c).mismatch(
            from: 0,
            [
                " 1 Home │ 2 Mentions (2) │ 3 ✉ Messages (3) │",
                "▌● Zoë Red @zoe · 1m · 1 new",
                "▌  hi there",
                "",
                " ● Ann Lee @ann · 5m · 2 new",
                "   A long message that must reach the screen whole. A long message that must reach the screen whol…",
                "",
                "   山田 健二 @kenji · 1h",
                "   You: 元気です",
            ])
        #expect(shown == nil, "\(shown ?? "")")
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"), "a control sequence in a message reached the screen")
    }

    @Test func aConversationOpensWholeAndIsMarkedReadOnce() async {
        var (store, s, c) = await Self.world()
        _ = Scene.run(&s, c, [Scene.keys("3")])
        var fx = Scene.run(&s, c, [Scene.keys("j"), .keys([.enter])])
        let ann = Mailbox.conversationID(Self.me, Scene.ann.id)
        #expect(s.pane.id == .conversation(ann) && fx.contains(.markConversationRead(ann)), "\(fx)")
        fx = Scene.run(&s, c, [.storeChanged])
        #expect(!fx.contains(.markConversationRead(ann)), "asked twice for the same message")
        let text = Views.render(s, c).text
        #expect(text.contains("✉ @ann"), "the tab names the person")
        // Every word of the long message is on screen, in order, across its wrapped lines.
        let joined = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(joined.contains(Self.long), "\(text)")
        #expect(joined.range(of: "Are you coming on Saturday?")!.lowerBound < joined.range(of: "The end.")!.lowerBound, "oldest first")
        // Read in the store: the tab's count goes.
        await store.markConversationRead(ann)
        let after = Scene.context(await store.snapshot())
        #expect(Views.render(s, after).text.contains("Messages (1)"))
        // Tweet keys say what they are for.
        _ = Scene.run(&s, after, [Scene.keys("f")])
        #expect(s.notice?.text == Words.notOnMessages)
    }

    @Test func theMessageBoxCountsCharactersAndSends() async {
        var (_, s, c) = await Self.world()
        _ = Scene.run(&s, c, [Scene.keys("3"), Scene.keys("j"), Scene.keys("r")])
        let target = MessageTarget(id: Scene.ann.id, screenName: "ann")
        #expect(s.compose?.to == target)
        var text = Views.render(s, c).text
        #expect(text.contains("Message to @ann") && text.contains(" 10000 "), "\(text)")
        _ = Scene.run(&s, c, [Scene.keys("漢字 🐦")])
        text = Views.render(s, c).text
        #expect(text.contains(" 9996 "), "characters, not tweet weights:\n\(text)")
        // No files in a message.
        _ = Scene.run(&s, c, [.keys([.ctrl("o")])])
        #expect(s.compose?.attach == nil && s.compose?.error == Words.messagesWithoutFiles)
        var fx = Scene.run(&s, c, [.keys([.enter])])
        #expect(fx == [.sendMessage("漢字 🐦", to: target)] && s.compose?.sending == true)
        // Refused by the server: the text stays, with X's words.
        fx = Scene.run(
            &s, c, [.messageSent(target, .failure(SyncError(.failed("You cannot send messages to this user."), doing: .message)))])
        #expect(s.compose?.editor.text == "漢字 🐦" && s.compose?.sending == false && s.compose?.error?.contains("cannot send") == true)
        #expect(fx.contains { if case .saveDrafts(let d) = $0 { d.first?.to == target } else { false } }, "the draft keeps its recipient")
        // Accepted: the box closes and the conversation shows.
        _ = Scene.run(&s, c, [.keys([.enter])])
        let sent = Self.dm(900, from: Self.me, to: Scene.ann.id, "漢字 🐦", age: 0)
        fx = Scene.run(&s, c, [.messageSent(target, .success(sent))])
        #expect(s.compose == nil && s.notice?.text == Words.messageSent("ann"))
        #expect(s.pane.id == .conversation(sent.conversation))
    }

    @Test func overTheLimitAndEmptyAreRefusedInTheBox() async {
        var (_, s, c) = await Self.world()
        _ = Scene.run(&s, c, [Scene.keys("3"), Scene.keys("r")])
        _ = Scene.run(&s, c, [.keys([.enter])])
        #expect(s.compose?.error == Words.nothingToSend && s.compose?.sending == false)
        s.compose?.editor = Editor(String(repeating: "x", count: 10_003))
        let fx = Scene.run(&s, c, [.keys([.enter])])
        #expect(fx.isEmpty && s.compose?.error == Words.messageTooLong(by: 3))
        #expect(Views.render(s, c).text.contains(" -3 "))
    }

    @Test func draftsKeepTheirRecipientAcrossARestart() throws {
        let target = MessageTarget(id: UserID(2), screenName: "ann")
        let record = DraftRecord(text: "later", replyTo: nil, to: target)
        let data = try JSONEncoder().encode([record])
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains(#""id":"2""#) && json.contains(#""screen_name":"ann""#), "\(json)")
        let back = try JSONDecoder().decode([DraftRecord].self, from: data)
        #expect(back == [record])
        var s = Scene.state(100, 30)
        let c = Scene.context(TimelineSnapshot())
        _ = Reducer.reduce(&s, .restoreDrafts(back), c)
        #expect(s.drafts.first?.to == target)
        // Writing to her again opens the kept draft, not an empty box.
        s.panes = [PaneState(.home)]
        s.profile = Profile(user: Scene.ann, relationship: .init())
        _ = Scene.run(&s, c, [Scene.keys("d")])
        #expect(s.compose?.editor.text == "later" && s.compose?.to == target && s.profile == nil)
    }
}
