import Bedrock
import FoundationEssentials
internal import RE2Shim
import Timeline
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// What the reader chose not to see: config.toml's `[filters]`, and the account's mutes on the
/// server. Applied to what panes show, never to what the store holds, so unmuting brings
/// everything back.
public struct Filters: Equatable, Sendable {
    /// Whole words, in any case ("rust" hides "Rust!" but not "trust").
    public var words: [String] = []
    /// Text anywhere in the tweet, in any case.
    public var phrases: [String] = []
    /// Hashtags, with or without `#`, in any case.
    public var hashtags: [String] = []
    /// Screen names, with or without `@`, in any case: their tweets and their retweets.
    public var users: [String] = []
    /// Regular expressions (RE2 syntax: Perl's without backreferences or look-around) searched
    /// in the text, in time linear in its length whatever the pattern.
    public var patterns: [String] = [] {
        didSet { compiled = Compiled(patterns) }
    }
    private var compiled = Compiled([])

    public init() {}

    public var isEmpty: Bool { words.isEmpty && phrases.isEmpty && hashtags.isEmpty && users.isEmpty && patterns.isEmpty }

    /// Names where a pattern does not compile, with the reason.
    public static func check(pattern: String) -> String? {
        switch Pattern.compile(pattern) {
        case .success: return nil
        case .failure(let why): return "\"\(pattern)\" is not a regular expression Linnet takes (RE2 syntax): \(why.description)"
        }
    }

    public static func == (a: Filters, b: Filters) -> Bool {
        a.words == b.words && a.phrases == b.phrases && a.hashtags == b.hashtags && a.users == b.users && a.patterns == b.patterns
    }

    /// Whether the tweet is hidden: by its author (or, for a retweet, either author), a muted
    /// user id from the server, or its text (the retweeted or quoted text too), its hashtags and
    /// the addresses its links expand to.
    public func hides(_ tweet: Tweet, mutedUsers: Set<UserID> = []) -> Bool { reason(tweet, mutedUsers: mutedUsers) != nil }

    /// Which filter hides the tweet, in words for its card when shown anyway; nil when none.
    public func reason(_ tweet: Tweet, mutedUsers: Set<UserID> = []) -> String? {
        let people = [tweet.user, tweet.retweetedStatus?.user].compactMap { $0 }
        if !mutedUsers.isEmpty, let p = people.first(where: { mutedUsers.contains($0.id) }) {
            return Words.filteredBy(.muted, "@" + TweetCard.clean(p.screenName))
        }
        if !users.isEmpty {
            let names = Set(people.map { $0.screenName.lowercased() })
            if let u = users.first(where: { names.contains(Self.bare($0, "@")) }) {
                return Words.filteredBy(.user, "@" + TweetCard.clean(u.first == "@" ? String(u.dropFirst()) : u))
            }
        }
        guard !(words.isEmpty && phrases.isEmpty && hashtags.isEmpty && patterns.isEmpty) else { return nil }
        // Each part's entities unpacked once (a tweet keeps them packed).
        let parts = [tweet.content, tweet.content.quotedStatus].compactMap { $0 }.map { ($0, $0.entities) }
        if !hashtags.isEmpty {
            let tags = Set(parts.flatMap { $0.1.hashtags.map { $0.text.lowercased() } })
            if let h = hashtags.first(where: { tags.contains(Self.bare($0, "#")) }) {
                return Words.filteredBy(.hashtag, "#" + TweetCard.clean(h.first == "#" ? String(h.dropFirst()) : h))
            }
        }
        let text = parts.map { t, e in
            HTMLEntities.decode(t.text) + " " + e.urls.map(\.target).joined(separator: " ")
        }.joined(separator: "\n")
        let lower = text.lowercased()
        if let p = phrases.first(where: { !$0.isEmpty && lower.contains($0.lowercased()) }) {
            return Words.filteredBy(.phrase, TweetCard.clean(p))
        }
        if let w = words.first(where: { Self.containsWord(lower, $0.lowercased()) }) { return Words.filteredBy(.word, TweetCard.clean(w)) }
        return compiled.matching(text).map { Words.filteredBy(.pattern, TweetCard.clean($0)) }
    }

    static func bare(_ name: String, _ mark: Character) -> String {
        (name.first == mark ? String(name.dropFirst()) : name).lowercased()
    }

    /// `word` in `text` with no letter, digit or underscore either side. Scripts written
    /// without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) have no such
    /// edge: there a word is found wherever it stands.
    static func containsWord(_ text: String, _ word: String) -> Bool {
        guard let first = word.first, let last = word.last else { return false }
        func isWordScalar(_ c: Character?) -> Bool { c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
        var rest = text[...]
        while let r = rest.scalarRange(of: word) {
            let before = r.lowerBound == text.startIndex ? nil : text[text.index(before: r.lowerBound)]
            let after = r.upperBound == text.endIndex ? nil : text[r.upperBound]
            let startFree = unspaced(first) || !isWordScalar(before)
            let endFree = unspaced(last) || !isWordScalar(after)
            if startFree && endFree { return true }
            rest = text[r.upperBound...]
        }
        return false
    }

    static func unspaced(_ c: Character) -> Bool {
        guard let v = c.unicodeScalars.first?.value else { return false }
        return (0x0E00...0x0EFF).contains(v) || (0x1000...0x109F).contains(v) || (0x1780...0x17FF).contains(v)
            || (0x3040...0x30FF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0x20000...0x3FFFF).contains(v)
    }

    /// Compiled once per change of the list; a compiled RE2 is immutable and safe to share.
    private final class Compiled: @unchecked Sendable {
        let expressions: [(source: String, pattern: Pattern)]
        init(_ patterns: [String]) { expressions = patterns.compactMap { p in (try? Pattern.compile(p).get()).map { (p, $0) } } }
        /// The first pattern that matches, as written.
        func matching(_ text: String) -> String? { expressions.first { $0.pattern.matches(text) }?.source }
    }
}

/// One regular expression, compiled by RE2: matching takes time linear in the text, so no
/// pattern (`(a+)+b` among them) can hold up the reader.
public final class Pattern: @unchecked Sendable {
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
    }
    private let compiled: UnsafeMutableRawPointer

    private init(_ compiled: UnsafeMutableRawPointer) { self.compiled = compiled }
    deinit { linnet_re2_free(compiled) }

    public static func compile(_ pattern: String) -> Result<Pattern, Refusal> {
        var error = [CChar](repeating: 0, count: 256)
        let made = pattern.utf8CString.withUnsafeBufferPointer { p in
            linnet_re2_compile(p.baseAddress, p.count - 1, &error, error.count)
        }
        guard let made else {
            return .failure(Refusal(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(Pattern(made))
    }

    /// Whether it matches anywhere in `text`.
    public func matches(_ text: String) -> Bool {
        var t = text
        return t.withUTF8 { linnet_re2_search(compiled, $0.baseAddress, $0.count) == 1 }
    }
}

/// A pane's timeline with what the filters hide taken out, and how many that was.
public struct FilteredView: Sendable {
    public var view: TimelineView
    public var hidden: Int
    /// Shown anyway for a moment (the reveal key): `view` is the whole timeline.
    public var revealed = false
    /// While revealed: the tweets the filters hide, each with the filter that hides it.
    public var reasons: [TweetID: String] = [:]
    public init(view: TimelineView, hidden: Int, revealed: Bool = false) {
        self.view = view
        self.hidden = hidden
        self.revealed = revealed
    }

    /// The whole timeline shown anyway (the reveal key), each post the filters hide marked
    /// with the filter that hides it.
    public func revealed(in snapshot: TimelineSnapshot, _ id: TimelineID, filters: Filters) -> FilteredView {
        guard let whole = snapshot.timelines[id] else { return self }
        var shown = FilteredView(view: whole, hidden: hidden, revealed: true)
        let kept = Set(view.ids)
        for tid in whole.ids where !kept.contains(tid) {
            if let t = snapshot.tweets[tid] { shown.reasons[tid] = filters.reason(t, mutedUsers: snapshot.mutedUsers) }
        }
        return shown
    }

    /// Panes a filter applies to: the ones the reader did not open for one person or one
    /// conversation (their own timeline, a thread).
    public static func applies(to id: TimelineID) -> Bool {
        switch id {
        case .home, .mentions, .search, .list: return true
        case .user, .thread, .likes, .messages, .conversation: return false
        }
    }

    /// The filtered views of `ids`, deciding each tweet once: `memo` keeps what was decided
    /// for each tweet object (an edited tweet is a new object and is decided again).
    public static func make(
        _ snapshot: TimelineSnapshot, panes: [TimelineID], filters: Filters, mutedUsers: Set<UserID>,
        memo: inout [TweetID: (ObjectIdentifier, Bool)]
    ) -> [TimelineID: FilteredView] {
        var out: [TimelineID: FilteredView] = [:]
        guard !filters.isEmpty || !mutedUsers.isEmpty else { return out }
        for id in panes where applies(to: id) {
            guard let v = snapshot.timelines[id] else { continue }
            var kept = v
            kept.ids = v.ids.filter { tid in
                guard let t = snapshot.tweets[tid] else { return true }
                if let m = memo[tid], m.0 == ObjectIdentifier(t) { return !m.1 }
                let hide = filters.hides(t, mutedUsers: mutedUsers)
                memo[tid] = (ObjectIdentifier(t), hide)
                return !hide
            }
            if !v.gapsBelow.isEmpty {
                // A gap below a hidden post is shown below the nearest shown post above it.
                var moved = Set<TweetID>()
                var shownAbove: TweetID?
                let shown = Set(kept.ids)
                for tid in v.ids {
                    if shown.contains(tid) { shownAbove = tid }
                    if v.gapsBelow.contains(tid), tid != v.ids.last, let above = shownAbove { moved.insert(above) }
                }
                kept.gapsBelow = moved
            }
            out[id] = FilteredView(view: kept, hidden: v.ids.count - kept.ids.count)
        }
        return out
    }
}
