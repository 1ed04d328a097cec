import Bedrock
import FoundationEssentials
import Pictures
import Screen
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// What `reduce` and `render` read besides the state.
public struct Context: Sendable {
    public var snapshot: TimelineSnapshot
    public var statuses: [TimelineID: SyncStatus]
    public var keyMap: KeyMap
    /// Theme names the theme key cycles through (the theme itself is the app's, given to
    /// `Views.render`; the reducer sees it only as `cardTheme`).
    public var themes: [String]
    /// Account names the switch key cycles through, and the one in use.
    public var accounts: [String] = []
    public var currentAccount: String?
    /// The upload of a post's files in progress, if any.
    public var upload: UploadStatus?
    /// The terminal marks pastes (bracketed paste): no guessing from bursts.
    public var bracketedPaste = false
    /// How the terminal measures a grapheme cluster: every width the reducer and views take.
    public var widthMode = WidthMode.perScalar
    /// When new mentions and messages ring the bell or show a desktop notice.
    public var alertRules = AlertRules()
    /// The mentions pane as the filters leave it, before the reveal key (a muted mention rings
    /// nothing even while revealed); nil: the pane as shown.
    public var unrevealedMentions: [TweetID]?
    /// Today's estimated cost on a pay-per-use API (`≈ $0.42 today`), nil where nothing is billed.
    public var costToday: String?
    /// Pictures made so far (the viewer's, avatars).
    public var pictures = PictureShelf()
    /// How pictures are drawn here: nil when they are off (`images = "off"`).
    public var pictureMode: PictureMode?
    /// Cards of posts with photos keep rows for small pictures (`thumbnails = true`).
    public var thumbnails = false
    /// The selected card is drawn on the theme's selection band too (the gutter bar always is).
    public var selectionBand = true
    /// Panes with tweets hidden by the filters: what they show instead of the store's timeline.
    public var filtered: [TimelineID: FilteredView] = [:]
    /// The theme the frame will draw cards in, so a card's height asked while scrolling is the
    /// card the frame then finds laid out (the reducer reads no style from it).
    public var cardTheme: Theme?
    /// Cards' heights as measured, kept by the app across turns (see `CardHeights`).
    public var heights: CardHeights?
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

    /// The posts a pane marks "not loaded below": its gaps, but not one below the oldest post
    /// held (that is the ordinary next page), and none in a conversation (read oldest first).
    public func shownGaps(_ id: TimelineID) -> Set<TweetID> {
        if case .thread = id { return [] }
        guard let gaps = view(id)?.gapsBelow, !gaps.isEmpty else { return [] }
        guard let oldest = snapshot.timelines[id]?.ids.last else { return gaps }
        return gaps.subtracting([oldest])
    }

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

/// The reader's settings for alerts.
public struct AlertRules: Sendable, Equatable {
    public var bellOnMention = false
    public var bellOnMessage = false
    public var desktop = false
    public init(bellOnMention: Bool = false, bellOnMessage: Bool = false, desktop: Bool = false) {
        self.bellOnMention = bellOnMention
        self.bellOnMessage = bellOnMessage
        self.desktop = desktop
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
        let folder = folderPart.isEmpty ? "." : Path.expandingTilde(folderPart)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.hasPrefix(namePart) && (namePart.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map { name in
            var isDir = false
            let full = Path.join(folder, name)
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDir)
            return folderPart + name + (isDir ? "/" : "")
        }
    }
}
