import Foundation
import Testing
import TwitterAPI

@testable import Timeline

/// The mailbox: conversations from messages in any order, each message once, unread counted
/// from the other side only, and kept beside the cache across a restart.
@Suite struct MailboxTests {
    static let me = UserID(1)
    static let ann = User(id: UserID(2), screenName: "ann", name: "Ann Lee")
    static let kenji = User(id: UserID(3), screenName: "kenji", name: "山田 健二")

    static func dm(_ id: UInt64, from: UserID, to: UserID, _ text: String) -> DirectMessage {
        DirectMessage(id: id, senderID: from, recipientID: to, text: text, createdAtMs: Int64(id) * 1000)
    }

    @Test func conversationsFromPagesInAnyOrder() {
        var box = Mailbox(me: Self.me)
        let newer = [Self.dm(30, from: Self.ann.id, to: Self.me, "three"), Self.dm(20, from: Self.me, to: Self.ann.id, "two")]
        let older = [Self.dm(10, from: Self.ann.id, to: Self.me, "one"), Self.dm(15, from: Self.kenji.id, to: Self.me, "こんにちは")]
        var incoming = box.merge(newer, users: [Self.ann])
        #expect(incoming.map(\.id) == [30], "only the other side's messages are incoming")
        incoming = box.merge(older + newer, users: [Self.kenji])
        #expect(incoming.map(\.id) == [10, 15], "a message held already is not new again")
        #expect(box.conversations.map(\.id) == ["1-2", "1-3"], "newest conversation first")
        #expect(box.conversations[0].messages.map(\.id) == [10, 20, 30], "oldest message first")
        #expect(box.conversations[0].other == Self.ann.id && box.person("1-2") == Self.ann)
        #expect(box.conversations[0].unread(me: Self.me) == 2 && box.unread == 3)
        #expect(box.markRead("1-2") && !box.markRead("1-2"))
        #expect(box.conversations[0].unread(me: Self.me) == 0 && box.unread == 1)
        // A new message after the read one is unread again; one's own never is.
        box.merge([Self.dm(40, from: Self.me, to: Self.ann.id, "four")], users: [])
        #expect(box.conversations[0].unread(me: Self.me) == 0)
        box.merge([Self.dm(50, from: Self.ann.id, to: Self.me, "five")], users: [])
        #expect(box.conversations[0].unread(me: Self.me) == 1)
    }

    @Test func aLongConversationKeepsItsNewest() {
        var box = Mailbox(me: Self.me)
        let many = (1...UInt64(Mailbox.keepPerConversation + 20)).map { Self.dm($0, from: Self.ann.id, to: Self.me, "n\($0)") }
        box.merge(many.shuffled(), users: [])
        #expect(box.conversations[0].messages.count == Mailbox.keepPerConversation)
        #expect(box.conversations[0].messages.first?.id == 21 && box.conversations[0].messages.last?.id == UInt64(many.count))
    }

    @Test func keptBesideTheCacheAcrossARestart() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-mail-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = TimelineStore()
        var linked = Self.dm(30, from: Self.ann.id, to: Self.me, "see https://t.co/x 🐦")
        linked.urls = [Entities.Link(target: "https://example.com/a", display: "example.com/a", range: 4..<18)]
        await store.mergeMessages(
            [linked, Self.dm(20, from: Self.me, to: Self.ann.id, "two"), Self.dm(15, from: Self.kenji.id, to: Self.me, "こんにちは")],
            users: [Self.ann, Self.kenji], me: Self.me)
        await store.markConversationRead("1-3")
        let cache = TimelineCache(directory: dir)
        try cache.save(await store.snapshot())
        var st = stat()
        #expect(stat(cache.messagesURL.path, &st) == 0 && st.st_mode & 0o777 == 0o600)
        let (loaded, problem) = cache.loadMessages()
        #expect(problem == nil)
        #expect(loaded.conversations == (await store.mailbox).conversations)
        #expect(loaded.users[Self.kenji.id]?.name == "山田 健二" && loaded.unread == 1 && loaded.me == Self.me)
        #expect(loaded.conversations[0].messages.last?.displayText.text == "see example.com/a 🐦")
        // Restored into a fresh store: the same conversations and read marks.
        let again = TimelineStore()
        await again.restore(TimelineSnapshot().with(mailbox: loaded))
        #expect((await again.mailbox).conversations == loaded.conversations)
        // A damaged file is set aside and said, never read as messages.
        try Data("{\"format\":1,\"conv".utf8).write(to: cache.messagesURL)
        let (empty, why) = cache.loadMessages()
        #expect(empty.conversations.isEmpty && (why ?? "").contains("moved it to"))
        #expect(!FileManager.default.fileExists(atPath: cache.messagesURL.path))
    }
}
