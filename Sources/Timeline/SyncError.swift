import TwitterAPI

/// A write the engine or the server refused, as a value: what was being done and why it did
/// not happen. The words for it are LinnetCore's (`Words`), never built here.
public struct SyncError: Error, Equatable, Sendable {
    /// What was asked for.
    public enum Doing: Equatable, Sendable {
        case write(WriteAction)
        case people(PeopleAction)
        case message
        case lists
    }

    public enum Reason: Equatable, Sendable {
        /// An app-only (bearer) sign-in cannot do it.
        case appOnly
        /// The key's access level does not include it, in X's words or Linnet's (a level known
        /// before asking); nothing was sent.
        case accessLevel(String)
        /// The API has no call for it, in words; nothing was sent.
        case noSuchCall(String)
        /// A reply X would refuse, said before asking (ReplyRules); nothing was sent.
        case replyRule(String)
        /// The server refused, or could not be reached: its words (or the network's).
        case failed(String)
        /// A post to delete that is not held here (it cannot be checked as the reader's own).
        case notHeld
        case notYours
        /// Posted, but the post could not be read back.
        case postedButUnread(TweetID)
        /// A file of the post could not be read; nothing was posted.
        case unreadableFile(path: String, why: String)
        /// A file of the post could not be uploaded; nothing was posted.
        case uploadFailed(file: String, why: String)
        case messageToSelf
        case emptyMessage
        case messageTooLong(Int, limit: Int)
    }

    public var doing: Doing?
    public var reason: Reason
    /// The API's answer, when there was one.
    public var status: Int?

    public init(_ reason: Reason, doing: Doing? = nil, status: Int? = nil) {
        self.reason = reason
        self.doing = doing
        self.status = status
    }

    /// A failure of the call itself: the server's words for an API error, the network's for a
    /// transport error.
    public static func failed(_ error: any Error, doing: Doing?) -> SyncError {
        if let e = error as? SyncError { return e.doing == nil ? SyncError(e.reason, doing: doing, status: e.status) : e }
        return SyncError(.failed(SyncEngine.words(error)), doing: doing, status: (error as? APIError)?.httpStatus)
    }
}
