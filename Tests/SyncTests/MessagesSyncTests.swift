import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

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
        let m = try #require(TwitterClient.v1MessageForTests(event))
        #expect(m.id == 1101 && m.senderID == UserID(9) && m.recipientID == UserID(7) && m.createdAtMs == 1_700_000_000_123)
        #expect(m.conversation == "7-9" && m.other(than: UserID(7)) == UserID(9))
        let d = m.displayText
        #expect(d.text == "Look 🐦 example.com/a/b  ok", "\(d.text)")
        #expect(d.highlights.count == 1 && d.highlights.first?.kind == .url(target: "https://example.com/a/b"))
        #expect(d.highlights.first?.range == 7..<22)
    }
}
