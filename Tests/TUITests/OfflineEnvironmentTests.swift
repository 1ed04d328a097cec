import Foundation
import Testing
import TwitterAPI
import TwitterSimulator

extension TerminalTests {
    /// Credentials from the environment: the cache is kept under the token's user id, and with the
    /// server out of reach the reader opens it and says it is offline, as it does for an account
    /// from `linnet login`.
    @Suite(.serialized) struct OfflineEnvironmentTests {
        @Test func environmentCredentialsOpenTheCacheOffline() async throws {
            guard let home = try await AccountHome.start("offline-env") else { return }
            defer { home.end() }
            let c = home.server.credentials
            let uid = try #require(
                TwitterAuth.user(OAuthCredentials(consumerKey: "", consumerSecret: "", token: c.accessToken, tokenSecret: "")).tokenUserID)
            func variables(_ base: String) -> String {
                "\(home.variables) LINNET_CONSUMER_KEY=\(c.consumerKey) LINNET_CONSUMER_SECRET=\(c.consumerSecret) "
                    + "LINNET_ACCESS_TOKEN=\(c.accessToken) LINNET_ACCESS_TOKEN_SECRET=\(c.accessTokenSecret) LINNET_API=v1.1"
            }
            // Online: the timeline arrives and is cached under the user's id.
            var tmux = try await Tmux.start(
                "env \(variables(home.server.baseURL)) \(DemoEndToEndTests.binary) --api-base \(home.server.baseURL); echo LINNET-EXITED=$?; sleep 60",
                width: 100, height: 26)
            var (ok, screen) = try await tmux.wait(30) { $0.contains("Home: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline online:\n\(screen)")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit:\n\(screen)")
            tmux.kill()
            let cache = home.dir + "/cache/linnet/id-\(uid)/timelines.cache"
            #expect(FileManager.default.fileExists(atPath: cache), "no cache at \(cache)")

            // Offline: nothing listens on port 9; the cache is shown with the reason.
            tmux = try await Tmux.start(
                "env \(variables("")) \(DemoEndToEndTests.binary) --api-base http://127.0.0.1:9; echo LINNET-EXITED=$?; sleep 60",
                width: 100,
                height: 26)
            defer { tmux.kill() }
            (ok, screen) = try await tmux.wait(30) { $0.contains("Home: offline") && $0.contains("▌") }
            #expect(ok, "the cache was not opened offline:\n\(screen)")
            #expect(!screen.contains("LINNET-EXITED"), "the reader exited:\n\(screen)")
            try await tmux.keys("q")
            (ok, screen) = try await tmux.wait(20) { $0.contains("LINNET-EXITED=0") }
            #expect(ok, "did not quit offline:\n\(screen)")
        }
    }
}
