import Foundation
import Testing
import TwitterAPI
import TwitterSimulator

extension TerminalTests {
    /// A person with a 2026 key, end to end under tmux against a self-serve simulator: `linnet
    /// login` (OAuth 2.0 PKCE, headless: the redirected address pasted back), then the reader on
    /// v2 reads Home and a search, replies to a mention, is refused a reply the access level
    /// forbids (X's words on screen), outlives an access token that stops working mid-session,
    /// and shows the cost the simulator billed.
    @Suite(.serialized) struct V2AccountEndToEndTests {
        @Test func signInReadReplyAndSeeTheCost() async throws {
            guard let home = try await AccountHome.start("v2-e2e", { $0.tier = .selfServe }) else { return }
            defer { home.end() }
            let base = home.server.baseURL
            let http = HTTPClient()
            func control(_ method: String, _ path: String, _ body: String = "") async throws -> JSONValue {
                var r = HTTPRequest(method: method, url: base + path)
                if method == "POST" {
                    r.headers = [("Content-Type", "application/x-www-form-urlencoded")]
                    r.body = Data(body.utf8)
                }
                return try JSONValue.parse(try await http.send(r).body)
            }
            let creds = try await control("GET", "/_sim/credentials")
            let clientID = try #require(creds["oauth2_client_id"]?.stringValue)

            // Sign in: the URL is printed, the consent page answers with a redirect, and its
            // address is pasted back.
            let login = try await Tmux.start(
                "env \(home.variables) \(DemoEndToEndTests.binary) login --headless --api-base \(base) --client-id \(clientID); echo LOGIN-EXITED=$?; sleep 60",
                width: 200, height: 30)
            defer { login.kill() }
            var (ok, screen) = try await login.wait(20) { $0.contains("Address (or code):") }
            #expect(ok, "no prompt for the address:\n\(screen)")
            let printed = try await login.joinedScreen()
            let url = try #require(
                printed.split(whereSeparator: \.isWhitespace).first { $0.contains("/i/oauth2/authorize?") }.map(String.init))
            let page = String(decoding: try await http.send(HTTPRequest(method: "GET", url: url)).body, as: UTF8.self)
            let request = try #require(page.firstMatch(of: /name="request" value="([^"]+)"/)?.1)
            var consent = HTTPRequest(method: "POST", url: base + "/i/oauth2/authorize")
            consent.headers = [("Content-Type", "application/x-www-form-urlencoded")]
            consent.body = Data(
                PercentEncoding.formEncode([
                    ("request", String(request)), ("session[username_or_email]", creds["screen_name"]?.stringValue ?? ""),
                    ("session[password]", creds["password"]?.stringValue ?? ""),
                ]).utf8)
            let answer = try await http.send(consent)
            let redirected = try #require(answer.headers["location"], "the consent page did not redirect: \(answer.status)")
            try await login.type(redirected)
            try await login.keys("Enter")
            (ok, screen) = try await login.wait(20) { $0.contains("LOGIN-EXITED=0") }
            #expect(ok, "login did not finish:\n\(screen)")
            #expect(screen.contains("(X API v2, OAuth 2.0)"))
            guard ok else { return }

            // The reader: Home and Mentions polled through v2, a search beside them.
            let reader = try await Tmux.start(
                "env \(home.variables) \(DemoEndToEndTests.binary) --search review; echo LINNET-EXITED=$?; sleep 60", width: 110,
                height: 32)
            defer { reader.kill() }
            (ok, screen) = try await reader.wait(30) {
                $0.contains("≈ $") && $0.contains("Home: polling") && $0.contains("Mentions: polling") && $0.contains("▌")
            }
            #expect(ok, "the reader did not open on v2:\n\(screen)")
            guard ok else { return }

            // A mention arrives (the refresh key polls at once), found by the search too; the
            // reply to it is sent.
            let me = creds["screen_name"]?.stringValue ?? ""
            _ = try await control("POST", "/_sim/tweet", "author=ada&text=please+review+this+%40\(me)")
            try await reader.keys("3")
            try await reader.keys("R")
            (ok, screen) = try await reader.wait(20) { $0.contains("Search: review: polling") && $0.contains("please review this") }
            #expect(ok, "the search did not find the post:\n\(screen)")
            try await reader.keys("2")
            try await reader.keys("R")
            (ok, screen) = try await reader.wait(30) { $0.contains("▲ 1 new") }
            try await reader.keys("g", "g")
            (ok, screen) = try await reader.wait(10) { $0.contains("please review this") }
            #expect(ok, "the mention did not arrive:\n\(screen)")
            try await reader.keys("r")
            try await reader.type("reviewed, looks good")
            // Enter after the text has been read, not in the same burst (which reads as a paste).
            _ = try await reader.wait(10) { $0.contains("reviewed, looks good") }
            try await reader.keys("Enter")
            (ok, screen) = try await reader.wait(20) { $0.contains("Reply sent") }
            #expect(ok, "the reply was not sent:\n\(screen)")

            // A post that does not mention us (found by the search): the access level forbids
            // the reply, and X says why.
            _ = try await control("POST", "/_sim/tweet", "author=ada&text=nobody+asked+me+to+review+this")
            try await reader.keys("3")
            try await reader.keys("R")
            (ok, screen) = try await reader.wait(30) { $0.contains("▲ ") || $0.contains("nobody asked me") }
            try await reader.keys("g", "g")
            (ok, screen) = try await reader.wait(10) { $0.contains("nobody asked me") }
            #expect(ok, "the post did not arrive:\n\(screen)")
            try await reader.keys("r")
            try await reader.type("uninvited")
            _ = try await reader.wait(10) { $0.contains("uninvited") }
            try await reader.keys("Enter")
            (ok, screen) = try await reader.wait(20) { $0.contains("Reply to this conversation is not allowed") }
            #expect(ok, "X's refusal is not on screen:\n\(screen)")
            #expect(screen.contains("uninvited"), "the draft is kept:\n\(screen)")
            try await reader.keys("Escape")

            // The access token stops working: the reader renews it and goes on, with no error shown.
            let tokensBefore = try await Self.count(control, path: "/2/oauth2/token")
            let expired = try await control("POST", "/_sim/expire_tokens")
            #expect((expired["expired"]?.intValue ?? 0) > 0)
            try await reader.keys("R")
            (ok, screen) = try await reader.wait(30) { _ in
                ((try? await Self.count(control, path: "/2/oauth2/token")) ?? 0) > tokensBefore
            }
            #expect(ok, "the token was not renewed:\n\(screen)")
            screen = try await reader.screen()
            #expect(!screen.contains("Unauthorized") && !screen.contains("log in again") && !screen.contains("offline"), "\(screen)")

            // The meter equals what the simulator billed (nothing new arrives, so both settle).
            var expected = ""
            (ok, screen) = try await reader.wait(
                30,
                until: { screen in
                    guard let cost = try? await control("GET", "/_sim/usage")["cost_usd"]?.doubleValue else { return false }
                    expected = "≈ " + String(format: cost < 0.01 ? "$%.3f" : "$%.2f", cost) + " today"
                    return screen.contains(expected)
                })
            #expect(ok, "the meter does not show the simulator's \(expected):\n\(screen)")

            // The refused reply is still a draft: quitting asks, and keeps it for next time.
            try await reader.keys("q")
            (ok, screen) = try await reader.wait(10) { $0.contains("Quit with an unsent draft?") }
            #expect(ok, "the kept draft was not mentioned:\n\(screen)")
            try await reader.keys("y")
            (ok, screen) = try await reader.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "the reader did not quit cleanly:\n\(screen)")
            // The ledger was saved on the way out: `linnet usage` agrees with the simulator.
            let (status, output) = try await home.linnet(["usage", "--json"])
            #expect(status == 0, "\(output)")
            let usage = try JSONValue.parse(Data(output.utf8))
            let billed = try await control("GET", "/_sim/usage")
            #expect(usage["today"]?["post_read"]?.intValue == billed["post_reads"]?.intValue, "\(output) vs \(billed.serialized)")
            #expect(usage["today"]?["post_create"]?.intValue == billed["posts_created"]?.intValue)
        }

        static func count(_ control: (String, String, String) async throws -> JSONValue, path: String) async throws -> Int {
            guard case .array(let log) = try await control("GET", "/_sim/requests", "") else { return 0 }
            return log.filter { $0["path"]?.stringValue == path && $0["status"]?.intValue == 200 }.count
        }
    }
}
