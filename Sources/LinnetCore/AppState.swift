import FoundationEssentials
import Screen
import Timeline
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// One open pane: its timeline and the reader's place in it.
public struct PaneState: Equatable, Sendable {
    public var id: TimelineID
    /// The selected tweet.
    public var selected: TweetID?
    /// The tweet at the top of the pane; it stays put when newer tweets arrive above.
    public var top: TweetID?
    /// In the messages pane: the selected conversation.
    public var conversation: String?
    /// In a conversation: lines scrolled back from its newest message.
    public var scrollBack = 0
    public init(_ id: TimelineID) { self.id = id }
}

/// A question waiting for y or n.
public enum Question: Equatable, Sendable {
    case retweet(TweetID)
    case unretweet(TweetID)
    case delete(TweetID)
    case quitWithDraft
    case post
    case people(PeopleAction)

    public var text: String { Words.question(self) }
}

/// A line of feedback in the status bar, which fades after a while.
public struct Notice: Equatable, Sendable {
    public var text: String
    public var isError: Bool
    public var at: Double
    public init(_ text: String, isError: Bool, at: Double) {
        self.text = text
        self.isError = isError
        self.at = at
    }
}

/// Everything the UI knows, as a value: `reduce` changes it, `render` draws it.
public struct AppState: Equatable, Sendable {
    public var account: String
    public var panes: [PaneState]
    public var active = 0
    public var width: Int
    public var height: Int
    /// Unix time, set by each tick (a fixed value in tests).
    public var now: Double
    /// The time ages are shown from: `now` to the minute, so that every age on screen changes
    /// at once, once a minute, and an idle screen writes nothing between.
    public var shownNow: Double { (now / 60).rounded(.down) * 60 }
    /// Seconds east of UTC, for the clock times the status bar shows (0 in tests).
    public var utcOffset = 0
    public var compose: Compose?
    /// Drafts closed with Esc (or kept from last time), newest last; `n` opens the newest.
    public var drafts: [Compose] = []
    public var searchPrompt: Editor?
    public var question: Question?
    public var showHelp = false
    /// The first help row shown, when the help is longer than the screen.
    public var helpTop = 0
    /// A post read whole in an overlay (one too long for its card), and its first row shown.
    public var reading: Reading?
    public struct Reading: Equatable, Sendable {
        public var id: TweetID
        public var top = 0
        public init(id: TweetID, top: Int = 0) {
            self.id = id
            self.top = top
        }
    }
    public var notice: Notice?
    /// The last 100 notices, oldest first, for the messages view.
    public var noticeLog: [Notice] = []
    public var showLog = false
    /// A post's photos over the pane (`v`).
    public var viewer: Viewer?
    /// A person's profile, over the pane.
    public var profile: Profile?
    /// Until when muted tweets are shown anyway (the reveal key), if they are.
    public var revealMutedUntil: Double?
    /// An older page of messages is being read.
    public var loadingOlderMessages = false
    /// The conversation and newest message last marked read (asked once per message).
    public var markedRead: String?
    /// The `o` picker: a tweet's links, one chosen.
    public var links: LinkPicker?
    public static let noticeLogLimit = 100
    /// Keys typed so far of a longer sequence.
    public var pendingKeys: [Key] = []
    public var themeName: String
    public var confirmBeforePost = false
    /// An app-only account: reading searches and user timelines, no writes.
    public var readOnly = false
    /// Writes the account cannot make, with why: not offered in hints, said without asking.
    public var cannot: [WriteAction.Kind: String] = [:]
    /// A word beside the account in the status bar (the demo's polling pace).
    public var statusNote: String?
    public var quitting = false
    /// What has rung or been noticed so far (mentions and messages seen).
    public var alerts = Alerts()

    public init(
        account: String, width: Int, height: Int, now: Double, themeName: String = "dark",
        panes: [TimelineID] = [.home, .mentions]
    ) {
        self.account = account
        self.width = width
        self.height = height
        self.now = now
        self.themeName = themeName
        self.panes = panes.map(PaneState.init)
    }

    public var pane: PaneState {
        get { panes[min(active, panes.count - 1)] }
        set { panes[min(active, panes.count - 1)] = newValue }
    }

    /// Where keys go now.
    public var keyMode: KeyMode {
        if question != nil { return .confirm }
        if links != nil { return .picker }
        if showHelp || showLog || reading != nil { return .help }
        if viewer != nil { return .viewer }
        if profile != nil { return .profile }
        if compose?.attach != nil { return .prompt }
        if compose != nil { return .compose }
        if searchPrompt != nil { return .prompt }
        return .timeline
    }
}
