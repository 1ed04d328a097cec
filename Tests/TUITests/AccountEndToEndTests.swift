import Foundation
import Testing
import TwitterAPI
import TwitterSimulator

/// `linnet` (no command) for an account signed in with `linnet login`, under tmux: it opens the
/// reader, and the next start finds the last session's tweets in the cache (mode 0600).
@Suite(.serialized) struct AccountEndToEndTests {
    @Test func readerForASignedInAccountKeepsItsCache() async throws {
        guard FileManager.default.isExecutableFile(atPath: DemoEndToEndTests.binary) else {
            Issue.record("\(DemoEndToEndTests.binary) is missing: build it first (make test does)")
            return
        }
        var config = SimulatorConfiguration.quiet
        config.keepAliveSeconds = 1
        let server = try await SimulatorServer.start(config)
        defer { Task { await server.stop() } }
        let c = server.credentials
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-account-e2e-\(getpid())-\(Int.random(in: 0..<1_000_000))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var env = childEnvironment.filter { !$0.key.hasPrefix("LINNET_") }
        env["XDG_CONFIG_HOME"] = dir + "/config"
        env["XDG_CACHE_HOME"] = dir + "/cache"
        env["XDG_STATE_HOME"] = dir + "/state"
        for name in ["first", "second"] {
            let (status, output) = try await runProcess(DemoEndToEndTests.binary, ["login", "--tokens", "--api-base", server.baseURL, "--consumer-key", c.consumerKey,
                                            "--consumer-secret", c.consumerSecret, "--token", c.accessToken, "--token-secret", c.accessTokenSecret,
                                            "--name", name], environment: env)
            #expect(status == 0, "\(output)")
        }

        let vars = "XDG_CONFIG_HOME=\(dir)/config XDG_CACHE_HOME=\(dir)/cache XDG_STATE_HOME=\(dir)/state"
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
