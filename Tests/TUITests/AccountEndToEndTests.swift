import Foundation
import Testing
import TwitterAPI
import TwitterSimulator

/// `linnet` (no command) for an account signed in with `linnet login`, under tmux: it opens the
/// reader, and the next start finds the last session's tweets in the cache (mode 0600).
@Suite(.serialized) struct AccountEndToEndTests {
    @Test func readerForASignedInAccountKeepsItsCache() async throws {
        guard let home = try await AccountHome.start("account-e2e") else { return }
        defer { Task { await home.stop() } }
        let (c, dir, vars) = (home.server.credentials, home.dir, home.variables)
        for name in ["first", "second"] {
            let (status, output) = try await home.linnet(["login", "--tokens", "--api-base", home.server.baseURL, "--consumer-key", c.consumerKey,
                                                          "--consumer-secret", c.consumerSecret, "--token", c.accessToken,
                                                          "--token-secret", c.accessTokenSecret, "--name", name])
            #expect(status == 0, "\(output)")
        }

        for launch in 1...2 {
            let tmux = try await Tmux.start("env \(vars) \(DemoEndToEndTests.binary); echo LINNET-EXITED=$?; sleep 60", width: 90, height: 26)
            defer { tmux.kill() }
            let (ok, screen) = try await tmux.wait(30) { $0.contains("@linnet_demo · Home: streaming") && $0.contains("▌") }
            #expect(ok, "launch \(launch): no timeline:\n\(screen)")
            if launch == 2 {
                // The switch key reads as the other account, with its own cache.
                try await tmux.keys("A")
                let (switched, now) = try await tmux.wait(20) { $0.contains("Now reading as \"first\"") && $0.contains("Home: streaming") }
                #expect(switched, "no switch:\n\(now)")
            }
            try await tmux.keys("q")
            let (exited, last) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(exited, "launch \(launch) did not quit cleanly:\n\(last)")
            let cache = dir + "/cache/linnet/second/timelines.cache"
            let mode = (try? FileManager.default.attributesOfItem(atPath: cache)[.posixPermissions] as? Int) ?? nil
            #expect(mode == 0o600, "launch \(launch): cache at \(cache) has mode \(String(describing: mode))")
        }
        #expect(FileManager.default.fileExists(atPath: dir + "/cache/linnet/first/timelines.cache"), "the switched-to account kept no cache")
    }
}
