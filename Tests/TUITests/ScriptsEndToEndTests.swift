import Foundation
import Testing
import TwitterAPI
import TwitterSimulator

extension TerminalTests {
    /// A tweet in many scripts reaches a real terminal whole: under tmux (which advances per
    /// scalar), every scalar of Devanagari, Bengali, Tamil, Thai, Arabic with marks, Hangul,
    /// emoji sequences and flags is on the captured pane, and the rows after it are where they
    /// belong.
    @Suite(.serialized) struct ScriptsEndToEndTests {
        static let text = "नमस्ते दुनिया हिन्दी ক্ষমা বাংলা ஸ்ரீ தமிழ் ก่อน ภาษาไทย بِسْمِ 한국어 👩🏽‍💻 👍🏽 🇯🇵 1️⃣ END"

        @Test func everyScalarOfEveryScriptIsOnScreen() async throws {
            guard let home = try await AccountHome.start("scripts-e2e") else { return }
            defer { home.end() }
            let c = home.server.credentials
            let (status, output) = try await home.linnet([
                "login", "--tokens", "--api", "v1.1", "--api-base", home.server.baseURL, "--consumer-key", c.consumerKey,
                "--consumer-secret",
                c.consumerSecret,
                "--token", c.accessToken, "--token-secret", c.accessTokenSecret,
            ])
            #expect(status == 0, "\(output)")
            let tmux = try await Tmux.start(
                "env \(home.variables) \(DemoEndToEndTests.binary); echo LINNET-EXITED=$?; sleep 60", width: 100, height: 30)
            defer { tmux.kill() }
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Mentions: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline:\n\(screen)")
            try await tmux.keys("2")
            var post = HTTPRequest(method: "POST", url: home.server.baseURL + "/_sim/tweet")
            post.headers = [("Content-Type", "application/x-www-form-urlencoded")]
            post.body = Data(PercentEncoding.formEncode([("author", "ada"), ("mention_demo", "1"), ("text", Self.text)]).utf8)
            #expect(try await HTTPClient().send(post).status == 200)
            (ok, screen) = try await tmux.wait(20) { $0.contains("▲ 1 new") || $0.contains("END") }
            try await tmux.keys("g", "g")
            // Every scalar, in order: the terminal may draw a cluster narrower than the cells
            // Linnet kept for it, so only the blanks between them may differ. (Graphemes written
            // around ncurses follow its output by a moment: the screen is read until they are in.)
            func letters(_ s: String) -> [Unicode.Scalar] { s.unicodeScalars.filter { $0 != " " && $0 != "\n" } }
            let all = letters(Self.text)
            (ok, screen) = try await tmux.wait(10) { screen in
                screen.contains("END") && screen.contains("@ada") && letters(screen).count >= all.count
                    && Array(letters(screen).drop { $0 != all.first! }.prefix(all.count)) == all
            }
            #expect(ok, "the tweet did not arrive whole:\n\(screen)")
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // (Searched by scalars: "स्" alone is not a whole grapheme of "नमस्ते".)
            let start = try #require(
                lines.firstIndex { $0.unicodeScalars.map(\.value).contains(0x928) }, "the text is not on screen:\n\(screen)")
            let end = try #require(lines[start...].firstIndex { $0.contains("END") })
            let shown = lines[start...end].joined(separator: " ")
            let wanted = letters(Self.text)
            let got = letters(shown).drop { $0 != wanted.first! }.prefix(wanted.count)
            #expect(Array(got) == wanted, "on screen:\n\(lines[start...end].joined(separator: "\n"))")
            // The rows after it are unshifted: the card after starts at the gutter, and the status
            // bar still ends with the help hint at the right edge.
            let next = lines[(end + 1)...].first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            #expect(next.hasPrefix("  ") && !next.hasPrefix("   "), "the next card moved: \(next)")
            let bar = lines.last { $0.contains("@linnet_demo ·") } ?? ""
            #expect(bar.hasSuffix("? help") || bar.hasSuffix("? help "), "the status bar moved: \(bar)")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit:\n\(screen)")
        }
    }
}
