import Timeline
import TwitterAPI

/// What a refused or failed write says, from the engine's typed refusal.
extension SyncError {
    public var message: String { Words.refusal(self) }
}

extension Words {
    /// What a write is, in words ("Could not like the tweet: …").
    public static func verb(_ action: WriteAction) -> String {
        switch action {
        case .post(_, let r, _, let q): return q != nil ? "post the quote" : r == nil ? "post the tweet" : "send the reply"
        case .retweet: return "retweet"
        case .unretweet: return "undo the retweet"
        case .like: return "like the tweet"
        case .unlike: return "unlike the tweet"
        case .delete: return "delete the tweet"
        }
    }

    public static func verb(_ action: PeopleAction) -> String {
        switch action {
        case .follow(let u, let on): return on ? "follow @\(u.screenName)" : "unfollow @\(u.screenName)"
        case .mute(let u, let on): return on ? "mute @\(u.screenName)" : "unmute @\(u.screenName)"
        case .block(let u, let on): return on ? "block @\(u.screenName)" : "unblock @\(u.screenName)"
        }
    }

    /// Any error a user is shown, in words: a refusal as `refusal` says it, the rest as the
    /// engine words them.
    public static func say(_ error: any Error) -> String {
        if let e = error as? SyncError { return refusal(e) }
        return SyncEngine.words(error)
    }

    public static func refusal(_ e: SyncError) -> String {
        var couldNot: String? {
            switch e.doing {
            case .write(let a): "Could not \(verb(a))"
            case .people(let a): "Could not \(verb(a))"
            case .message: "The message was not sent"
            case .lists, nil: nil
            }
        }
        func refused(_ why: String) -> String { couldNot.map { "\($0): \(why) Nothing was sent." } ?? "\(why) Nothing was sent." }
        switch e.reason {
        case .appOnly:
            switch e.doing {
            case .message: return SyncEngine.appOnlyMessages
            case .lists: return SyncEngine.appOnlyTimelines
            case .write, .people, nil: return SyncEngine.appOnlyWrites
            }
        case .accessLevel(let why), .noSuchCall(let why), .replyRule(let why): return refused(why)
        case .failed(let why): return couldNot.map { "\($0): \(why)" } ?? why
        case .notHeld: return "Could not delete the tweet: it is not held here."
        case .notYours: return "Could not delete the tweet: it is not yours."
        case .postedButUnread(let id): return "The tweet was posted (id \(id)) but could not be read back."
        case .unreadableFile(let path, let why): return "Could not post: \(path) could not be read (\(why)). Nothing was posted."
        case .uploadFailed(let file, let why): return "Could not upload \(file): \(why) Nothing was posted."
        case .messageToSelf: return "You cannot send a message to yourself. Nothing was sent."
        case .emptyMessage: return "The message is empty. Nothing was sent."
        case .messageTooLong(let n, let limit): return "The message is \(n) characters; X takes at most \(limit). Nothing was sent."
        }
    }
}
