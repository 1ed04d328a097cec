import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI

@testable import Timeline

/// The cache on real files: round trip with recorded tweets, damage of every kind, and folders
/// that cannot be written.
@Suite struct TimelineCacheTests {
    func tempDir() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("linnet-cache-\(UUID().uuidString)")
    }

    func filledStore() async throws -> TimelineStore {
        let store = TimelineStore()
        let d = V1Decoder()
        let home = try d.timeline(from: try Fixtures.data("api/get_home_timeline.json")).tweets
        let mentions = try d.timeline(from: try Fixtures.data("api/get_mentions.json")).tweets
        await store.merge(page: home, into: .home, request: PageRequest(count: 20))
        await store.merge(page: mentions, into: .mentions, request: PageRequest(count: 200))
        await store.add(try d.tweet(from: try Fixtures.data("api/models_status_quoted_tweet.json")), to: [.search("mastodon")])
        await store.markRead(.home, upTo: home[5].id)
        await store.setAnchor(.home, at: home[3].id)
        return store
    }

    @Test func roundTripKeepsTweetsUsersAndReadingState() async throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let snapshot = try await filledStore().snapshot()
        let cache = TimelineCache(directory: dir)
        try cache.save(snapshot)
        let mode = try FileManager.default.attributesOfItem(atPath: cache.fileURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        guard case .loaded(let loaded) = cache.load() else {
            Issue.record("the cache did not load")
            return
        }
        #expect(loaded.timelines == snapshot.timelines)
        #expect(loaded.tweets.count == snapshot.tweets.count)
        for (id, t) in snapshot.tweets { #expect(loaded.tweets[id] == t, "tweet \(id) changed in the cache") }
        let restored = TimelineStore()
        await restored.restore(loaded)
        #expect(await restored.view(.home).anchor == snapshot.timelines[.home]?.anchor)
        #expect(await restored.snapshot().tweets(in: .search("mastodon")).first?.quotedStatus?.user.screenName == "kylesethgray")
    }

    @Test(arguments: ["flip", "truncate", "version", "garbage", "empty"])
    func damagedCachesAreSetAsideNotCrashedOn(damage: String) async throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = TimelineCache(directory: dir)
        try cache.save(try await filledStore().snapshot())
        var bytes = [UInt8](try Data(contentsOf: cache.fileURL))
        switch damage {
        case "flip": bytes[bytes.count / 2] ^= 0x40
        case "truncate": bytes = Array(bytes.prefix(bytes.count / 3))
        case "version": bytes[TimelineCache.magic.count] = 9
        case "garbage": bytes = Array("{\"not\": \"a cache\"}".utf8)
        default: bytes = []
        }
        try Data(bytes).write(to: cache.fileURL)
        guard case .setAside(let message) = cache.load() else {
            Issue.record("damage \(damage) was not noticed")
            return
        }
        #expect(message.contains("could not be read") && message.contains("starting fresh"))
        #expect(!FileManager.default.fileExists(atPath: cache.fileURL.path), "the bad file is moved aside")
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("unreadable") }
        #expect(aside.count == 1)
        if case .empty = cache.load() {} else { Issue.record("after setting aside, the cache is empty") }
    }

    @Test func unwritableFolderIsReportedInWords() async throws {
        let cache = TimelineCache(directory: URL(fileURLWithPath: "/dev/null/linnet/account"))
        do {
            try cache.save(try await filledStore().snapshot())
            Issue.record("saving under /dev/null must fail")
        } catch let e as CacheError {
            #expect(e.description == "the timeline cache was not saved: cannot create the folder /dev/null/linnet/account: Not a directory")
        }
        if case .empty = cache.load() {} else { Issue.record("no cache there") }
    }

    @Test func defaultFolderFollowsXDG() {
        #expect(
            TimelineCache.defaultDirectory(account: "ann", environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/ann"]).path
                == "/x/cache/linnet/ann")
        #expect(TimelineCache.defaultDirectory(account: "ann", environment: ["HOME": "/home/ann"]).path == "/home/ann/.cache/linnet/ann")
    }

    @Test func onlyTheNewestAreKeptAndTheRestBecomesAGap() async throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let snapshot = try await filledStore().snapshot()
        var cache = TimelineCache(directory: dir)
        cache.keepPerTimeline = 5
        try cache.save(snapshot)
        guard case .loaded(let loaded) = cache.load() else {
            Issue.record("not loaded")
            return
        }
        let home = try #require(loaded.timelines[.home])
        #expect(home.ids == Array(snapshot.timelines[.home]!.ids.prefix(5)))
        #expect(home.gapsBelow.contains(home.ids.last!))
    }
}
