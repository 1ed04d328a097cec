import Foundation
import Screen
import Timeline
import TwitterAPI

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

/// Whom a direct message is for.
public struct MessageTarget: Equatable, Sendable, Codable {
    public var id: UserID
    public var screenName: String
    public init(id: UserID, screenName: String) {
        self.id = id
        self.screenName = screenName
    }
    enum CodingKeys: String, CodingKey {
        case id
        case screenName = "screen_name"
    }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let v = UInt64(try c.decode(String.self, forKey: .id)) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: c, debugDescription: "not a user id")
        }
        id = UserID(v)
        screenName = try c.decode(String.self, forKey: .screenName)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.description, forKey: .id)
        try c.encode(screenName, forKey: .screenName)
    }
}

/// The compose box.
public struct Compose: Equatable, Sendable {
    public var editor: Editor
    /// The tweet replied to, if any.
    public var replyTo: TweetID?
    public var sending = false
    /// Why the last send failed (the text stays).
    public var error: String?
    /// The text the box opened with (reply mentions); closing it unchanged keeps an older draft.
    public var prefill: String?
    /// Files to post with the text, uploaded when it is sent.
    public var media: [MediaFile] = []
    /// The post this one quotes.
    public var quote: TweetID?
    /// Asking for a file to attach, then its alt text.
    public var attach: AttachPrompt?
    /// A direct message to this person, not a tweet.
    public var to: MessageTarget?
    /// A thread: the text is split into tweets at lines of `---`, each replying to the last.
    public var thread = false
    /// While a thread is sent: how many of its tweets are in.
    public var threadSent = 0
    public init(editor: Editor = Editor(), replyTo: TweetID? = nil, media: [MediaFile] = []) {
        self.editor = editor
        self.replyTo = replyTo
        self.media = media
    }

    /// Blank, or only the mentions it opened with: nothing worth keeping.
    public var isUnchanged: Bool { (editor.isEmpty || editor.text == prefill) && media.isEmpty && quote == nil }
}

/// The compose box's prompt for an attachment: a path (Tab completes), then its alt text.
public struct AttachPrompt: Equatable, Sendable {
    public enum Stage: Equatable, Sendable {
        case path
        case altText(MediaFile)
    }
    public var stage: Stage = .path
    public var editor = Editor()
    /// What Tab found when more than one name fits.
    public var candidates: [String] = []
    public init() {}
}

/// An unsent text as it is kept on disk.
public struct DraftRecord: Equatable, Sendable, Codable {
    public var text: String
    public var replyTo: TweetID?
    /// The files attached (their paths, kinds and alt text; the files stay where they are).
    public var media: [MediaFile]
    public var quote: TweetID?
    /// A direct message's recipient.
    public var to: MessageTarget?
    public var thread: Bool
    public init(
        text: String, replyTo: TweetID?, media: [MediaFile] = [], quote: TweetID? = nil, to: MessageTarget? = nil, thread: Bool = false
    ) {
        self.text = text
        self.replyTo = replyTo
        self.media = media
        self.quote = quote
        self.to = to
        self.thread = thread
    }

    // Ids as decimal strings, as the API writes id_str.
    enum CodingKeys: String, CodingKey {
        case text, media, quote, to, thread
        case replyTo = "reply_to"
    }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        replyTo = try c.decodeIfPresent(String.self, forKey: .replyTo).flatMap(TweetID.init)
        media = try c.decodeIfPresent([MediaFile].self, forKey: .media) ?? []
        quote = try c.decodeIfPresent(String.self, forKey: .quote).flatMap(TweetID.init)
        to = try c.decodeIfPresent(MessageTarget.self, forKey: .to)
        thread = try c.decodeIfPresent(Bool.self, forKey: .thread) ?? false
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encodeIfPresent(replyTo?.description, forKey: .replyTo)
        if !media.isEmpty { try c.encode(media, forKey: .media) }
        try c.encodeIfPresent(quote?.description, forKey: .quote)
        try c.encodeIfPresent(to, forKey: .to)
        if thread { try c.encode(true, forKey: .thread) }
    }
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
    public var compose: Compose?
    /// Drafts closed with Esc (or kept from last time), newest last; `n` opens the newest.
    public var drafts: [Compose] = []
    public var searchPrompt: Editor?
    public var question: Question?
    public var showHelp = false
    /// The first help row shown, when the help is longer than the screen.
    public var helpTop = 0
    public var notice: Notice?
    /// The last 100 notices, oldest first, for the messages view.
    public var noticeLog: [Notice] = []
    public var showLog = false
    /// A person's profile, over the pane.
    public var profile: TwitterClient.Profile?
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
    public var quitting = false

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
        if showHelp || showLog { return .help }
        if profile != nil { return .profile }
        if compose?.attach != nil { return .prompt }
        if compose != nil { return .compose }
        if searchPrompt != nil { return .prompt }
        return .timeline
    }
}

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
    case listsLoaded([TwitterClient.ListInfo], of: User? = nil)
    case profileLoaded(TwitterClient.Profile)
    case peopleFinished(PeopleAction, Result<TwitterClient.Profile, SyncError>)
    case peopleLoaded(User, followers: Bool, TwitterClient.PeoplePage, appending: Bool)
    case messageSent(MessageTarget, Result<DirectMessage, SyncError>)
    /// One more tweet of a thread is in.
    case threadProgress(sent: Int)
    /// A thread's end: the tweets sent, and the error that stopped it, if one did.
    case threadFinished(sent: [Tweet], of: Int, error: SyncError?)
    /// An older page of messages was asked for and has come back (or failed).
    case olderMessagesDone
}

/// What the state asks the outside world to do.
public enum Effect: Equatable, Sendable {
    case open(TimelineID)
    case close(TimelineID)
    case perform(WriteAction)
    case refresh(TimelineID)
    case loadOlder(TimelineID)
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
}

/// What `reduce` and `render` read besides the state.
public struct Context: Sendable {
    public var snapshot: TimelineSnapshot
    public var statuses: [TimelineID: SyncStatus]
    public var keyMap: KeyMap
    /// Theme names the theme key cycles through (the theme itself is the app's, given to
    /// `Views.render` alone: the reducer never sees it).
    public var themes: [String]
    /// Account names the switch key cycles through, and the one in use.
    public var accounts: [String] = []
    public var currentAccount: String?
    /// The upload of a post's files in progress, if any.
    public var upload: UploadStatus?
    /// The terminal marks pastes (bracketed paste): no guessing from bursts.
    public var bracketedPaste = false
    /// Where the attach prompt looks for files.
    public var files = FileAccess.disk
    /// Today's estimated cost on a pay-per-use API (`≈ $0.42 today`), nil where nothing is billed.
    public var costToday: String?
    /// Panes with tweets hidden by the filters: what they show instead of the store's timeline.
    public var filtered: [TimelineID: FilteredView] = [:]
    public init(
        snapshot: TimelineSnapshot, statuses: [TimelineID: SyncStatus] = [:], keyMap: KeyMap = .standard,
        themes: [String] = ["dark"]
    ) {
        self.snapshot = snapshot
        self.statuses = statuses
        self.keyMap = keyMap
        self.themes = themes
    }

    /// A timeline as its pane shows it: without what the filters hide.
    public func view(_ id: TimelineID) -> TimelineView? { filtered[id]?.view ?? snapshot.timelines[id] }

    /// Tweets the filters hide in a pane (shown anyway while revealed).
    public func hidden(_ id: TimelineID) -> (count: Int, revealed: Bool) {
        filtered[id].map { ($0.hidden, $0.revealed) } ?? (0, false)
    }

    /// A pane's tweet ids in reading order (threads read oldest first).
    public func ids(_ pane: PaneState) -> PaneIDs {
        let ids = view(pane.id)?.ids ?? []
        if case .thread = pane.id { return PaneIDs(newestFirst: ids, oldestFirst: true) }
        return PaneIDs(newestFirst: ids, oldestFirst: false)
    }
}

/// A timeline's ids in a pane's reading order, over the snapshot's sorted array without a copy;
/// finding a tweet is a binary search, so a key costs the same with 100 or 100k tweets held.
public struct PaneIDs: RandomAccessCollection, Sendable {
    let newestFirst: [TweetID]
    let oldestFirst: Bool

    public var startIndex: Int { 0 }
    public var endIndex: Int { newestFirst.count }
    public subscript(i: Int) -> TweetID { oldestFirst ? newestFirst[newestFirst.count - 1 - i] : newestFirst[i] }

    /// Where `id` would stand in the descending array (the first position holding an id ≤ it).
    private func slot(_ id: TweetID) -> Int {
        var lo = 0
        var hi = newestFirst.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if newestFirst[mid] > id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    public func firstIndex(of id: TweetID) -> Int? {
        let i = slot(id)
        guard i < newestFirst.count, newestFirst[i] == id else { return nil }
        return oldestFirst ? newestFirst.count - 1 - i : i
    }

    public func contains(_ id: TweetID) -> Bool { firstIndex(of: id) != nil }

    /// The id that follows `gone` in reading order (older in a timeline, newer in a thread).
    public func after(_ gone: TweetID) -> TweetID? {
        let i = slot(gone)
        if oldestFirst {
            // Newer ids stand before `i` in the descending array.
            var j = i - 1
            while j >= 0 && newestFirst[j] == gone { j -= 1 }
            return j >= 0 ? newestFirst[j] : nil
        }
        var j = i
        while j < newestFirst.count && newestFirst[j] == gone { j += 1 }
        return j < newestFirst.count ? newestFirst[j] : nil
    }
}

/// What the attach prompt asks of the file system: names that complete a path, and what a
/// file is. The reader's is the disk; nothing else is needed to test it but a folder.
public struct FileAccess: Sendable {
    public var complete: @Sendable (String) -> [String]
    public var inspect: @Sendable (String) -> Result<MediaFile, MediaError>

    public static let disk = FileAccess(complete: FileAccess.completions, inspect: { MediaFile.inspect(path: $0) })

    /// Paths that begin with `prefix` (`~` expanded for the search, kept in the answer);
    /// folders end with `/`; hidden names only when the prefix asks for them.
    public static func completions(_ prefix: String) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folderPart = slash.map { String(prefix[...$0]) } ?? ""
        let namePart = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        let folder = folderPart.isEmpty ? "." : (folderPart as NSString).expandingTildeInPath
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.hasPrefix(namePart) && (namePart.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map { name in
            var isDir: ObjCBool = false
            let full = (folder as NSString).appendingPathComponent(name)
            FileManager.default.fileExists(atPath: full, isDirectory: &isDir)
            return folderPart + name + (isDir.boolValue ? "/" : "")
        }
    }
}
