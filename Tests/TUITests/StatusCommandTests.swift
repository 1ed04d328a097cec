import Foundation
import Testing
import Timeline
import TwitterAPI

extension TerminalTests {
    /// `linnet status` prints the unread counts of the configured panes from the cache, with no
    /// network call (the simulator is stopped first), for tmux's status line.
    @Suite(.serialized) struct StatusCommandTests {
        @Test func unreadCountsComeFromTheCache() async throws {
            guard let home = try await AccountHome.start("status") else { return }
            defer { home.end() }
            let c = home.server.credentials
            let (status, output) = try await home.linnet([
                "login", "--tokens", "--api-base", home.server.baseURL, "--consumer-key", c.consumerKey, "--consumer-secret",
                c.consumerSecret,
                "--token", c.accessToken, "--token-secret", c.accessTokenSecret, "--name", "me",
            ])
            #expect(status == 0, "\(output)")
            await home.server.stop()
            // A cache as the reader leaves it: Home with 3 unread, Mentions all read.
            let ann = User(id: UserID(2), screenName: "ann", name: "Ann")
            var table = TweetTable()
            for id in 1...5 as ClosedRange<UInt64> { table[TweetID(id)] = Tweet(id: TweetID(id), createdAt: 0, user: ann, text: "t\(id)") }
            let home5 = TimelineView(ids: (1...5).reversed().map { TweetID(UInt64($0)) }, readMarker: TweetID(2))
            let mentions = TimelineView(ids: [TweetID(4)], readMarker: TweetID(4))
            try TimelineCache(directory: URL(fileURLWithPath: home.dir + "/cache/linnet/me")).save(
                TimelineSnapshot(version: 1, tweets: table, timelines: [.home: home5, .mentions: mentions]))
            let (code, line) = try await home.linnet(["status"])
            #expect(code == 0 && line.trimmingCharacters(in: .whitespacesAndNewlines) == "Home 3", "\(line)")
        }
    }
}
