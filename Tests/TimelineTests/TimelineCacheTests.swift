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

    /// `n` tweets in home, newest first: the recorded home timeline over and over, each with
    /// an id of its own (its user and entities as recorded).
    func bigSnapshot(_ n: Int) async throws -> TimelineSnapshot {
        let home = try V1Decoder().timeline(from: try Fixtures.data("api/get_home_timeline.json")).tweets
        let tweets = (0..<n).map { i in
            let t = home[i % home.count]
            return Tweet(
                id: TweetID(UInt64(10_000 + n - i)), createdAt: t.createdAt, user: t.user, text: t.text, displayRange: t.displayRange,
                entities: t.entities, inReplyToScreenName: t.inReplyToScreenName, quotedStatus: t.quotedStatus, lang: t.lang)
        }
        let store = TimelineStore(cap: n)
        await store.merge(page: tweets, into: .home, request: PageRequest(count: n))
        await store.add(tweets[7], to: [.mentions])
        return await store.snapshot()
    }

    @Test func theHeadIsReadAloneAndTheRestAfterIt() async throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let snapshot = try await bigSnapshot(600)
        let cache = TimelineCache(directory: dir, keepPerTimeline: 600)
        try cache.save(snapshot)
        let bytes = [UInt8](try Data(contentsOf: cache.fileURL))
        let expectedHome = Array(snapshot.timelines[.home]!.ids.prefix(TimelineCache.headPerTimeline))
        func checkHead(_ result: TimelineCache.LoadResult) {
            guard case .loaded(let head) = result else {
                Issue.record("the head did not load: \(result)")
                return
            }
            #expect(head.timelines[.home]?.ids == expectedHome)
            #expect(head.timelines[.mentions]?.ids == snapshot.timelines[.mentions]?.ids)
            #expect(head.tweets.count == expectedHome.count)
            for id in expectedHome { #expect(head.tweets[id] == snapshot.tweets[id]) }
        }
        checkHead(cache.load(headOnly: true))
        guard case .loaded(let all) = cache.load() else {
            Issue.record("the whole cache did not load")
            return
        }
        #expect(all.timelines == snapshot.timelines)
        #expect(all.tweets.count == 600)
        // Cut right after the head: the head still loads; the whole file is damaged and set aside.
        let headEnd = try #require(TimelineCache.headEnd(bytes))
        #expect(headEnd < bytes.count / 2)
        try Data(bytes.prefix(headEnd)).write(to: cache.fileURL)
        checkHead(cache.load(headOnly: true))
        guard case .setAside(let why) = cache.load() else {
            Issue.record("a cache without its rest was read whole")
            return
        }
        #expect(why.contains("ends early"))
    }

    @Test func eachUserIsWrittenOnce() async throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let snapshot = try await bigSnapshot(600)
        let cache = TimelineCache(directory: dir, keepPerTimeline: 600)
        try cache.save(snapshot)
        let file = try Data(contentsOf: cache.fileURL)
        // The distinct versions of each user the tweets carry (a quoted tweet may carry an
        // older copy of a profile): each is in the file once, however many tweets name it.
        var versions: [UserID: [User]] = [:]
        for (_, t) in snapshot.tweets {
            for u in [t.user, t.quotedStatus?.user].compactMap({ $0 }) where !(versions[u.id]?.contains(u) ?? false) {
                versions[u.id, default: []].append(u)
            }
        }
        var checked = 0
        for (_, vs) in versions {
            let d = vs[0].userDescription
            guard d.utf8.count >= 24, vs.allSatisfy({ $0.userDescription == d }) else { continue }
            var found = 0
            var from = file.startIndex
            while let r = file.range(of: Data(d.utf8), in: from..<file.endIndex) {
                found += 1
                from = r.upperBound
            }
            #expect(found == vs.count, "@\(vs[0].screenName)")
            checked += 1
        }
        #expect(checked >= 1, "the recorded home timeline has a user with a long description")
    }

    /// Files earlier formats wrote (kept in the fixtures) are read as they were written.
    @Test(arguments: [4, 5, 6, 7]) func anEarlierFormatIsStillRead(_ format: Int) async throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = TimelineCache(directory: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Fixtures.data("cache/timelines-format\(format).cache").write(to: cache.fileURL)
        let expected = try await filledStore().snapshot()
        guard case .loaded(let loaded) = cache.load() else {
            Issue.record("the format \(format) cache did not load")
            return
        }
        #expect(loaded.timelines == expected.timelines)
        #expect(loaded.tweets.count == expected.tweets.count)
        // Before format 7 a video's length was not kept (the recorded home timeline has one).
        let lengths = expected.tweets.filter { $0.1.content.entities.media.contains { $0.durationMs > 0 } }.count
        #expect(lengths >= 1)
        for (id, t) in expected.tweets { #expect(loaded.tweets[id] == (format < 7 ? Self.withoutLengths(t) : t), "tweet \(id)") }
        guard case .loaded(let head) = cache.load(headOnly: true) else {
            Issue.record("its head did not load")
            return
        }
        #expect(head.timelines[.home]?.ids == expected.timelines[.home]?.ids)
        // Saved again, it is the current format and reads back the same.
        try cache.save(loaded)
        #expect(TimelineCache.headEnd([UInt8](try Data(contentsOf: cache.fileURL))) != nil)
        guard case .loaded(let again) = cache.load() else {
            Issue.record("the rewritten cache did not load")
            return
        }
        for (id, t) in expected.tweets { #expect(again.tweets[id] == (format < 7 ? Self.withoutLengths(t) : t), "tweet \(id)") }
    }

    /// The tweet as a cache before format 7 kept it: its videos' lengths unknown.
    static func withoutLengths(_ t: Tweet) -> Tweet {
        var e = t.entities
        for i in e.media.indices { e.media[i].durationMs = 0 }
        return Tweet(
            id: t.id, createdAt: t.createdAt, user: t.user, text: t.text, displayRange: t.displayRange, entities: e,
            inReplyToStatusID: t.inReplyToStatusID, inReplyToUserID: t.inReplyToUserID, inReplyToScreenName: t.inReplyToScreenName,
            retweetedStatus: t.retweetedStatus.map(withoutLengths), quotedStatus: t.quotedStatus.map(withoutLengths),
            quotedStatusID: t.quotedStatusID, retweetCount: t.retweetCount, favoriteCount: t.favoriteCount, isFavorited: t.isFavorited,
            isRetweeted: t.isRetweeted, isTruncated: t.isTruncated, lang: t.lang, extras: t.extras)
    }

    /// The check values of both polynomials (CRC catalogue: "123456789"), and the processor's
    /// instruction against the table on every length and alignment up to 40 bytes.
    @Test func checksumsMatchTheirStandardCheckValues() {
        let nine = Array("123456789".utf8)
        #expect(CRC32.of(nine) == 0xCBF4_3926)
        #expect(CRC32.castagnoli(nine) == 0xE306_9283)
        #expect(CRC32.castagnoliByTable(nine) == 0xE306_9283)
        let bytes = (0..<48).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for from in 0..<8 {
            for n in 0...40 {
                #expect(CRC32.castagnoli(bytes, from: from, count: n) == CRC32.castagnoliByTable(Array(bytes[from..<from + n])))
            }
        }
    }
}
