import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// The demo world's photos and videos reach the reader on both faces, the same: kind, size and
/// alt text, the v1.1 media link hidden from the text as X hides it.
@Suite struct DemoMediaTests {
    @Test func mediaOfTheGeneratedWorldOnBothFaces() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let me = try await sim.client.verifyCredentials()
        let v1 = try await sim.client.homeTimeline(.init(count: 200)).tweets.filter { !$0.content.entities.media.isEmpty }
        let v2 = try await V2SyncTests.v2Client(sim).v2Home(userID: me.id, .init(maxResults: 100)).tweets
        try #require(!v1.isEmpty, "no post with files in the demo's home")
        let kinds = Set(v1.flatMap { $0.content.entities.media.map(\.type) })
        #expect(kinds.contains("photo") && kinds.contains("video"), "\(kinds)")
        for t in v1 {
            let m = t.content.entities.media
            #expect(m.allSatisfy { $0.width > 0 && $0.height > 0 })
            #expect(!t.content.displayText.text.contains("https://t.co/m"), "the media link shows: \(t.content.displayText.text)")
            if let same = v2.first(where: { $0.id == t.id }) {
                #expect(same.entities.media.map(\.type) == m.map(\.type) && same.entities.media.map(\.altText) == m.map(\.altText))
                #expect(same.entities.media.map(\.width) == m.map(\.width))
                // The page each file's link opens, and the text without the files' link.
                #expect(same.entities.media.map(\.target) == m.map(\.target))
                #expect(same.content.displayText.text == t.content.displayText.text)
                // v1.1's `video_info.duration_millis` and v2's `duration_ms`: the same length.
                #expect(same.entities.media.map(\.durationMs) == m.map(\.durationMs))
            }
        }
        #expect(v1.contains { $0.content.entities.media.contains { $0.altText != nil } }, "no alt text")
        let videos = v1.flatMap { $0.content.entities.media.filter { $0.type == "video" } }
        #expect(!videos.isEmpty && videos.allSatisfy { $0.durationMs > 0 }, "a video without its length")
        #expect(v1.allSatisfy { $0.content.entities.media.allSatisfy { $0.type == "video" || $0.durationMs == 0 } })
        #expect(v1.contains { t in v2.contains { $0.id == t.id } }, "the faces share no post with files to compare")
    }

    /// A quoted and a reposted post bring their files on v2 as on v1.1 (v2 sends them only
    /// with `referenced_tweets.id.attachments.media_keys`).
    @Test func filesOfQuotedAndRepostedPostsOnBothFaces() async throws {
        let sim = try await ClientHarness.start()
        defer { Task { await sim.stop() } }
        let me = try await sim.client.verifyCredentials()
        let home = try await sim.client.homeTimeline(.init(count: 200)).tweets
        let original = try #require(home.first { $0.retweetedStatus == nil && $0.quotedStatus == nil && !$0.entities.media.isEmpty })
        let v2 = V2SyncTests.v2Client(sim)
        _ = try await v2.v2Create(text: "Look at this", quote: original.id)
        _ = try await sim.client.retweet(original.id)
        let v1Home = try await sim.client.homeTimeline(.init(count: 200)).tweets
        let v2Home = try await v2.v2Home(userID: me.id, .init(maxResults: 100)).tweets
        for (name, pick) in [("quoted", { (t: Tweet) in t.quotedStatus }), ("reposted", { (t: Tweet) in t.retweetedStatus })] {
            let a = try #require(v1Home.lazy.compactMap(pick).first { $0.id == original.id }, "no \(name) post on v1.1")
            let b = try #require(v2Home.lazy.compactMap(pick).first { $0.id == original.id }, "no \(name) post on v2")
            #expect(!b.entities.media.isEmpty, "the \(name) post's files are missing on v2")
            #expect(b.entities.media.map(\.type) == a.entities.media.map(\.type), "\(name)")
            #expect(b.entities.media.map(\.mediaURL) == a.entities.media.map(\.mediaURL), "\(name)")
            #expect(b.entities.media.map(\.target) == a.entities.media.map(\.target), "\(name)")
            #expect(b.content.displayText.text == a.content.displayText.text, "\(name)")
        }
    }
}
