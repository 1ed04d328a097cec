import Foundation
import LinnetTestSupport
import Testing
import Timeline
import TwitterAPI

/// The sync engine on a face in memory: no sockets, no simulator, the engine's decisions alone.
@Suite struct ScriptedFaceSyncTests {
    static let me = User(id: UserID(1), screenName: "me", name: "Me")
    static let ann = User(id: UserID(2), screenName: "ann", name: "Ann")

    static func tweet(_ id: UInt64, _ text: String) -> Tweet {
        Tweet(id: TweetID(id), createdAt: 1_795_000_000, user: ann, text: text)
    }

    static func engine(_ face: ScriptedFace) -> (SyncEngine, TimelineStore) {
        var o = SyncOptions()
        o.clock = ScaledClock(scale: 0.001)
        o.pageSize = 20
        let store = TimelineStore()
        return (SyncEngine(face: face, store: store, account: me, options: o), store)
    }

    @Test func pollsReadTheFaceAndBringWhatIsNew() async throws {
        let face = ScriptedFace()
        face.set(.home, [Self.tweet(10, "first"), Self.tweet(11, "second")])
        let (engine, store) = Self.engine(face)
        defer { Task { await engine.stop() } }
        await engine.open(.home)
        #expect(await V2CostTests.eventually { await store.view(.home).ids == [TweetID(11), TweetID(10)] })
        face.add(.home, Self.tweet(12, "third"))
        #expect(await V2CostTests.eventually { await store.view(.home).ids.first == TweetID(12) })
        // Nothing but pages of Home was asked for.
        #expect(face.calls.allSatisfy { $0 == "page home" })
        #expect(engine.board.status(.home).lastError == nil)
    }

    @Test func aLikeAnsweredWithAFlagSurvivesTheNextPoll() async throws {
        let face = ScriptedFace()
        face.set(.home, [Self.tweet(20, "like me")])
        let (engine, store) = Self.engine(face)
        defer { Task { await engine.stop() } }
        await engine.open(.home)
        #expect(await V2CostTests.eventually { await store.tweet(TweetID(20)) != nil })
        guard case .success(let liked) = await engine.perform(.like(TweetID(20))) else {
            Issue.record("the like failed")
            return
        }
        #expect(liked.isFavorited && face.liked == [TweetID(20)])
        // The face's pages carry no like flags; polls go on and the like stays shown.
        let polls = face.calls.count
        #expect(await V2CostTests.eventually { face.calls.count >= polls + 2 })
        #expect(await store.tweet(TweetID(20))?.isFavorited == true)
    }

    /// A page read before a like or repost and merged after it (another pane's first page
    /// holding the same post) does not undo them, on either kind of answer (v2's flag, v1.1's
    /// post); what only some posts carry stays with them.
    @Test(arguments: [false, true]) func aPageOnItsWayDoesNotUndoALikeOrARepost(answersWithPost: Bool) async throws {
        let face = ScriptedFace(answersWithPost: answersWithPost)
        let extras = TweetExtras(conversationID: TweetID(3), replySettings: "following")
        let post = Tweet(id: TweetID(40), createdAt: 1_795_000_000, user: Self.ann, text: "@me poll", extras: extras)
        face.set(.home, [post])
        face.set(.mentions, [post])
        face.set(.search("poll"), [post])
        let (engine, store) = Self.engine(face)
        defer { Task { await engine.stop() } }
        await engine.open(.home)
        #expect(await V2CostTests.eventually { await store.tweet(TweetID(40)) != nil })

        face.holdNextPage(of: .mentions)
        await engine.open(.mentions)
        #expect(await V2CostTests.eventually { face.pageIsWaiting })
        guard case .success = await engine.perform(.like(TweetID(40))) else {
            Issue.record("the like failed")
            return
        }
        #expect(await store.tweet(TweetID(40))?.isFavorited == true)
        #expect(await store.tweet(TweetID(40))?.extras == extras)
        face.letHeldPageGo()
        #expect(await V2CostTests.eventually { await store.view(.mentions).ids == [TweetID(40)] })
        #expect(await store.tweet(TweetID(40))?.isFavorited == true)
        // A v1.1 page read before the like counted without it: its count moves with the flag.
        if answersWithPost { #expect(await store.tweet(TweetID(40))?.favoriteCount == 1) }

        face.holdNextPage(of: .search("poll"))
        await engine.open(.search("poll"))
        #expect(await V2CostTests.eventually { face.pageIsWaiting })
        guard case .success = await engine.perform(.retweet(TweetID(40))) else {
            Issue.record("the repost failed")
            return
        }
        face.letHeldPageGo()
        #expect(await V2CostTests.eventually { await store.view(.search("poll")).ids.contains(TweetID(40)) })
        let held = await store.tweet(TweetID(40))
        #expect(held?.isRetweeted == true && held?.isFavorited == true)

        // A refused unlike puts the like back, for the pages to come too.
        face.failNext(APIError(httpStatus: 503, code: nil, message: "Over capacity"), call: "unlike")
        guard case .failure = await engine.perform(.unlike(TweetID(40))) else {
            Issue.record("the unlike went through despite the fault")
            return
        }
        #expect(await store.tweet(TweetID(40))?.isFavorited == true)
        face.set(.search("again"), [post])
        await engine.open(.search("again"))
        #expect(await V2CostTests.eventually { await store.view(.search("again")).ids == [TweetID(40)] })
        #expect(await store.tweet(TweetID(40))?.isFavorited == true)

        // Undone on another device: a v1.1 page asked for after the like says so and is kept;
        // v2 pages say nothing of it, and the session's like stays shown.
        face.setLikedElsewhere(false, TweetID(40))
        face.set(.search("later"), [post])
        await engine.open(.search("later"))
        #expect(await V2CostTests.eventually { await store.view(.search("later")).ids == [TweetID(40)] })
        #expect(await store.tweet(TweetID(40))?.isFavorited == !answersWithPost)
        #expect(await store.tweet(TweetID(40))?.isRetweeted == true)
    }

    @Test func aFailureIsSaidAndLosesNothingHeld() async throws {
        let face = ScriptedFace()
        face.set(.home, [Self.tweet(30, "kept")])
        let (engine, store) = Self.engine(face)
        defer { Task { await engine.stop() } }
        await engine.open(.home)
        #expect(await V2CostTests.eventually { await store.view(.home).ids == [TweetID(30)] })
        face.failNext(APIError(httpStatus: 503, code: nil, message: "Over capacity"))
        #expect(await V2CostTests.eventually { engine.board.status(.home).lastError?.contains("Over capacity") == true })
        #expect(await store.view(.home).ids == [TweetID(30)])
        // A 429 on any call of a page's read (a lookup on the way too) holds the pane's family
        // until the time named.
        let until = Int64(Date().timeIntervalSince1970) + 600
        face.failNext(APIError(httpStatus: 429, code: 88, message: "Rate limit exceeded", retryAt: until))
        #expect(await V2CostTests.eventually { engine.board.status(.home).lastError?.contains("Rate limit") == true })
        #expect(engine.client.rateLimits.schedule.refusedUntil(engine.face.family(.home)) == Double(until))
    }

    @Test func aPostAnsweredWithAnIdIsReadBackAndAnUnheldDeleteIsNotSent() async throws {
        let face = ScriptedFace()
        let (engine, store) = Self.engine(face)
        defer { Task { await engine.stop() } }
        guard case .success(let posted) = await engine.perform(.post("hello", inReplyTo: nil)) else {
            Issue.record("the post failed")
            return
        }
        #expect(posted.text == "hello" && face.calls == ["publish hello", "post \(posted.id)"])
        #expect(await store.view(.home).ids.contains(posted.id))
        guard case .failure(let e) = await engine.perform(.delete(TweetID(777))) else {
            Issue.record("an unheld delete was sent")
            return
        }
        #expect(e.reason == .notHeld && !face.calls.contains("delete 777"))
    }
}
