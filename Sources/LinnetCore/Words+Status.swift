import Bedrock
import FoundationEssentials
import Screen
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The status bar's and the notices' sentences, attachments, links and people.
extension Words {
    // MARK: Status bar
    /// `at` names a moment as the reader's clock shows it: what is shown changes only when the
    /// state does, not every second (each change is bytes over ssh and a wake-up).
    public static func state(_ state: SyncState, at: (Double) -> String) -> String {
        switch state {
        case .idle: return "idle"
        case .loading: return "loading"
        case .connecting: return "connecting"
        case .streaming: return "streaming"
        case .polling(let next): return "polling, next at \(at(next))"
        case .offline(let retry, _): return "offline, retry at \(at(retry))"
        case .rateLimited(let until): return "rate limited until \(at(until))"
        case .budgetSpent(let until): return "budget spent, paused until \(at(until))"
        }
    }
    public static let appOnly = "(app-only)"
    // MARK: Attachments
    public static func noFileMatches(_ prefix: String) -> String { "No file name begins with \(prefix.isEmpty ? "that" : prefix)." }
    public static func altTextTooLong(_ n: Int) -> String { "Alt text is at most 1000 characters (this is \(n))." }
    public static let attachPrompt = "Attach (Tab completes, Enter with nothing cancels): "
    public static func altTextPrompt(_ name: String) -> String { "Alt text for \(name) (Enter for none): " }
    public static func attachment(_ f: MediaFile, index: Int, of: Int) -> String {
        let name = Path.lastComponent(f.path)
        let alt = f.altText.isEmpty ? "no alt text" : "alt: \(f.altText)"
        return "▣ \(f.kind.rawValue) \(index)/\(of) \(name) \(Format.bytes(f.bytes)) · \(alt)"
    }
    public static func uploading(_ u: UploadStatus) -> String {
        u.of > 1 ? " Uploading \(u.file) of \(u.of), \(u.percent)%… " : " Uploading, \(u.percent)%… "
    }
    public static func threadTab(_ author: String) -> String { "Thread @\(author)" }
    /// `▣ photo 1/2 1200×800 "a linnet on a wire"`.
    public static func media(
        _ type: String, index: Int, of count: Int, width: Int, height: Int, alt: String?, durationMs: Int = 0
    ) -> String {
        let kind = type == "animated_gif" ? "GIF" : type
        var label = "▣ \(kind) \(index)/\(count)"
        if width > 0, height > 0 { label += " \(width)×\(height)" }
        if durationMs > 0 { label += " " + playTime(durationMs) }
        if let alt, !alt.isEmpty { label += " \"\(alt)\"" }
        return label
    }
    public static func mentionNotice(_ name: String) -> String { "Linnet: @\(name) mentioned you" }
    public static let tweetAddress = "the tweet's address"
    public static let tweetText = "the tweet's text"
    public static let theAddress = "the address"
    public static func copied(_ what: String) -> String { "Copied \(what)." }
    public static func copiedOverSSH(_ url: String) -> String { "Copied (an ssh session has no browser here): \(url)" }
    public static func copiedCut(_ what: String, bytes: Int) -> String {
        "Copied the first \(bytes / 1000) KB of \(what) (the clipboard takes no more)."
    }
    public static func opened(_ url: String) -> String { "Opened \(url)" }
    /// The last line of a card cut short, and the reader's title.
    public static func moreLines(_ n: Int) -> String { "… \(n) more line\(n == 1 ? "" : "s"): enter reads the whole post" }
    public static func readerTitle(closeKeys: [String]) -> String {
        " The whole post: j/k and space scroll, enter opens its conversation, \(closeKeys.joined(separator: " or ")) closes "
    }
    /// A link that is not opened: the address as it came (every control written out), and why.
    public static func notOpenedUnsafe(_ url: String, _ why: String) -> String {
        let shown = Sanitizer.visible(url, keepNewlines: false)
        return "Not opened: \(shown.count > 200 ? String(shown.prefix(200)) + "…" : shown): \(why). y copies it."
    }
    public static func notOpened(_ why: String, _ url: String) -> String { "Could not open a browser (\(why)); copied instead: \(url)" }
    public static let linksTitle = " Links: enter opens (copies over ssh), y copies, esc closes "
    public enum FilterKind: Sendable { case muted, user, hashtag, phrase, word, pattern }
    /// On a post the reveal key shows: which filter hides it.
    public static func filteredBy(_ kind: FilterKind, _ what: String) -> String {
        let by: String
        switch kind {
        case .muted: by = "\(what) is muted on X"
        case .user: by = "the filter on \(what)"
        case .hashtag: by = "the filter on \(what)"
        case .phrase: by = "the phrase “\(what)”"
        case .word: by = "the word “\(what)”"
        case .pattern: by = "the pattern /\(what)/"
        }
        return kind == .muted ? "⊘ hidden: " + by + "; shown while revealed" : "⊘ hidden by " + by + "; shown while revealed"
    }
    public static func muted(_ n: Int, shown: Bool) -> String { shown ? "\(n) muted, shown" : "\(n) muted" }
    public static func revealing(_ n: Int, key: String) -> String {
        "Showing \(n) muted tweet\(n == 1 ? "" : "s") for 30 s (\(key) hides them again)."
    }
    public static let nothingMuted = "Nothing is muted in this pane."
    public static func loadingProfile(_ name: String) -> String { "Asking for @\(name)'s profile…" }
    public static func profileFailed(_ why: String) -> String { "The profile could not be read: \(why)" }
    public static func peopleFailed(_ why: String) -> String { "The list of people could not be read: \(why)" }
    public static func peopleTitle(_ name: String, followers: Bool) -> String {
        followers ? " Followers of @\(name): enter shows one, esc closes " : " Followed by @\(name): enter shows one, esc closes "
    }
    public static func peopleDone(_ a: PeopleAction) -> String {
        switch a {
        case .follow(let u, let on): return on ? "You follow @\(u.screenName)." : "You no longer follow @\(u.screenName)."
        case .mute(let u, let on): return on ? "@\(u.screenName) is muted." : "@\(u.screenName) is no longer muted."
        case .block(let u, let on): return on ? "@\(u.screenName) is blocked." : "@\(u.screenName) is no longer blocked."
        }
    }
    public static let nobody = "Nobody here yet."
    public static let thatIsYou = "That is you."
    public static let verified = "verified"
    public static let protected = "protected"
    public static let youFollow = "you follow them"
    public static let followsYou = "follows you"
    public static let mutedMark = "muted"
    public static let blockedMark = "blocked"
    public static let notFollowing = "you do not follow each other"
    public static let profileTitle = " Profile "
    public static func joined(_ when: String) -> String { "joined " + when }
    public static func counts(tweets: String, following: String, followers: String) -> String {
        "\(tweets) \(tweets == "1" ? "tweet" : "tweets") · \(following) following · \(followers) \(followers == "1" ? "follower" : "followers")"
    }
    public static func loadingPeople(_ name: String, followers: Bool) -> String {
        followers ? "Loading who follows @\(name)…" : "Loading whom @\(name) follows…"
    }
    /// The profile's keys, from how the account stands to them (none of the first three on
    /// oneself; block only where the account can).
    public static func profileKeys(
        _ r: Relationship?, canBlock: Bool, canFollow: Bool = true, canWrite: Bool = true
    ) -> String {
        var keys: [String] = []
        if let r, canWrite {
            if canFollow { keys.append(r.following ? "f unfollow" : "f follow") }
            keys.append(r.muting ? "m unmute" : "m mute")
            if canBlock { keys.append(r.blocking ? "B unblock" : "B block") }
        }
        keys += ["u tweets", "F likes", "b lists"]
        if r != nil, canWrite { keys.append("d message") }
        keys += ["1 followers", "2 following", "esc close"]
        return keys.joined(separator: " · ")
    }
    public static let noLists = "You have no lists and follow none."
    public static func noListsOf(_ name: String) -> String { "@\(name) has no lists and follows none." }
    public static func loadingListsOf(_ name: String) -> String { "Asking for @\(name)'s lists…" }
    public static let loadingLists = "Asking for your lists…"
    public static let listsTitle = " Lists: enter opens one, esc closes "
    public static func listsFailed(_ why: String) -> String { "Your lists could not be read: \(why)" }
    public static let editedInEditor = "The text from the editor is in the box."
    public static func editorFailed(_ editor: String, _ why: String) -> String {
        "The editor (\(editor)) \(why); the draft is unchanged."
    }
    public static let cannotSuspend = "Not suspended: Linnet was not started from a shell with job control (nothing could bring it back)."
    public static func moreInMessages(_ key: String) -> String { " (\(key): all of it)" }
    public static func messagesTitle(closeKeys: [String]) -> String {
        closeKeys.isEmpty ? " Notices, newest first " : " Notices, newest first (\(closeKeys.joined(separator: " or ")) to close) "
    }
    public static let noMessages = "No messages yet."
}

/// Pictures: why one is not shown.
extension Words {
    public static let pictureNotHTTPS = "the picture's address is not https"
    public static let pictureBadAddress = "the picture's address is not one Linnet fetches"
    public static func pictureHostRefused(_ host: String) -> String {
        "pictures are fetched only from X's media servers, not \(Sanitizer.visible(host, keepNewlines: false))"
    }
    public static func pictureNotFetched(_ why: String) -> String { "the picture could not be fetched: \(why)" }
    public static func pictureStatus(_ status: Int) -> String { "the media server answered \(status), not the picture" }
    public static func pictureNotShown(_ why: String) -> String { "Picture not shown: \(why)." }
    public static let pictureLoading = "loading the picture…"
    public static let noMedia = "This post has no photo, GIF or video."
    public static let noPicturesHere = "Pictures are off (images = \"off\" in config.toml)."
}

/// The viewer's words.
extension Words {
    /// `▣ photo 1/2 · 1200×800 · ←/→ · o the original · Esc back`.
    public static func viewerTitle(_ type: String, index: Int, of count: Int, width: Int, height: Int, keys: [String]) -> String {
        var t = (type == "photo" ? "▣ " : "▶ ") + (type == "animated_gif" ? "GIF" : type) + " \(index)/\(count)"
        if width > 0, height > 0 { t += " · \(width)×\(height)" }
        if count > 1 { t += " · ←/→ more" }
        return t + " · o the original · \(keys.first ?? "Esc") back"
    }
    public static func posterOnly(_ type: String, durationMs: Int = 0) -> String {
        let length = durationMs > 0 ? " " + playTime(durationMs) : ""
        return "▶ \(type == "animated_gif" ? "GIF" : type)\(length): its poster; o opens it in the browser"
    }

    /// A video's length as players show it: 0:07, 4:05, 1:02:03 (seconds rounded down).
    public static func playTime(_ ms: Int) -> String {
        let s = max(0, ms) / 1000
        let (h, m, sec) = (s / 3600, s / 60 % 60, s % 60)
        let two = { (v: Int) in v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(sec))" : "\(m):\(two(sec))"
    }
    public static func altText(_ alt: String) -> String { "alt: " + alt }
}
