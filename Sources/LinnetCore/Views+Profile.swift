import FoundationEssentials
import Pictures
import Screen
import TweetText
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// A person's profile over the pane: who they are, in their words, their counts, how the
/// account stands to them, and the keys that act on them.
extension Views {
    /// The picture's room in the profile box: a square of 10 x 5 cells at its top right, where
    /// the box is wide enough.
    static let avatarColumns = 10, avatarRows = 5

    static func avatarShown(_ s: AppState) -> Bool { s.width - 4 >= 50 && s.height >= 16 }

    static func profile(_ screen: inout Screen, _ p: Profile, _ s: AppState, _ c: Context, _ t: Theme) {
        let u = p.user
        let w = max(10, s.width - 4)
        let avatar = p.imageURL != nil && c.pictureMode != nil && avatarShown(s)
        let inner = w - 2 - (avatar ? avatarColumns + 1 : 0)
        var lines: [StyledLine] = []
        var head = [Span(TweetCard.clean(u.name), t[.name]), Span(" @" + TweetCard.clean(u.screenName), t[.handle])]
        if u.isVerified { head.append(Span(" · " + Words.verified, t[.dim])) }
        if u.isProtected { head.append(Span(" · " + Words.protected, t[.dim])) }
        lines += TextLayout.wrap(head, width: inner)
        if !u.userDescription.isEmpty { lines += TextLayout.wrap(bio(TweetCard.clean(u.userDescription), t), width: inner) }
        var facts: [String] = []
        if !u.location.isEmpty { facts.append(TweetCard.clean(u.location)) }
        if let created = u.createdAt { facts.append(Words.joined(Self.monthYear(created))) }
        if !facts.isEmpty { lines += TextLayout.wrap([Span(facts.joined(separator: " · "), t[.dim])], width: inner) }
        if let url = u.url, !url.isEmpty {
            lines += TextLayout.wrap([Span(TweetCard.clean(url), t[.url].linked(Hyperlinks.id(for: url)))], width: inner)
        }
        lines.append(
            StyledLine([
                Span(
                    Words.counts(
                        tweets: Format.count(u.statusesCount), following: Format.count(u.friendsCount),
                        followers: Format.count(u.followersCount)), t[.counts])
            ]))
        if let r = p.relationship {
            var marks: [String] = []
            if r.following { marks.append(Words.youFollow) }
            if r.followedBy { marks.append(Words.followsYou) }
            if r.muting { marks.append(Words.mutedMark) }
            if r.blocking { marks.append(Words.blockedMark) }
            if marks.isEmpty { marks.append(Words.notFollowing) }
            lines.append(StyledLine([Span(marks.joined(separator: " · "), t[.helpKey])]))
        }
        lines.append(StyledLine([]))
        lines += TextLayout.wrap(
            [
                Span(
                    Words.profileKeys(
                        p.relationship, canBlock: s.cannot[.block] == nil, canFollow: s.cannot[.follow] == nil, canWrite: !s.readOnly),
                    t[.dim])
            ], width: inner)
        let h = min(s.height - 2, lines.count + 2)
        let box = Rect(x: 2, y: max(1, (s.height - h) / 2), width: w, height: h)
        overlay(&screen, box, s, t, style: t[.help])
        screen.put(Words.profileTitle, x: box.x + 1, y: box.y, style: t[.helpKey], clip: box)
        for (i, line) in lines.enumerated() where box.y + 1 + i < box.maxY - 1 || (i == lines.count - 1 && box.y + 1 + i < box.maxY) {
            screen.put(line, x: box.x + 1, y: box.y + 1 + i, clip: box, under: t[.help])
        }
        if avatar, let url = p.imageURL,
            case .ready(let picture)? = c.pictures[PictureAsk(url: url, columns: avatarColumns, rows: avatarRows)]
        {
            place(&screen, picture, at: box.maxX - 1 - avatarColumns, box.y + 1, key: "\(url) avatar")
        }
    }

    /// A bio with its mentions, hashtags and links marked as on a card (links lead where they
    /// say, by OSC 8 where the terminal takes it). The text is as written.
    static func bio(_ text: String, _ t: Theme) -> [Span] {
        let marks = Extractor.entities(in: text).compactMap { e -> DisplayText.Highlight? in
            switch e.kind {
            case .url: return .init(kind: .url(target: e.text.contains("://") ? e.text : "https://" + e.text), range: e.range)
            case .mention(let name, _): return .init(kind: .mention(screenName: name), range: e.range)
            case .hashtag(let tag): return .init(kind: .hashtag(tag), range: e.range)
            }
        }
        return TweetCard.body(DisplayText(text: text, highlights: marks), theme: t)
    }

    static func monthYear(_ unix: Int64) -> String {
        var t = time_t(unix)
        var parts = tm()
        gmtime_r(&t, &parts)
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
        ]
        return "\(months[Int(parts.tm_mon) % 12]) \(Int(parts.tm_year) + 1900)"
    }
}
