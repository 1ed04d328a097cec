import Foundation
import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

@Suite struct DraftKeepingTests {
    @Test func aReplyDoesNotDisplaceAnOlderDraft() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(80, 24)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys("keep me"), .keys([.escape])])
        // Opened and closed unchanged: nothing new is kept.
        #expect(Scene.run(&s, c, [.keys([.char("r")]), .keys([.escape])]) == [.saveDrafts([DraftRecord(text: "keep me", replyTo: nil)])])
        #expect(s.drafts.count == 1)
        // A reply in progress is saved beside the older draft, and sending it keeps the older one.
        _ = Scene.run(&s, c, [.keys([.char("r")]), Scene.keys("yes")])
        #expect(
            Reducer.draftRecords(s) == [DraftRecord(text: "keep me", replyTo: nil), DraftRecord(text: "@ann yes", replyTo: TweetID(110))])
        let sent = Scene.run(
            &s, c, [.keys([.enter]), .writeFinished(.post("@ann yes", inReplyTo: TweetID(110)), .success(Scene.homeTweets[0]))])
        #expect(sent.last == .saveDrafts([DraftRecord(text: "keep me", replyTo: nil)]))
        _ = Scene.run(&s, c, [.keys([.char("n")])])
        #expect(s.compose?.editor.text == "keep me")
    }

    @Test func draftsComeBackFromDisk() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "linnet-drafts-\(getpid())-\(Int.random(in: 0..<1_000_000))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = DraftStore(directory: dir)
        #expect(store.load().isEmpty)
        let records = [
            DraftRecord(text: "first 漢字", replyTo: nil), DraftRecord(text: "@ann second", replyTo: TweetID(1_234_567_890_123_456_789)),
        ]
        try store.save(records)
        #expect(store.load() == records)
        let mode = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        var s = Scene.state(80, 24)
        _ = Reducer.reduce(&s, .restoreDrafts(store.load()), Scene.context(TimelineSnapshot()))
        #expect(s.drafts.count == 2)
        #expect(
            s.notice?.text
                == "2 unsent drafts were kept from last time: n reopens a new post; a reply or quote reopens from its post (r, Q).")
        try store.save([])
        #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
    }

    @Test func anUnwritableDraftFolderIsAnError() throws {
        let store = DraftStore(directory: URL(fileURLWithPath: "/proc/linnet-cannot-write-here"))
        #expect(throws: (any Error).self) { try store.save([DraftRecord(text: "x", replyTo: nil)]) }
    }
}

/// An empty quote or reply is dropped on esc; `n` opens a new post, never another kind of draft.
@MainActor @Suite struct DraftKindsTests {
    @Test func anEmptyQuoteIsDroppedAndNeverTakesOverN() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        let quoted = s.pane.selected
        var fx = Scene.run(&s, c, [.keys([.char("Q")]), .keys([.escape])])
        #expect(s.drafts.isEmpty && fx.contains(.saveDrafts([])), "\(s.drafts)")
        _ = Scene.run(&s, c, [.keys([.char("n")])])
        #expect(s.compose?.quote == nil && s.compose?.editor.text == "")
        _ = Scene.run(&s, c, [.keys([.escape])])
        // A quote with words is kept, reopens from its post, and n still opens a new post.
        _ = Scene.run(&s, c, [.keys([.char("Q")]), Scene.keys("so true"), .keys([.escape])])
        #expect(s.drafts.count == 1 && s.drafts[0].quote == quoted)
        fx = Scene.run(&s, c, [.keys([.char("n")])])
        #expect(s.compose?.quote == nil && s.compose?.editor.text == "" && s.drafts.count == 1)
        #expect(s.notice?.text.hasPrefix("1 other draft kept") == true)
        _ = Scene.run(&s, c, [Scene.keys("mine"), .keys([.escape])])
        _ = Scene.run(&s, c, [.keys([.char("Q")])])
        #expect(s.compose?.quote == quoted && s.compose?.editor.text == "so true")
        _ = Scene.run(&s, c, [.keys([.escape]), .keys([.char("n")])])
        #expect(s.compose?.editor.text == "mine" && s.compose?.quote == nil)
        // Emptied and closed again: dropped, whatever it was.
        _ = Scene.run(&s, c, [.keys([.escape]), .keys([.char("Q")]), .keys(Array(repeating: .backspace, count: 7)), .keys([.escape])])
        #expect(!s.drafts.contains { $0.quote == quoted }, "\(s.drafts)")
    }
}
