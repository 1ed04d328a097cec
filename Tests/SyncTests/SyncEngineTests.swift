import Foundation
import LinnetCore
import LinnetTestSupport
import Testing
import TwitterAPI

@testable import Timeline

/// The sync engine against the simulator over loopback.
@Suite(.serialized) struct SyncEngineTests {
    func options(page: Int = 50, streams: Bool = true) -> SyncOptions {
        var o = SyncOptions()
        o.pageSize = page
        o.useStreams = streams
        return o
    }

    @Test func firstPageThenStreamedTweetsGoToTheRightTimelines() async throws {
        let h = try await SyncHarness.start(options: options())
        defer { Task { await h.stop() } }
        await h.engine.open(.home)
        await h.engine.open(.mentions)
        #expect(
            await h.eventually {
                let n = await h.held(.home).count
                return h.engine.board.status(.home).state == .streaming && n == 50
            })
        #expect(await h.held(.home) == Array(try await h.sim.truth("home").prefix(50)))

        // A mention from anyone, and tweets by whoever the simulator picks: each lands where
        // the server's own timelines put it.
        for i in 0..<12 {
            _ = try await h.sim.control("POST", "/_sim/tweet", body: i % 3 == 0 ? "mention_demo=1" : "")
        }
        let homeTruth = try await h.sim.truth("home")
        let mentionTruth = try await h.sim.truth("mentions")
        #expect(
            await h.eventually {
                let home = await h.held(.home)
                let mentions = await h.held(.mentions)
                return home.first == homeTruth.first && mentions.first == mentionTruth.first
            })
        let heldHome = await h.held(.home)
        #expect(heldHome == homeTruth.filter { TweetID($0)! >= TweetID(heldHome.last!)! })
        let heldMentions = await h.held(.mentions)
        #expect(heldMentions == mentionTruth.filter { TweetID($0)! >= TweetID(heldMentions.last!)! })
    }

    @Test func olderPagesUntilTheEnd() async throws {
        let h = try await SyncHarness.start(options: options(page: 4, streams: false))
        defer { Task { await h.stop() } }
        // The busiest author the demo user follows.
        let authors = try await h.sim.client.homeTimeline(.init(count: 200)).tweets.map(\.user.screenName)
        let name = Dictionary(authors.map { ($0, 1) }, uniquingKeysWith: +).max { $0.value < $1.value }!.key
        let tl = TimelineID.user(name)
        await h.engine.open(tl)
        let truth = try await h.sim.truth("user&user=\(name)")
        #expect(truth.count > 8)
        #expect(await h.eventually { (await h.held(tl)).count == 4 })
        while !h.engine.board.status(tl).reachedEnd {
            let before = await h.held(tl).count
            await h.engine.loadOlder(tl)
            let after = await h.held(tl).count
            if after == before && !h.engine.board.status(tl).reachedEnd {
                Issue.record("an older page added nothing: \(String(describing: h.engine.board.status(tl).lastError))")
                break
            }
        }
        #expect(await h.held(tl) == truth)
        #expect(await h.store.view(tl).gapsBelow.isEmpty)
    }

    @Test func refusedUserStreamFallsBackToPolling() async throws {
        let h = try await SyncHarness.start(options: options()) {
            $0.faults.statusFaults = [.init(path: "/1.1/user.json", status: 403, count: 50)]
        }
        defer { Task { await h.stop() } }
        await h.engine.open(.home)
        #expect(await h.eventually { h.engine.board.counters.fellBackToPolling })
        #expect(
            await h.eventually {
                if case .polling = h.engine.board.status(.home).state { return true } else { return false }
            })
        #expect(h.engine.board.status(.home).lastError?.contains("403") == true)
        #expect(await h.held(.home) == Array(try await h.sim.truth("home").prefix(50)))
    }

    @Test func spentBudgetIsExplainedAndWaitedFor() async throws {
        let h = try await SyncHarness.start(options: options(streams: false)) { $0.rateLimitWindowSeconds = 4 }
        defer { Task { await h.stop() } }
        // Spend the home window (15 requests) from outside the engine.
        for _ in 0..<15 { _ = try await h.sim.client.homeTimeline(.init(count: 1)) }
        guard case .wait(let seconds, let message) = await h.engine.refresh(.home) else {
            Issue.record("a refresh with no budget left was served")
            return
        }
        #expect(seconds >= 1 && seconds <= 4)
        #expect(message == "rate limited, next refresh in \(seconds) s")
        await h.engine.open(.home)
        #expect(
            await h.eventually {
                if case .rateLimited = h.engine.board.status(.home).state { return true } else { return false }
            })
        // The window turns over and the poll goes through without a 429 from the limiter.
        #expect(await h.eventually(15) { (await h.held(.home)).count == 50 })
        let limited = try await h.requests().filter { $0["status"]?.intValue == 429 }
        #expect(limited.isEmpty)
    }

    @Test func refusedLikeIsRolledBackWithWords() async throws {
        let h = try await SyncHarness.start(options: options())
        defer { Task { await h.stop() } }
        await h.engine.open(.home)
        #expect(await h.eventually { (await h.held(.home)).count == 50 })
        let snapshot = await h.store.snapshot()
        guard let target = snapshot.tweets(in: .home).first(where: { !$0.content.isFavorited && $0.retweetedStatus == nil }) else {
            Issue.record("no unliked tweet to like")
            return
        }
        try await h.faults(#"{"statusFaults": [{"path": "/1.1/favorites/create", "status": 503, "count": 1}]}"#)
        let refused = await h.engine.perform(.like(target.id))
        guard case .failure(let e) = refused else {
            Issue.record("the like went through despite the fault")
            return
        }
        #expect(e.message.hasPrefix("Could not like the tweet:"))
        #expect(e.status == 503)
        #expect(await h.store.tweet(target.id)?.isFavorited == false)
        #expect(await h.store.tweet(target.id)?.favoriteCount == target.favoriteCount)

        guard case .success(let liked) = await h.engine.perform(.like(target.id)) else {
            Issue.record("the second like failed")
            return
        }
        #expect(liked.isFavorited)
        #expect(await h.store.tweet(target.id)?.isFavorited == true)
        #expect(await h.store.tweet(target.id)?.favoriteCount == target.favoriteCount + 1)
        guard case .success = await h.engine.perform(.unlike(target.id)) else {
            Issue.record("unlike failed")
            return
        }
        #expect(await h.store.tweet(target.id)?.isFavorited == false)
    }

    @Test func postReplyRetweetAndDelete() async throws {
        let h = try await SyncHarness.start(options: options())
        defer { Task { await h.stop() } }
        await h.engine.open(.home)
        #expect(await h.eventually { (await h.held(.home)).count == 50 })
        let other = await h.store.snapshot().tweets(in: .home).first { $0.user.screenName != "linnet_demo" && $0.retweetedStatus == nil }!

        guard case .success(let reply) = await h.engine.perform(.post("@\(other.user.screenName) agreed", inReplyTo: other.id)) else {
            Issue.record("the reply failed")
            return
        }
        #expect(reply.inReplyToStatusID == other.id)
        #expect(await h.store.view(.home).ids.first == reply.id)
        #expect(try await h.sim.truth("user").first == reply.id.description)

        guard case .success(let rt) = await h.engine.perform(.retweet(other.id)) else {
            Issue.record("the retweet failed")
            return
        }
        #expect(rt.retweetedStatus?.id == other.id)
        #expect(await h.store.tweet(other.id)?.isRetweeted == true)
        guard case .success = await h.engine.perform(.unretweet(other.id)) else {
            Issue.record("the unretweet failed")
            return
        }
        #expect(await h.store.tweet(rt.id) == nil)
        #expect(await h.store.tweet(other.id)?.isRetweeted == false)

        // A refused delete puts the tweet back; an accepted one removes it everywhere.
        try await h.faults(#"{"statusFaults": [{"path": "/1.1/statuses/destroy", "status": 500, "count": 1}]}"#)
        guard case .failure(let e) = await h.engine.perform(.delete(reply.id)) else {
            Issue.record("the delete went through despite the fault")
            return
        }
        #expect(e.message.hasPrefix("Could not delete the tweet:"))
        #expect(await h.store.view(.home).ids.contains(reply.id))
        guard case .success = await h.engine.perform(.delete(reply.id)) else {
            Issue.record("the delete failed")
            return
        }
        #expect(await !h.store.view(.home).ids.contains(reply.id))
        #expect(try await !h.sim.truth("user").contains(reply.id.description))
        guard case .failure(let notMine) = await h.engine.perform(.delete(other.id)) else {
            Issue.record("deleted someone else's tweet")
            return
        }
        #expect(notMine.message == "Could not delete the tweet: it is not yours.")
    }

    @Test func trackPhrasesOnlyForPlainQueries() {
        #expect(SyncEngine.trackPhrase("Linnet Swift") == "linnet swift")
        #expect(SyncEngine.trackPhrase("from:jack") == nil)
        #expect(SyncEngine.trackPhrase("cats -dogs") == nil)
        #expect(SyncEngine.trackPhrase("cats OR dogs") == nil)
        #expect(SyncEngine.trackPhrase("\"exact phrase\"") == nil)
    }
}
