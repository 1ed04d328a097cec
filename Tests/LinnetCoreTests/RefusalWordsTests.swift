import LinnetCore
import Testing
import Timeline
import TwitterAPI

/// The engine's refusals are values; Words says each in plain words, naming what was asked for
/// and whether anything reached the server.
@Suite struct RefusalWordsTests {
    static let ann = User(id: UserID(2), screenName: "ann", name: "Ann")

    @Test(arguments: [
        (
            SyncError(.accessLevel("Not on this key."), doing: .write(.like(TweetID(5)))),
            "Could not like the tweet: Not on this key. Nothing was sent."
        ),
        (
            SyncError(.noSuchCall("No call for it."), doing: .people(.block(ann, true))),
            "Could not block @ann: No call for it. Nothing was sent."
        ),
        (SyncError(.failed("Over capacity"), doing: .write(.post("x", inReplyTo: TweetID(1)))), "Could not send the reply: Over capacity"),
        (SyncError(.failed("Blocked."), doing: .message), "The message was not sent: Blocked."),
        (SyncError(.appOnly, doing: .message), SyncEngine.appOnlyMessages),
        (SyncError(.appOnly, doing: .lists), SyncEngine.appOnlyTimelines),
        (SyncError(.appOnly, doing: .people(.mute(ann, true))), SyncEngine.appOnlyWrites),
        (SyncError(.notYours), "Could not delete the tweet: it is not yours."),
        (SyncError(.postedButUnread(TweetID(42))), "The tweet was posted (id 42) but could not be read back."),
        (SyncError(.uploadFailed(file: "a.png", why: "Too big.")), "Could not upload a.png: Too big. Nothing was posted."),
        (
            SyncError(.messageTooLong(10_001, limit: 10_000), doing: .message),
            "The message is 10001 characters; X takes at most 10000. Nothing was sent."
        ),
    ])
    func eachRefusalIsSaid(_ e: SyncError, _ words: String) {
        #expect(e.message == words)
        #expect(Words.say(e) == words)
    }

    @Test func aFailureKeepsWhatWasAskedAndTheServersStatus() {
        let e = SyncError.failed(APIError(httpStatus: 503, code: nil, message: "Over capacity"), doing: .write(.delete(TweetID(3))))
        #expect(e.status == 503 && e.doing == .write(.delete(TweetID(3))))
        #expect(e.message.hasPrefix("Could not delete the tweet: Over capacity"))
        // A refusal made here keeps its own reason when it passes through.
        let inner = SyncError.failed(SyncError(.notHeld), doing: .write(.delete(TweetID(3))))
        #expect(inner.reason == .notHeld && inner.message == "Could not delete the tweet: it is not held here.")
    }
}
