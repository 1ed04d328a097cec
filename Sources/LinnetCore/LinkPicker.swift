import Bedrock
import FoundationEssentials
import Timeline
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// A tweet's links for the `o` picker: its expanded addresses, its media, the quoted tweet's
/// address and its own, each with a label.
public struct LinkPicker: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public var label: String
        public var url: String
    }
    /// What the picker chooses: a link to open, a list (`url` is its `owner/slug`) to read, or
    /// a person (`url` is the screen name) to see.
    public enum Purpose: Equatable, Sendable {
        case links, lists
        /// Someone's followers or whom they follow, and where the next page begins.
        case people(of: User, followers: Bool, next: String?)
    }
    public var items: [Item]
    public var selected = 0
    public var purpose = Purpose.links

    /// People, each with their name and what they say of themselves.
    public static func people(_ users: [User], of: User, followers: Bool, next: String?) -> LinkPicker {
        var p = LinkPicker(lists: [])
        p.items = users.map { u in
            let bio = u.userDescription.replacingAll("\n", with: " ")
            return Item(label: "\(u.name) @\(u.screenName)" + (bio.isEmpty ? "" : " · " + bio), url: u.screenName)
        }
        p.purpose = .people(of: of, followers: followers, next: next)
        return p
    }

    /// The account's lists, each with its size and description.
    public init(lists: [ListInfo]) {
        items = lists.map { l in
            var label = "\(l.name) · \(l.memberCount) member\(l.memberCount == 1 ? "" : "s")"
            if !l.description.isEmpty { label += " · " + l.description }
            return Item(label: label, url: l.reference)
        }
        purpose = .lists
    }

    public init(_ tweet: Tweet) {
        let t = tweet.content
        var items: [Item] = []
        var seen = Set<String>()
        // One entry per target: a post's address on twitter.com or x.com is one target.
        func add(_ label: String, _ url: String) {
            guard seen.insert(Self.targetKey(url)).inserted else { return }
            items.append(Item(label: label, url: url))
        }
        func links(of post: Tweet, link: String, media prefix: String) {
            let entities = post.entities
            for u in entities.urls { add(link, u.target) }
            // No URL entities: the links found in the text (as the card marks them).
            if entities.urls.isEmpty {
                for h in post.displayText.highlights { if case .url(let target) = h.kind { add(link, target) } }
            }
            for (i, m) in entities.media.enumerated() {
                add("\(prefix)\(m.type == "animated_gif" ? "GIF" : m.type) \(i + 1)/\(entities.media.count)", m.mediaURL ?? m.target)
            }
        }
        // The quoted post first claims its own address, so the link to it in the text is not
        // listed again.
        if let q = t.quotedStatus {
            seen.insert(Self.targetKey("https://x.com/i/status/\(q.id)"))
        } else if let q = t.quotedStatusID {
            seen.insert(Self.targetKey("https://x.com/i/status/\(q)"))
        }
        links(of: t, link: "link", media: "")
        if let q = t.quotedStatus {
            items.append(Item(label: "quoted", url: "https://x.com/\(q.user.screenName)/status/\(q.id)"))
            links(of: q.content, link: "quoted link", media: "quoted ")
        } else if let q = t.quotedStatusID {
            items.append(Item(label: "quoted", url: "https://x.com/i/status/\(q)"))
        }
        add("this tweet", Self.address(tweet))
        self.items = items
    }

    /// What an address leads to, for telling two entries apart: a post by its id whatever the
    /// host (twitter.com, x.com, mobile.) and name; any other address as written.
    static func targetKey(_ url: String) -> String {
        let parts = url.split(separator: "/", omittingEmptySubsequences: true)
        if parts.count >= 5, ["https:", "http:"].contains(parts[0].lowercased()),
            ["twitter.com", "x.com", "mobile.twitter.com", "www.twitter.com", "mobile.x.com"].contains(parts[1].lowercased()),
            parts[3] == "status", let id = UInt64(parts[4].prefix { $0.isNumber })
        {
            return "post:\(id)"
        }
        return url
    }

    /// A tweet's own address (a retweet's is its original's).
    public static func address(_ tweet: Tweet) -> String {
        "https://x.com/\(tweet.content.user.screenName)/status/\(tweet.content.id)"
    }
}
