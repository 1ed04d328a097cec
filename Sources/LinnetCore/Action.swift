import Pictures
import Screen
import Timeline
import TwitterAPI

/// What happens to the state.
public enum Action: Sendable {
    case keys([Key])
    case resize(width: Int, height: Int)
    case tick(now: Double)
    /// The store changed (new snapshot in the context).
    case storeChanged
    case writeFinished(WriteAction, Result<Tweet, SyncError>)
    case refreshAnswered(TimelineID, String?)
    case notice(String, isError: Bool)
    /// Drafts found on disk at start.
    case restoreDrafts([DraftRecord])
    /// The text the external editor saved, for the compose box.
    case edited(String)
    /// Lists of the account (`of` nil) or of someone else.
    case listsLoaded([ListInfo], of: User? = nil)
    case profileLoaded(Profile)
    case peopleFinished(PeopleAction, Result<Profile, SyncError>)
    case peopleLoaded(User, followers: Bool, PeoplePage, appending: Bool)
    case messageSent(MessageTarget, Result<DirectMessage, SyncError>)
    /// One more tweet of a thread is in.
    case threadProgress(sent: Int)
    /// A thread's end: the tweets sent, and the error that stopped it, if one did.
    case threadFinished(sent: [Tweet], of: Int, error: SyncError?)
    /// An older page of messages was asked for and has come back (or failed).
    case olderMessagesDone
    /// An account is open: what it allows and how it is set up.
    case accountOpened(AccountFacts)
    /// The pane the last session ended on (opened again if it is not among the panes).
    case sessionRestored(TimelineID)
    /// Drafts could not be saved on the way out: the quit is called off, and why is said.
    case quitCalledOff(String)
    /// Names that complete a path in the attach prompt (the answer to `.listFiles`).
    case filesListed(prefix: String, [String])
    /// What a file is, or why it cannot be attached (the answer to `.inspectFile`).
    case fileInspected(path: String, Result<MediaFile, MediaError>)
    /// A picture asked for is made, or why not (the app shelves it; a failure is said).
    /// A picture made, for the cell size of `generation` (a newer one drops it).
    case pictureLoaded(PictureAsk, Result<RenderedPicture, PictureFailure>, generation: Int = 0)
}

/// What an opened account allows and how the reader is set up for it.
public struct AccountFacts: Sendable, Equatable {
    public var confirmBeforePost: Bool
    public var readOnly: Bool
    /// Writes refused before anything is asked, with why.
    public var cannot: [WriteAction.Kind: String]
    public var statusNote: String?
    public init(confirmBeforePost: Bool, readOnly: Bool, cannot: [WriteAction.Kind: String], statusNote: String? = nil) {
        self.confirmBeforePost = confirmBeforePost
        self.readOnly = readOnly
        self.cannot = cannot
        self.statusNote = statusNote
    }
}

/// What the state asks the outside world to do.
public enum Effect: Equatable, Sendable {
    case open(TimelineID)
    case close(TimelineID)
    case perform(WriteAction)
    case refresh(TimelineID)
    case loadOlder(TimelineID)
    /// The next page of posts not loaded below this one (a gap the store marked), newest first.
    case fillGap(TimelineID, below: TweetID)
    case setAnchor(TimelineID, TweetID?)
    case markRead(TimelineID, TweetID)
    /// Save these drafts (none: delete the saved file).
    case saveDrafts([DraftRecord])
    case setTheme(String)
    /// Read as another account from accounts.toml.
    case switchAccount(String)
    /// Draw the whole screen again (ctrl-l).
    case redraw
    /// Put text on the clipboard (OSC 52), and say what it was.
    case copy(String, what: String)
    /// Open an address in a browser here, or copy it when the session is remote.
    case openLink(String)
    /// Stop the process, as ctrl-z does (the shell continues it).
    case stopProcess
    /// Ask for the account's lists (nil) or a person's; they come back as `.listsLoaded`.
    case loadLists(of: User? = nil)
    /// Ask for a profile; it comes back as `.profileLoaded`.
    case loadProfile(String)
    /// Follow, mute or block; the profile as it then stands comes back as `.peopleFinished`.
    case people(PeopleAction)
    /// A page of someone's followers (or of whom they follow); back as `.peopleLoaded`.
    case loadPeople(User, followers: Bool, next: String?)
    /// Post tweets in order, each replying to the one before (the first to `inReplyTo`), the
    /// files with the first; stops at the first refused. Answers `.threadFinished`.
    case postThread([String], inReplyTo: TweetID?, media: [MediaFile])
    /// Send a direct message; the answer comes back as `.messageSent`.
    case sendMessage(String, to: MessageTarget)
    case markConversationRead(String)
    /// The next older page of messages; `.olderMessagesDone` when it is in.
    case loadOlderMessages
    /// Hand the terminal to `$VISUAL`/`$EDITOR` on this text; what it saves comes back as `.edited`.
    case editInEditor(String)
    case quit
    /// Ring the terminal's bell.
    case bell
    /// A desktop notice.
    case notify(title: String, body: String)
    /// List the names that complete a path; back as `.filesListed`.
    case listFiles(String)
    /// Read what a file is; back as `.fileInspected`.
    case inspectFile(String)
}
