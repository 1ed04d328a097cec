import Foundation
import Testing
import TwitterAPI

extension TerminalTests {
    /// Direct messages under a real terminal on both APIs: the demo opens Messages with the
    /// waiting conversations, Enter shows one, a reply reaches the simulator, and a message that
    /// arrives afterwards shows on a refresh. A grapheme written around ncurses on Home does not
    /// stay behind when the pane changes.
    @Suite(.serialized) struct MessagesEndToEndTests {
        static func post(_ base: String, _ path: String, _ fields: [(String, String)]) async throws -> JSONValue {
            var r = HTTPRequest(method: "POST", url: base + path)
            r.headers = [("Content-Type", "application/x-www-form-urlencoded")]
            r.body = Data(PercentEncoding.formEncode(fields).utf8)
            return try JSONValue.parse(try await HTTPClient().send(r).body)
        }

        @Test(arguments: ["v1", "v2"]) func readReplyAndReceive(api: String) async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let demo = try await DemoEndToEndTests.Pane.start("dm", arguments: "--api \(api) --tweets-per-minute 0", width: 100, height: 30)
            defer { demo.end() }
            let tmux = demo.tmux
            let base = demo.base
            var (ok, screen) = try await tmux.wait(30) { $0.contains("✉ Messages (3)") && $0.contains("▌") }
            #expect(ok, "no messages tab:\n\(screen)")
            // Home gets a post whose family emoji a terminal may measure otherwise, on its second line: the
            // row the messages pane leaves blank between two conversations.
            let family = "👨‍👩‍👧"
            _ = try await Self.post(
                base, "/_sim/tweet", [("author", "ada"), ("text", String(repeating: "wide ", count: 12) + "\nand " + family)])
            (ok, screen) = try await tmux.wait(20) { $0.contains(family) || $0.contains("▲ ") }
            try await tmux.keys("g", "g")
            (ok, screen) = try await tmux.wait(20) { $0.contains(family) }
            #expect(ok, "the post did not show:\n\(screen)")

            try await tmux.keys("3")
            (ok, screen) = try await tmux.wait(10) { $0.contains("Saw a linnet today 🐦") && $0.contains("1 new") }
            #expect(ok, "the conversations are not listed:\n\(screen)")
            #expect(!screen.contains(family), "Home's grapheme stayed on the messages pane:\n\(screen)")
            try await tmux.keys("Enter")
            (ok, screen) = try await tmux.wait(10) { $0.contains("✉ @") && $0.contains("Messages (2)") }
            #expect(ok, "the conversation did not open (and was not marked read):\n\(screen)")
            try await tmux.keys("r")
            (ok, screen) = try await tmux.wait(10) { $0.contains("Message to @") && $0.contains(" 10000 ") }
            #expect(ok, "the message box did not open:\n\(screen)")
            try await tmux.type("On my way, 漢字 and all 🐦")
            _ = try await tmux.wait(10) { $0.contains("On my way, 漢字 and all 🐦") }
            try await tmux.keys("Enter")
            (ok, screen) = try await tmux.wait(15) { $0.contains("Message sent to @") && $0.contains("You · now") }
            #expect(ok, "not sent:\n\(screen)")

            // What the simulator holds: the message, from the demo account.
            let client = try await DemoEndToEndTests.simClient(base)
            let me = try await client.verifyCredentials()
            let page = try await client.messages(me: me)
            #expect(page.messages.first?.text == "On my way, 漢字 and all 🐦" && page.messages.first?.senderID == me.id)
            let other = try #require(page.messages.first?.recipientID.flatMap { id in page.users.first { $0.id == id } })

            // A new message from someone else: shown on a refresh, marked in the tab.
            try await tmux.keys("3")
            _ = try await Self.post(base, "/_sim/message", [("from", other.screenName), ("text", "Great, see you soon")])
            try await tmux.keys("R")
            (ok, screen) = try await tmux.wait(15) { $0.contains("Great, see you soon") && $0.contains("Messages (3)") }
            #expect(ok, "the new message did not arrive:\n\(screen)")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit:\n\(screen)")
        }
    }
}
