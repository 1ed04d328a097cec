import Bedrock
import Timeline
import TwitterAPI

/// When the reader rings or notifies, as a value the app loop feeds each new snapshot: a
/// mention newer than the newest one seen (the first mentions seen, from the cache or the
/// first page, are where it starts, so nothing old rings at a start), and a message from
/// someone else newer than any seen and not read. Bells are coalesced (one per
/// `bellInterval`); a desktop notice is one per poll: the newest mention, and one per
/// conversation with new messages, in the same form.
public struct Alerts: Equatable, Sendable {
    public enum Alert: Equatable, Sendable {
        case bell
        case notify(title: String, body: String)
    }

    /// At most one bell in this many seconds, however much arrives (the demo mentions you every
    /// few seconds).
    public static let bellInterval: Double = 30

    public var newestMention: TweetID?
    public var newestMessage: UInt64?
    public var lastBell: Double?

    public init() {}

    /// What to ring or show for a snapshot: `mentions` newest first as the pane shows them
    /// (filtered: a muted mention rings nothing).
    public mutating func update(
        mentions: [TweetID], tweet: (TweetID) -> Tweet?, mailbox: Mailbox, now: Double, bellOnMention: Bool, bellOnMessage: Bool,
        desktop: Bool, mentionsLoaded: Bool = false
    ) -> [Alert] {
        var out: [Alert] = []
        var ring = false
        // Read from the server and empty: anything that comes is new.
        if newestMention == nil, mentions.isEmpty, mentionsLoaded { newestMention = TweetID(0) }
        if let newest = mentions.first {
            if let seen = newestMention {
                let fresh = mentions.prefix { $0 > seen }
                if !fresh.isEmpty {
                    ring = ring || bellOnMention
                    if desktop, let t = tweet(newest)?.content {
                        let more = fresh.count > 1 ? Words.andMore(fresh.count - 1) : ""
                        out.append(
                            .notify(
                                title: Words.mentionNotice(TweetCard.clean(t.user.screenName)),
                                body: TweetCard.clean(t.displayText.text.replacingAll("\n", with: " ")) + more))
                    }
                }
            }
            newestMention = max(newestMention ?? newest, newest)
        }
        if mailbox.loaded, let me = mailbox.me {
            let newestID = mailbox.conversations.compactMap { c in c.messages.last { $0.senderID != me }?.id }.max()
            if let seen = newestMessage {
                for c in mailbox.conversations {
                    let new = c.messages.filter { $0.senderID != me && $0.id > seen && $0.id > c.lastRead }
                    guard let last = new.last else { continue }
                    ring = ring || bellOnMessage
                    if desktop {
                        let who = mailbox.users[last.senderID].map { TweetCard.clean($0.screenName) } ?? last.senderID.description
                        let more = new.count > 1 ? Words.andMore(new.count - 1) : ""
                        out.append(
                            .notify(
                                title: Words.messageNotice(who),
                                body: TweetCard.clean(last.displayText.text.replacingAll("\n", with: " ")) + more))
                    }
                }
            }
            if let n = newestID { newestMessage = max(newestMessage ?? n, n) } else if newestMessage == nil { newestMessage = 0 }
        }
        if ring, lastBell.map({ now - $0 >= Self.bellInterval }) ?? true {
            lastBell = now
            out.insert(.bell, at: 0)
        }
        return out
    }
}
