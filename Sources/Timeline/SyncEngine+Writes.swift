import Bedrock
import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// A change the user asks for.
public enum WriteAction: Sendable, Equatable {
    /// A post or reply, with files to upload first (nothing is posted if one fails), quoting a
    /// post when `quote` is set.
    case post(String, inReplyTo: TweetID?, media: [MediaFile] = [], quote: TweetID? = nil)
    case retweet(TweetID)
    case unretweet(TweetID)
    case like(TweetID)
    case unlike(TweetID)
    case delete(TweetID)

    /// What it is, in words, for messages ("Could not like the tweet: …").
    public var verb: String {
        switch self {
        case .post(_, let r, _, let q): return q != nil ? "post the quote" : r == nil ? "post the tweet" : "send the reply"
        case .retweet: return "retweet"
        case .unretweet: return "undo the retweet"
        case .like: return "like the tweet"
        case .unlike: return "unlike the tweet"
        case .delete: return "delete the tweet"
        }
    }

    /// Writes an access level allows or refuses together: a like and its undoing, a retweet
    /// and its undoing, posts, deletes.
    public enum Kind: Sendable, Hashable { case post, quote, retweet, like, delete, follow, mute, block }

    public var kind: Kind {
        switch self {
        case .post(_, _, _, let q): q == nil ? .post : .quote
        case .retweet, .unretweet: .retweet
        case .like, .unlike: .like
        case .delete: .delete
        }
    }
}

extension SyncEngine {
    /// Carries out a write. Likes, retweets and deletes show in the store at once and are undone
    /// if the server refuses; a post appears when the server has given it an id (the compose
    /// box keeps the text until then). Returns the server's tweet, or why it failed in words.
    public func perform(_ action: WriteAction) async -> Result<Tweet, SyncError> {
        if isAppOnly { return .failure(SyncError(Self.appOnlyWrites)) }
        if let words = refusedByAccessLevel[action.kind] {
            return .failure(SyncError("Could not \(action.verb): \(words) Nothing was sent.", status: 403))
        }
        var parent: Tweet?
        if case .post(_, let r?, _, _) = action, let held = await store.tweet(r) {
            parent = held
            if let why = ReplyRules.refusal(replyingTo: held, me: account, engagedOnly: repliesOnlyWhereEngaged) {
                return .failure(SyncError("Could not \(action.verb): \(why) Nothing was sent.", status: 403))
            }
        }
        do {
            return .success(try await run(action))
        } catch let e as SyncError {
            return .failure(e)
        } catch let e as APIError {
            // The refusal of a reply to a post open to everyone is the access level's rule.
            if e.tierRestriction == .replyNotAllowed, let p = parent, p.extras?.replySettings == nil {
                repliesOnlyWhereEngaged = true
            }
            // A post may be refused for what it is (a quote) rather than for being a post, so
            // only likes and retweets are remembered as refused outright.
            if e.tierRestriction == .notEnrolled, action.kind == .like || action.kind == .retweet || action.kind == .quote {
                refusedByAccessLevel[action.kind] = Self.words(e)
            }
            return .failure(SyncError("Could not \(action.verb): \(Self.words(e))", status: e.httpStatus))
        } catch {
            return .failure(SyncError("Could not \(action.verb): \(Self.words(error))"))
        }
    }

    private func run(_ action: WriteAction) async throws -> Tweet {
        switch action {
        case .post(let text, let reply, let media, let quote):
            // The reply's mentions are in the text the user saw and edited.
            let ids = try await upload(media)
            let tweet = try await posted(text, reply, mediaIDs: ids, quote: quote)
            var into: [TimelineID] = [.home]
            if opened.contains(.user(account.screenName)) { into.append(.user(account.screenName)) }
            if let reply, opened.contains(.thread(reply)) { into.append(.thread(reply)) }
            await store.add(tweet, to: into)
            return tweet
        case .like(let id), .unlike(let id):
            let like: Bool = if case .like = action { true } else { false }
            if client.api == .v2 {
                let me = account.id
                return try await toggle(
                    id, optimistic: { $0.with(favorited: like) },
                    v2: { target in
                        like ? try await self.client.v2Like(userID: me, target) : try await self.client.v2Unlike(userID: me, target)
                    })
            }
            return try await toggle(
                id, optimistic: { $0.with(favorited: like) },
                call: { target in like ? try await self.client.favorite(target) : try await self.client.unfavorite(target) })
        case .retweet(let id):
            if client.api == .v2 {
                // v2 answers with a flag, not the new retweet: the next poll brings it.
                let me = account.id
                return try await toggle(
                    id, optimistic: { $0.with(retweeted: true) }, v2: { try await self.client.v2Repost(userID: me, $0) })
            }
            let retweet = try await toggle(
                id, optimistic: { $0.with(retweeted: true) }, call: { target in try await self.client.retweet(target) })
            await store.add(retweet, to: [.home])
            return retweet
        case .unretweet(let id):
            let me = account.id
            let original =
                client.api == .v2
                ? try await toggle(id, optimistic: { $0.with(retweeted: false) }, v2: { try await self.client.v2Unrepost(userID: me, $0) })
                : try await toggle(
                    id, optimistic: { $0.with(retweeted: false) }, call: { target in try await self.client.unretweet(target) })
            // Our own retweet of it leaves the timelines.
            let snapshot = await store.snapshot()
            for (tid, t) in snapshot.tweets where t.retweetedStatus?.id == original.id && t.user.id == account.id {
                await store.delete(tid)
            }
            return original
        case .delete(let id):
            guard let held = await store.tweet(id) else {
                if client.api == .v2 { throw SyncError("Could not delete the tweet: it is not held here.") }
                return try await client.destroy(id)
            }
            guard held.user.id == account.id else { throw SyncError("Could not delete the tweet: it is not yours.") }
            let removed = await store.removeEverywhere(id)
            do {
                let gone: Tweet
                if client.api == .v2 {
                    try await client.v2Delete(id)
                    gone = held
                } else {
                    gone = try await client.destroy(id)
                }
                await store.delete(id)
                return gone
            } catch {
                if let removed { await store.add(removed.tweet, to: removed.timelines) }
                throw error
            }
        }
    }

    /// Posts through the client's API; on v2, which answers with an id, the post is read back.
    private func posted(_ text: String, _ reply: TweetID?, mediaIDs: [String], quote: TweetID?) async throws -> Tweet {
        guard client.api == .v2 else {
            // v1.1 quotes by `attachment_url`, which the text's length does not count.
            var url: String?
            if let quote { url = try await quoteURL(quote) }
            // v1.1 takes a reply only where it mentions the author, or where X fills in the
            // mentions: a reply to one's own tweet (a thread) mentions nobody, so X fills them in.
            var own = false
            if let reply { own = await store.tweet(reply)?.user.id == account.id }
            return try await client.update(
                text, inReplyTo: reply, autoPopulateReplyMetadata: own, mediaIDs: mediaIDs, attachmentURL: url)
        }
        let id = try await client.v2Create(text: text, replyTo: reply, quote: quote, mediaIDs: mediaIDs)
        guard let tweet = try await client.v2Lookup([id]).tweets.first else {
            throw SyncError("The tweet was posted (id \(id)) but could not be read back.")
        }
        return tweet
    }

    /// Uploads the files of a post in order, with their alt text; the board shows how far along
    /// it is. Any failure stops here, before anything is posted.
    private func upload(_ media: [MediaFile]) async throws -> [String] {
        guard !media.isEmpty else { return [] }
        defer { board.setUpload(nil) }
        var ids: [String] = []
        for (i, file) in media.enumerated() {
            board.setUpload(UploadStatus(file: i + 1, of: media.count, sent: 0, total: file.bytes))
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file.path))
            } catch {
                throw SyncError("Could not post: \(file.path) could not be read (\(error)). Nothing was posted.")
            }
            do {
                let board = self.board
                let n = media.count
                ids.append(
                    try await client.uploadMedia(data, mimeType: file.mimeType, altText: file.altText) { sent, total in
                        board.setUpload(UploadStatus(file: i + 1, of: n, sent: sent, total: total))
                    })
            } catch {
                let name = Path.lastComponent(file.path)
                throw SyncError(
                    "Could not upload \(name): \(Self.words(error)) Nothing was posted.", status: (error as? APIError)?.httpStatus)
            }
        }
        return ids
    }

    /// The address of a post to quote on v1.1 (its author's name is part of it).
    private func quoteURL(_ id: TweetID) async throws -> String {
        if let held = await store.tweet(id) { return "https://twitter.com/\(held.content.user.screenName)/status/\(id)" }
        return "https://twitter.com/\(try await client.show(id).user.screenName)/status/\(id)"
    }

    /// Keeps this session's like and repost flags for the polls to come (v2 does not send them).
    private func remember(_ t: Tweet) {
        if t.isFavorited { v2Liked.insert(t.id) } else { v2Liked.remove(t.id) }
        if t.isRetweeted { v2Reposted.insert(t.id) } else { v2Reposted.remove(t.id) }
    }

    /// On v2 a like or retweet answers with a flag: the change shown at once is kept when the
    /// call succeeds, and undone when it fails.
    private func toggle(_ id: TweetID, optimistic: (Tweet) -> Tweet, v2 call: @Sendable (TweetID) async throws -> Void) async throws
        -> Tweet
    {
        guard let held = await store.tweet(id) else {
            try await call(id)
            let done = optimistic(Tweet(id: id, createdAt: 0, user: account, text: ""))
            remember(done)
            return done
        }
        let changed = held.replacingContent(optimistic(held.content))
        // Remembered before the store hears of it (see `withSessionFlags`), forgotten on failure.
        remember(changed.content)
        await store.updateContent(changed.content)
        do {
            try await call(held.content.id)
            return changed.content
        } catch {
            remember(held.content)
            await store.updateContent(held.content)
            throw error
        }
    }

    /// Shows a like or retweet change at once on the tweet's content (inside a retweet too),
    /// calls the server, then keeps the server's answer or puts the old tweet back.
    private func toggle(_ id: TweetID, optimistic: (Tweet) -> Tweet, call: @Sendable (TweetID) async throws -> Tweet) async throws -> Tweet
    {
        guard let held = await store.tweet(id) else { return try await call(id) }
        let content = held.content
        await store.updateContent(optimistic(content))
        do {
            let answer = try await call(content.id)
            let fresh = answer.retweetedStatus.map { $0.id == content.id ? $0 : answer } ?? answer
            if fresh.id == content.id { await store.updateContent(fresh) }
            return answer
        } catch {
            await store.updateContent(content)
            throw error
        }
    }
}
