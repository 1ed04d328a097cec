import Foundation
import Testing
import TwitterAPI
import TwitterSimulator

extension TerminalTests {
    /// `linnet` (no command) for an account signed in with `linnet login`, under tmux: it opens the
    /// reader, and the next start finds the last session's tweets in the cache (mode 0600).
    @Suite(.serialized) struct AccountEndToEndTests {
        @Test func readerForASignedInAccountKeepsItsCache() async throws {
            guard let home = try await AccountHome.start("account-e2e") else { return }
            defer { home.end() }
            let (c, dir, vars) = (home.server.credentials, home.dir, home.variables)
            for name in ["first", "second"] {
                let (status, output) = try await home.linnet([
                    "login", "--tokens", "--api", "v1.1", "--api-base", home.server.baseURL, "--consumer-key", c.consumerKey,
                    "--consumer-secret", c.consumerSecret, "--token", c.accessToken,
                    "--token-secret", c.accessTokenSecret, "--name", name,
                ])
                #expect(status == 0, "\(output)")
            }

            for launch in 1...2 {
                let tmux = try await Tmux.start(
                    "env \(vars) \(DemoEndToEndTests.binary); echo LINNET-EXITED=$?; sleep 60", width: 90, height: 26)
                defer { tmux.kill() }
                let (ok, screen) = try await tmux.wait(30) { $0.contains("@linnet_demo · Home: streaming") && $0.contains("▌") }
                #expect(ok, "launch \(launch): no timeline:\n\(screen)")
                if launch == 2 {
                    // The switch key reads as the other account, with its own cache.
                    try await tmux.keys("A")
                    let (switched, now) = try await tmux.wait(20) {
                        $0.contains("Now reading as \"first\"") && $0.contains("Home: streaming")
                    }
                    #expect(switched, "no switch:\n\(now)")
                }
                try await tmux.keys("q")
                let (exited, last) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
                #expect(exited, "launch \(launch) did not quit cleanly:\n\(last)")
                let cache = dir + "/cache/linnet/second/timelines.cache"
                let mode = (try? FileManager.default.attributesOfItem(atPath: cache)[.posixPermissions] as? Int) ?? nil
                #expect(mode == 0o600, "launch \(launch): cache at \(cache) has mode \(String(describing: mode))")
            }
            #expect(
                FileManager.default.fileExists(atPath: dir + "/cache/linnet/first/timelines.cache"), "the switched-to account kept no cache"
            )
        }
    }

    /// Switching to an account whose secret comes from a program that asks on the terminal (a
    /// password manager): the reader hands the terminal back while it asks, then reads as it.
    @Suite(.serialized) struct SecretCommandSwitchTests {
        @Test func theSwitchKeyLetsASecretCommandAskOnTheTerminal() async throws {
            guard let home = try await AccountHome.start("secret-e2e") else { return }
            defer { home.end() }
            let c = home.server.credentials
            for name in ["first", "second"] {
                let (status, output) = try await home.linnet([
                    "login", "--tokens", "--api", "v1.1", "--api-base", home.server.baseURL, "--consumer-key", c.consumerKey,
                    "--consumer-secret", c.consumerSecret, "--token", c.accessToken,
                    "--token-secret", c.accessTokenSecret, "--name", name,
                ])
                #expect(status == 0, "\(output)")
            }
            #expect(try await home.linnet(["accounts", "use", "first"]).status == 0)
            // The second account's secret now comes from a program that asks for it.
            let ask = home.dir + "/ask.sh"
            try "#!/bin/sh\nprintf 'Passphrase for second: ' > /dev/tty\nread s < /dev/tty\nprintf '%s\\n' \"$s\"\n".write(
                toFile: ask, atomically: true, encoding: .utf8)
            chmod(ask, 0o700)
            let file = home.dir + "/config/linnet/accounts.toml"
            var text = try String(contentsOfFile: file, encoding: .utf8)
            let stored = "token_secret = \"\(c.accessTokenSecret)\""
            let last = try #require(text.range(of: stored, options: .backwards))
            text.replaceSubrange(last, with: "secret_command = \"\(ask)\"")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o600)

            let tmux = try await Tmux.start(
                "env \(home.variables) \(DemoEndToEndTests.binary); echo LINNET-EXITED=$?; sleep 60", width: 90, height: 26)
            defer { tmux.kill() }
            var (ok, screen) = try await tmux.wait(30) { $0.contains("@linnet_demo · Home: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline:\n\(screen)")
            try await tmux.keys("A")
            (ok, screen) = try await tmux.wait { $0.contains("Passphrase for second:") }
            #expect(ok, "the secret command did not get the terminal:\n\(screen)")
            #expect(try await tmux.display("#{alternate_on}") == "0", "the reader still held the screen while the command asked")
            try await tmux.type(c.accessTokenSecret)
            try await tmux.keys("Enter")
            (ok, screen) = try await tmux.wait {
                $0.contains("Now reading as \"second\"") && $0.contains("Home: streaming") && $0.contains("▌")
            }
            #expect(ok, "no switch after the passphrase:\n\(screen)")
            #expect(!screen.contains("Passphrase for second:"), "the reader did not redraw the whole screen:\n\(screen)")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit cleanly:\n\(screen)")
        }
    }
}
