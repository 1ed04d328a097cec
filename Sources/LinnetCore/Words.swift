import Bedrock
import FoundationEssentials
import Screen
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Every sentence the reader shows, in one place: notices, questions, empty panes, the status
/// bar's states, the help box. Wording changes (and a future translation) happen here only;
/// key names inside sentences come from the key map at the call.
public enum Words {
    // MARK: Writing
    public static let nothingToSend = "Nothing to send yet."
    public static func tooLong(by n: Int) -> String { "Too long by \(n) characters; shorten it to send." }
    public static let invalidText = "The text has characters Twitter does not accept."
    public static func sent(reply: Bool) -> String { reply ? "Reply sent." : "Tweet sent." }
    /// A refused send, in the box that stays open.
    public static func notSent(_ why: String) -> String {
        let end = why.hasSuffix(".") || why.hasSuffix("!") || why.hasSuffix("?") ? "" : "."
        return "\(why)\(end) The box is still open; esc keeps it as a draft."
    }
    /// As the demo ends: what its reading would have cost on X, and that it is not kept.
    public static func demoSpent(_ cost: Double, today: DayUsage, prices: UsagePrices) -> String {
        let items = today.items(prices).filter { $0.count > 0 }.map { "\($0.count) \($0.name)" }.joined(separator: ", ")
        return "The demo's reading would have cost ≈ \(UsageFormat.dollars(cost)) on X"
            + (items.isEmpty ? "" : " (\(items))") + ". It is not kept: linnet usage counts real accounts only."
    }
    /// The demo polling faster than its config would on a real account.
    public static func demoPace(_ seconds: Double, configured: Double) -> String {
        "demo polls every \(Int(seconds)) s (a real account: \(Int(configured)) s)"
    }
    public static func otherDraftsKept(_ n: Int) -> String {
        "\(n) other draft\(n == 1 ? "" : "s") kept: each reopens from its post or person (r reply, Q quote)."
    }
    public static let retweeted = "Retweeted."
    public static let retweetUndone = "Retweet undone."
    public static let liked = "Liked."
    public static let likeUndone = "Like undone."
    public static let deleted = "Tweet deleted."
    public static func pasted(lines: Int) -> String { "Pasted \(lines) lines; press Enter to send." }
    public static func draftsKept(_ n: Int) -> String {
        (n == 1 ? "An unsent draft was kept from last time" : "\(n) unsent drafts were kept from last time")
            + ": n reopens a new post; a reply or quote reopens from its post (r, Q)."
    }
    public static func draftNotSavedQuitCalledOff(_ why: String) -> String {
        "The draft was NOT saved (\(why)). Linnet did not quit: free some space and quit again, or quit again to leave without it."
    }
    public static func draftsNotSaved(_ why: String) -> String {
        "Drafts could not be saved (\(why)). They are still here; Linnet will try again."
    }

    // MARK: Questions
    public static func question(_ q: Question) -> String {
        switch q {
        case .retweet: return "Retweet this to your followers?"
        case .unretweet: return "Undo your retweet?"
        case .delete: return "Delete this tweet for good?"
        case .quitWithDraft: return "Quit with an unsent draft? It is saved and offered next time."
        case .post: return "Post this tweet?"
        case .people(let a): return verb(a).prefix(1).uppercased() + verb(a).dropFirst() + "?"
        }
    }

    // MARK: Reading
    public static func lastPaneStays(onlyOne: Bool) -> String {
        onlyOne ? "The last pane stays open." : "Home and Mentions stay open."
    }
    public static let notYours = "You can only delete your own tweets."
    public static let switchNeedsAccounts = "The switch key cycles user accounts: start one with `linnet --account NAME`."
    public static let oneAccount = "There is one account; add another with `linnet login`."
    public static let noSelection = "No tweet is selected."
    public static func refreshing(_ pane: String) -> String { "Refreshing \(pane)…" }
    public static func cacheProblem(_ why: String) -> String { "Cache: " + why }
    public static func switchFailed(_ name: String, _ error: String) -> String { "Could not switch to \"\(name)\": \(error)" }
    public static func readingAs(_ name: String, screenName: String) -> String { "Now reading as \"\(name)\" (@\(screenName))." }
    public static func theme(_ name: String) -> String { "Theme: \(name)" }
    public static func themeNotChanged(_ error: String) -> String { "Theme not changed: \(error)" }

    // MARK: Panes
    public static func title(_ id: TimelineID, clean: (String) -> String) -> String {
        switch id {
        case .home: return "Home"
        case .mentions: return "Mentions"
        case .search(let q): return "Search: " + clean(q)
        case .user(let name): return "@" + clean(name)
        case .likes(let name): return "♥ @" + clean(name)
        case .list(let ref): return "≡ " + clean(ref)
        case .thread: return "Thread"
        case .messages: return messagesTab
        case .conversation: return conversationTab("…")
        }
    }
    public static func tooSmall(minWidth: Int, minHeight: Int, width: Int, height: Int) -> String {
        "Linnet needs at least \(minWidth)×\(minHeight); this terminal is \(width)×\(height). Enlarge it, or press q to quit."
    }
    public static func newer(_ count: Int, unread: Int, topKey: String) -> String {
        let what =
            unread == count ? "\(count) new" : unread > 0 && unread < count ? "\(count) newer (\(unread) new)" : "\(count) newer"
        return "▲ \(what) · \(topKey) for the newest"
    }
    /// Above a conversation's card: the posts before it, which the pane shows oldest first.
    public static func earlier(_ count: Int, topKey: String) -> String {
        "▲ \(count) earlier in the conversation · \(topKey) for its start"
    }
    public static let loadingOlder = "Loading older tweets…"
    public static let reachedEnd = "That is all there is."
    /// Below a post whose older neighbours were not fetched (a long absence, a budget).
    public static func gap(downKey: String) -> String {
        "┄ posts here not loaded yet: \(downKey) onto them loads them, a page at a time ┄"
    }
    public static func tweets(matching query: String?) -> String {
        query.map { "tweets matching “\($0)”" } ?? "tweets"
    }
    public static func refusedRateLimited(retryAt when: String) -> String { "Refused: rate limited. Linnet will try again at \(when)." }
    public static func refused(_ reason: String, retryAt when: String) -> String { "Refused: \(reason) (trying again at \(when))." }
    public static func couldNotLoad(_ what: String, _ reason: String, retryAt when: String) -> String {
        "Could not load \(what): \(sentence(reason)) Trying again at \(when)."
    }
    public static func couldNotLoad(_ what: String, _ reason: String) -> String { "Could not load \(what): \(sentence(reason))" }
    /// A reason ending in exactly one full stop (never "again.. Trying").
    static func sentence(_ text: String) -> String {
        var t = text.trimmed()
        while t.hasSuffix(".") { t.removeLast() }
        return t + "."
    }
    public static func loading(_ what: String) -> String { "Loading \(what)…" }
    public static func noneYet(_ what: String) -> String { "No \(what) yet. New ones appear here as they are posted." }
    public static let nothingYet = "Nothing here yet."

    // MARK: Cards
    public static let edited = "edited"
    public static let quotedUnavailable = "The quoted post is unavailable (deleted, or not visible to you)."
    public static func withheld(in countries: [String], copyright: Bool) -> String {
        if copyright { return "⊘ Withheld in response to a copyright claim." }
        if countries.contains("XX") { return "⊘ Withheld in every country." }
        return "⊘ Withheld in " + countries.joined(separator: ", ") + "."
    }
    public static func costToday(_ dollars: String) -> String { "≈ \(dollars) today" }
    public static func usageNotSaved(_ why: String) -> String { "Usage not saved: \(why)" }
    public static func helpHint(_ key: String) -> String { "\(key) help" }
    public static let search = "Search: "

    // MARK: Help
    public static func helpSection(_ mode: KeyMode) -> String { mode == .timeline ? "Reading" : "Writing" }
    public static let helpEverywhere = "Reading and writing"
    public static let paneKeys = ("1 … 9", "go to pane N")
    public static let farPaneKeys = ("alt-0 … alt-9", "go to pane 10 to 19")
    public static func helpTitle(closeKeys: [String], scrollKeys: [String] = []) -> String {
        var ways: [String] = []
        if !scrollKeys.isEmpty { ways.append("\(scrollKeys.joined(separator: "/")) for more") }
        if !closeKeys.isEmpty { ways.append("\(closeKeys.joined(separator: " or ")) to close") }
        return ways.isEmpty ? " Keys " : " Keys (\(ways.joined(separator: ", "))) "
    }
}
