import Foundation
import Locking
import TwitterAPI

/// An API face in memory, for testing the sync engine without sockets (the swift-nio habit of
/// driving a state machine by hand): feeds the test fills, writes it records, refusals it
/// throws on the next call. It answers like v2 (writes with a flag, a post with its id, no
/// like flags in pages), or with `answersWithPost` like v1.1 (likes and retweets with the post,
/// pages with the reader's flags). Its client is never called: its address is a closed port.
public final class ScriptedFace: APIFace, Sendable {
    public let client = TwitterClient(
        endpoints: .single("http://127.0.0.1:9"), auth: .user(OAuthCredentials(consumerKey: "k", consumerSecret: "s")))
    public let writesAnswerWithPost: Bool

    private struct State {
        var feeds: [Feed: [Tweet]] = [:]
        var calls: [String] = []
        var nextFailure: (any Error)?
        var failing: String?
        var liked: Set<TweetID> = []
        var reposted: Set<TweetID> = []
        var nextID: UInt64 = 9_000_000
        var holding: Feed?
        var waiting: CheckedContinuation<Void, Never>?
    }
    private let state = Locked(State())

    public init(answersWithPost: Bool = false) { writesAnswerWithPost = answersWithPost }

    /// The feed's next page is read at once and answered only at `letHeldPageGo()`: a page on
    /// its way while the test does something else.
    public func holdNextPage(of feed: Feed) { state.withLock { $0.holding = feed } }
    /// Whether a held page has been read and waits to be answered.
    public var pageIsWaiting: Bool { state.withLock { $0.waiting != nil } }
    public func letHeldPageGo() {
        let c = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.holding = nil
            defer { s.waiting = nil }
            return s.waiting
        }
        c?.resume()
    }

    /// Posts a feed holds, newest first whatever order they are given in.
    public func set(_ feed: Feed, _ tweets: [Tweet]) { state.withLock { $0.feeds[feed] = tweets.sorted { $0.id > $1.id } } }
    public func add(_ feed: Feed, _ tweet: Tweet) {
        state.withLock { $0.feeds[feed] = ([tweet] + ($0.feeds[feed] ?? [])).sorted { $0.id > $1.id } }
    }
    /// The next call (the next whose name starts with `call`, when given) throws this.
    public func failNext(_ error: any Error, call: String? = nil) {
        state.withLock {
            $0.nextFailure = error
            $0.failing = call
        }
    }
    /// A like set or undone elsewhere (another device): pages say so from now on.
    public func setLikedElsewhere(_ on: Bool, _ id: TweetID) {
        state.withLock {
            if on { $0.liked.insert(id) } else { $0.liked.remove(id) }
        }
    }
    /// Every call made, in order (`page home`, `like 5`, …).
    public var calls: [String] { state.withLock { $0.calls } }
    public var liked: Set<TweetID> { state.withLock { $0.liked } }

    private func call(_ name: String) throws {
        try state.withLock {
            $0.calls.append(name)
            if let e = $0.nextFailure, $0.failing.map({ name.hasPrefix($0) }) ?? true {
                $0.nextFailure = nil
                throw e
            }
        }
    }

    public var name: String { "scripted" }
    public var largestPage: Int? { 100 }
    public var hasUserStream: Bool { false }
    public var billsReads: Bool { false }
    public var pagesLikesAndListsByID: Bool { true }
    public func family(_ feed: Feed) -> String { "/scripted/\(feed)" }
    public var lookupFamily: String { "/scripted/lookup" }
    public var threadFamily: String { "/scripted/thread" }
    public var threadRepliesFamily: String { "/scripted/replies" }
    public var messagesFamily: String { "/scripted/messages" }
    public func refusedOnLevel(selfServe: Bool) -> (kinds: Set<WriteKind>, repliesOnlyWhereEngaged: Bool) { ([], false) }
    public func know(reader: User) {}

    public func page(_ feed: Feed, _ ask: PageAsk, me: UserID?) async throws -> FeedPage {
        try call("page \(feed)")
        let all = state.withLock { $0.feeds[feed] ?? [] }
        let picked = all.filter { t in ask.sinceID.map { t.id > $0 } ?? true && ask.maxID.map { t.id <= $0 } ?? true }
        // Read now, as the server would: a page held on its way keeps what was true when read.
        let page = writesAnswerWithPost ? picked.prefix(ask.count).map(flagged) : Array(picked.prefix(ask.count))
        if state.withLock({ $0.holding == feed }) {
            await withCheckedContinuation { c in
                let go = state.withLock { s -> Bool in
                    guard s.holding == feed else { return true }
                    s.holding = nil
                    s.waiting = c
                    return false
                }
                if go { c.resume() }
            }
        }
        return FeedPage(tweets: page)
    }

    public func rawItems(_ feed: Feed, _ ask: PageAsk, me: UserID?) async throws -> [JSONValue] {
        try await page(feed, ask, me: me).tweets.map { .object([("id", .string($0.id.description))]) }
    }

    public func post(_ id: TweetID) async throws -> Tweet? {
        try call("post \(id)")
        return state.withLock { s in s.feeds.values.lazy.flatMap { $0 }.first { $0.id == id } }
    }

    public func replies(to top: Tweet) async throws -> [Tweet] {
        try call("replies \(top.id)")
        return state.withLock { s in s.feeds.values.flatMap { $0 }.filter { $0.inReplyToStatusID == top.id } }
    }

    public func publish(_ draft: Draft) async throws -> Published {
        try call("publish \(draft.text)")
        let id = state.withLock {
            $0.nextID += 1
            return TweetID($0.nextID)
        }
        let tweet = Tweet(
            id: id, createdAt: Int64(Date().timeIntervalSince1970), user: User(id: UserID(1), screenName: "me", name: "Me"),
            text: draft.text, inReplyToStatusID: draft.replyTo)
        add(.home, tweet)
        return .id(id)
    }

    public func setLiked(_ on: Bool, _ id: TweetID, me: UserID) async throws -> Tweet? {
        try call("\(on ? "like" : "unlike") \(id)")
        state.withLock {
            if on { $0.liked.insert(id) } else { $0.liked.remove(id) }
        }
        return answer(id)
    }

    public func setRetweeted(_ on: Bool, _ id: TweetID, me: UserID) async throws -> Tweet? {
        try call("\(on ? "retweet" : "unretweet") \(id)")
        state.withLock {
            if on { $0.reposted.insert(id) } else { $0.reposted.remove(id) }
        }
        guard on, let original = answer(id) else { return answer(id) }
        // As v1.1 answers a retweet: the reader's new retweet, the post inside it.
        let rid = state.withLock {
            $0.nextID += 1
            return TweetID($0.nextID)
        }
        return Tweet(
            id: rid, createdAt: original.createdAt, user: User(id: me, screenName: "me", name: "Me"),
            text: "RT @\(original.user.screenName): \(original.text)", retweetedStatus: original, isRetweeted: true)
    }

    /// As v1.1 answers a like or an unretweet: the post with the reader's flags.
    private func answer(_ id: TweetID) -> Tweet? {
        guard writesAnswerWithPost, let t = state.withLock({ s in s.feeds.values.lazy.flatMap { $0 }.first { $0.id == id } }) else {
            return nil
        }
        return flagged(t)
    }

    /// A post as v1.1 sends it: with the reader's like and repost flags (counts with them).
    private func flagged(_ t: Tweet) -> Tweet {
        let (liked, reposted) = state.withLock { ($0.liked.contains(t.id), $0.reposted.contains(t.id)) }
        return Tweet(
            id: t.id, createdAt: t.createdAt, user: t.user, text: t.text, displayRange: t.displayRange, entities: t.entities,
            inReplyToStatusID: t.inReplyToStatusID, inReplyToUserID: t.inReplyToUserID, inReplyToScreenName: t.inReplyToScreenName,
            retweetedStatus: t.retweetedStatus, quotedStatus: t.quotedStatus, quotedStatusID: t.quotedStatusID,
            retweetCount: t.retweetCount + (reposted ? 1 : 0), favoriteCount: t.favoriteCount + (liked ? 1 : 0), isFavorited: liked,
            isRetweeted: reposted, isTruncated: t.isTruncated, lang: t.lang, extras: t.extras)
    }

    public func delete(_ id: TweetID) async throws -> Tweet? {
        try call("delete \(id)")
        state.withLock { s in for k in s.feeds.keys { s.feeds[k]?.removeAll { $0.id == id } } }
        return nil
    }
}
