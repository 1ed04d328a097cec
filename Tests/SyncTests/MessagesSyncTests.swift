import Foundation
import LinnetCore
import LinnetTestSupport
import Testing
import Timeline

@testable import TwitterAPI

/// Direct messages on both faces: the waiting ones with the people named, one sent into the
/// conversation, every message read once across pages, and refusals in the server's words.
@Suite struct MessagesSyncTests {
    @Test(arguments: TwitterClient.API.allCases) func readPageAndSend(api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = api == .v2 ? V2SyncTests.v2Client(sim) : sim.client
        let me = try await sim.client.verifyCredentials()
        var page = try await client.messages(me: me)
        #expect(page.messages.count == 3 && page.next == nil)
        #expect(page.messages.map(\.text).contains("Thanks & see you"), "the text is as sent, not escaped")
        #expect(page.messages.map(\.id) == page.messages.map(\.id).sorted(by: >), "newest first")
        let first = try #require(page.messages.first)
        #expect(first.recipientID == me.id && first.other(than: me.id) == first.senderID)
        #expect(page.users.contains { $0.id == first.senderID && !$0.screenName.isEmpty }, "the sender is named")

        // Sent into the conversation: there at once, newest, from the account to the sender.
        let sent = try await client.sendMessage("See you there 🐦 & thanks", to: first.senderID, me: me)
        #expect(sent.senderID == me.id && sent.recipientID == first.senderID && sent.conversation == first.conversation)
        page = try await client.messages(me: me)
        #expect(page.messages.first?.id == sent.id && page.messages.first?.text == "See you there 🐦 & thanks")

        // A conversation the account began and nobody answered still names its person.
        let stranger = try #require(
            try await client.people(of: me, followers: false).users.last { u in
                !page.messages.contains { $0.senderID == u.id }
            })
        _ = try await client.sendMessage("Hello from Linnet", to: stranger.id, me: me)
        page = try await client.messages(me: me)
        #expect(page.users.contains { $0.id == stranger.id }, "the recipient was not looked up")

        // Many messages: every one read once, page after page.
        for n in 0..<120 {
            _ = try await sim.control("POST", "/_sim/message", body: "from=\(stranger.screenName)&text=number%20\(n)")
        }
        var seen: [UInt64] = []
        var next: String?
        var pages = 0
        repeat {
            let p = try await client.messages(me: me, next: next)
            seen += p.messages.map(\.id)
            next = p.next
            pages += 1
        } while next != nil && pages < 20
        #expect(seen.count == 125 && Set(seen).count == seen.count, "\(seen.count) read, \(Set(seen).count) distinct")
        #expect(pages == (api == .v2 ? 2 : 3))

        // Refusals: to oneself, and over X's 10,000 characters.
        await #expect(throws: APIError.self) { try await client.sendMessage("me", to: me.id, me: me) }
        do {
            _ = try await client.sendMessage(String(repeating: "a", count: 10_001), to: stranger.id, me: me)
            Issue.record("a message over the limit was accepted")
        } catch let e as APIError {
            #expect(!e.message.isEmpty && e.httpStatus >= 400)
        }
    }

    @Test func linksInAMessageShowTheirShortFormWholeAndTargetTheExpansion() throws {
        // The shape of X's Message Create Object documentation, with a t.co link whose indices
        // count code points, and an escape sequence a sender typed.
        let json = #"""
            {"type":"message_create","id":"1101","created_timestamp":"1700000000123",
             "message_create":{"target":{"recipient_id":"7"},"sender_id":"9","source_app_id":"268278",
              "message_data":{"text":"Look 🐦 https://t.co/abc \u001b[2J ok",
               "entities":{"hashtags":[],"symbols":[],"user_mentions":[],
                "urls":[{"url":"https://t.co/abc","expanded_url":"https://example.com/a/b","display_url":"example.com/a/b","indices":[7,23]}]}}}}
            """#
        let event = try JSONValue.parse(Data(json.utf8))
        let m = try #require(TwitterClient.v1Message(event))
        #expect(m.id == 1101 && m.senderID == UserID(9) && m.recipientID == UserID(7) && m.createdAtMs == 1_700_000_000_123)
        #expect(m.conversation == "7-9" && m.other(than: UserID(7)) == UserID(9))
        let d = m.displayText
        #expect(d.text == "Look 🐦 example.com/a/b  ok", "\(d.text)")
        #expect(d.highlights.count == 1 && d.highlights.first?.kind == .url(target: "https://example.com/a/b"))
        #expect(d.highlights.first?.range == 7..<22)
    }

    /// The engine: messages read when a messages pane opens, new ones on the next read, older
    /// pages on demand, a message sent held at once; what cannot succeed is refused unsent.
    @Test(arguments: TwitterClient.API.allCases) func theEngineKeepsTheMailbox(api: TwitterClient.API) async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let client = api == .v2 ? V2SyncTests.v2Client(sim) : sim.client
        let me = try await sim.client.verifyCredentials()
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.005)
        o.messagesInterval = 3600
        let store = TimelineStore()
        let engine = SyncEngine(client: client, store: store, account: me, options: o)
        defer { Task { await engine.stop() } }
        await engine.open(.messages)
        let loaded = await V2CostTests.eventually { await store.mailbox.loaded }
        #expect(loaded)
        var box = await store.mailbox
        #expect(box.conversations.count == 3 && box.unread == 3 && box.older == nil)
        #expect(box.conversations.allSatisfy { $0.other.flatMap { box.users[$0] } != nil }, "everyone is named")

        // A new message arrives; the next read finds it in its conversation.
        let ann = try #require(box.conversations.last.flatMap { box.person($0.id) })
        _ = try await sim.control("POST", "/_sim/message", body: "from=\(ann.screenName)&text=Are%20you%20there%3F")
        await engine.pollMessages()
        box = await store.mailbox
        #expect(box.conversations.first?.other == ann.id && box.conversations.first?.newest?.text == "Are you there?")
        #expect(box.unread == 4)

        // Sent: held at once, the conversation read.
        guard case .success(let sent) = await engine.sendMessage("On my way 🐦", to: ann.id) else {
            Issue.record("the message was not sent")
            return
        }
        box = await store.mailbox
        #expect(box.conversations.first?.newest == sent && box.conversations.first?.unread(me: me.id) == 0 && box.unread == 2)

        // Refused before any request: empty, too long, to oneself.
        let before = try await sim.requestCount()
        for (text, to) in [("  ", ann.id), (String(repeating: "é", count: 10_001), ann.id), ("hi", me.id)] {
            guard case .failure(let e) = await engine.sendMessage(text, to: to) else {
                Issue.record("sent: \(text.prefix(10))")
                continue
            }
            #expect(e.message.hasSuffix("Nothing was sent."), "\(e.message)")
        }
        #expect(try await sim.requestCount() == before)
        // Refused by the server: said in its words, nothing held.
        guard case .failure(let refused) = await engine.sendMessage("hello", to: UserID(999_999_999)) else {
            Issue.record("a message to nobody was accepted")
            return
        }
        #expect(refused.message.hasPrefix("The message was not sent: "))
        #expect(await store.mailbox.conversations.count == 3)

        // More than a page: the first read names where older ones begin; paging back reads
        // every one, each once.
        for n in 0..<110 { _ = try await sim.control("POST", "/_sim/message", body: "text=n\(n)") }
        let fresh = TimelineStore()
        let reader = SyncEngine(client: client, store: fresh, account: me, options: o)
        defer { Task { await reader.stop() } }
        await reader.open(.messages)
        let freshLoaded = await V2CostTests.eventually { await fresh.mailbox.loaded }
        #expect(freshLoaded)
        #expect(await fresh.mailbox.older != nil)
        var pages = 0
        while await reader.loadOlderMessages() { pages += 1 }
        let all = await fresh.mailbox.conversations.flatMap(\.messages)
        #expect(all.count == 3 + 2 + 110 && Set(all.map(\.id)).count == all.count && pages >= 1, "\(all.count) in \(pages) pages")
        #expect(await fresh.mailbox.older == nil)
        // A later read of the newest page does not send paging back to the start.
        await reader.pollMessages()
        #expect(await fresh.mailbox.older == nil)
    }

    @Test func aBearerTokenReadsNoMessagesAndSendsNone() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let c = sim.server.credentials
        let token = try await AppOnlyFlow(http: sim.client.http, apiBase: sim.server.baseURL).obtain(
            consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        let engine = SyncEngine(
            client: sim.client(auth: .bearer(token)), store: TimelineStore(),
            account: User(id: UserID(0), screenName: "reader", name: "reader"))
        let before = try await sim.requestCount()
        await engine.open(.messages)
        #expect(engine.board.status(.messages).lastError == SyncEngine.appOnlyMessages)
        guard case .failure(let e) = await engine.sendMessage("hi", to: UserID(5)) else { return }
        let older = await engine.loadOlderMessages()
        #expect(e.message == SyncEngine.appOnlyMessages && !older)
        #expect(try await sim.requestCount() == before)
        await engine.stop()
    }
}
