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

    public typealias Kind = WriteKind

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
        let doing = SyncError.Doing.write(action)
        if isAppOnly { return .failure(SyncError(.appOnly, doing: doing)) }
        if let words = refusedByAccessLevel[action.kind] {
            return .failure(SyncError(.accessLevel(words), doing: doing, status: 403))
        }
        var parent: Tweet?
        if case .post(_, let r?, _, _) = action, let held = await store.tweet(r) {
            parent = held
            if let why = ReplyRules.refusal(replyingTo: held, me: account, engagedOnly: repliesOnlyWhereEngaged) {
                return .failure(SyncError(.replyRule(why), doing: doing, status: 403))
            }
        }
        do {
            return .success(try await run(action))
        } catch let e as SyncError {
            return .failure(SyncError.failed(e, doing: doing))
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
            return .failure(SyncError.failed(e, doing: doing))
        } catch {
            return .failure(SyncError.failed(error, doing: doing))
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
            return try await toggle(
                id, favorited: like, call: { [face, me = account.id] in try await face.setLiked(like, $0, me: me) }
            )
        case .retweet(let id):
            let retweet = try await toggle(
                id, retweeted: true,
                call: { [face, me = account.id] in try await face.setRetweeted(true, $0, me: me) })
            // Where the answer is only a flag, the next poll brings the retweet.
            if face.writesAnswerWithPost { await store.add(retweet, to: [.home]) }
            return retweet
        case .unretweet(let id):
            let original = try await toggle(
                id, retweeted: false,
                call: { [face, me = account.id] in try await face.setRetweeted(false, $0, me: me) })
            // Our own retweet of it leaves the timelines.
            let snapshot = await store.snapshot()
            for (tid, t) in snapshot.tweets where t.retweetedStatus?.id == original.id && t.user.id == account.id {
                await store.delete(tid)
            }
            return original
        case .delete(let id):
            guard let held = await store.tweet(id) else {
                // Deleted unseen only where the answer says what was deleted.
                guard face.writesAnswerWithPost, let gone = try await face.delete(id) else {
                    throw SyncError(.notHeld)
                }
                return gone
            }
            guard held.user.id == account.id else { throw SyncError(.notYours) }
            let removed = await store.removeEverywhere(id)
            do {
                let gone = try await face.delete(id) ?? held
                await store.delete(id)
                return gone
            } catch {
                if let removed { await store.add(removed.tweet, to: removed.timelines) }
                throw error
            }
        }
    }

    /// Posts through the face; a post answered with its id only is read back.
    private func posted(_ text: String, _ reply: TweetID?, mediaIDs: [String], quote: TweetID?) async throws -> Tweet {
        // A reply to one's own tweet (a thread) mentions nobody: the server fills in the mentions.
        var own = false
        if let reply { own = await store.tweet(reply)?.user.id == account.id }
        var quotedAuthor: String?
        if let quote { quotedAuthor = await store.tweet(quote)?.content.user.screenName }
        let draft = Draft(text: text, replyTo: reply, fillInMentions: own, mediaIDs: mediaIDs, quote: quote, quotedAuthor: quotedAuthor)
        switch try await face.publish(draft) {
        case .tweet(let tweet): return tweet
        case .id(let id):
            guard let tweet = try await face.post(id) else {
                throw SyncError(.postedButUnread(id))
            }
            return tweet
        }
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
                throw SyncError(.unreadableFile(path: file.path, why: "\(error)"))
            }
            do {
                let board = self.board
                let n = media.count
                ids.append(
                    try await client.uploadMedia(data, mimeType: file.mimeType, altText: file.altText) { sent, total in
                        board.setUpload(UploadStatus(file: i + 1, of: n, sent: sent, total: total))
                    })
            } catch {
                throw SyncError(
                    .uploadFailed(file: Path.lastComponent(file.path), why: Self.words(error)), status: (error as? APIError)?.httpStatus)
            }
        }
        return ids
    }

    /// Shows a like or retweet change at once on the tweet's content (inside a retweet too),
    /// calls the server, then keeps the server's answer (or, answered with a flag, the change
    /// shown), or puts the old tweet back. This session's state is kept for the copies to come
    /// (see `withSessionFlags`): set before the store hears of it, put back on failure.
    private func toggle(
        _ id: TweetID, favorited: Bool? = nil, retweeted: Bool? = nil, call: @Sendable (TweetID) async throws -> Tweet?
    ) async throws -> Tweet {
        let held = await store.tweet(id)
        let target = held?.content.id ?? id
        let before = (sessionLiked[target], sessionReposted[target])
        writes += 1
        if let favorited { sessionLiked[target] = SessionFlag(on: favorited, write: writes) }
        if let retweeted { sessionReposted[target] = SessionFlag(on: retweeted, write: writes) }
        func forget() { (sessionLiked[target], sessionReposted[target]) = before }
        guard let content = held?.content else {
            do {
                if let answer = try await call(id) { return answer }
            } catch {
                forget()
                throw error
            }
            return Tweet(id: id, createdAt: 0, user: account, text: "").with(favorited: favorited, retweeted: retweeted)
        }
        let changed = content.with(favorited: favorited, retweeted: retweeted)
        await store.updateContent(changed)
        do {
            guard let answer = try await call(content.id) else { return changed }
            let fresh = answer.retweetedStatus.map { $0.id == content.id ? $0 : answer } ?? answer
            if fresh.id == content.id { await store.updateContent(fresh) }
            return answer
        } catch {
            forget()
            await store.updateContent(content)
            throw error
        }
    }
}

/// A like or repost state this session set, and the number of the write that set it.
struct SessionFlag: Sendable {
    var on: Bool
    var write: UInt64
}
