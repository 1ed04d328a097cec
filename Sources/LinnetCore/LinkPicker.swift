import Foundation
import Timeline
import TwitterAPI

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
            let bio = u.userDescription.replacingOccurrences(of: "\n", with: " ")
            return Item(label: "\(u.name) @\(u.screenName)" + (bio.isEmpty ? "" : " · " + bio), url: u.screenName)
        }
        p.purpose = .people(of: of, followers: followers, next: next)
        return p
    }

    /// The account's lists, each with its size and description.
    public init(lists: [TwitterClient.ListInfo]) {
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
        let entities = t.entities
        for u in entities.urls { items.append(Item(label: "link", url: u.target)) }
        // No URL entities: the links found in the text (as the card marks them).
        if entities.urls.isEmpty {
            for h in t.displayText.highlights { if case .url(let target) = h.kind { items.append(Item(label: "link", url: target)) } }
        }
        for (i, m) in entities.media.enumerated() {
            items.append(
                Item(label: "\(m.type == "animated_gif" ? "GIF" : m.type) \(i + 1)/\(entities.media.count)", url: m.mediaURL ?? m.target))
        }
        if let q = t.quotedStatus {
            items.append(Item(label: "quoted", url: "https://x.com/\(q.user.screenName)/status/\(q.id)"))
        } else if let q = t.quotedStatusID {
            items.append(Item(label: "quoted", url: "https://x.com/i/status/\(q)"))
        }
        items.append(Item(label: "this tweet", url: Self.address(tweet)))
        self.items = items
    }

    /// A tweet's own address (a retweet's is its original's).
    public static func address(_ tweet: Tweet) -> String {
        "https://x.com/\(tweet.content.user.screenName)/status/\(tweet.content.id)"
    }
}
