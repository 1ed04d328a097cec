import FoundationEssentials
import PrivateFiles
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Direct messages beside the timeline cache, in `messages.json` (0600, like every file of the
/// account): the newest messages of each conversation, the people named, and how far each
/// conversation was read, so unread marks survive a restart and the first frame has them.
extension TimelineCache {
    public var messagesURL: URL { directory.appendingPathComponent("messages.json") }
    static let messagesFormat = 1
    /// Messages kept per conversation in the file.
    static let messagesKept = 200

    public func saveMessages(_ mailbox: Mailbox) throws {
        guard mailbox.loaded || !mailbox.conversations.isEmpty else { return }
        func str(_ v: UInt64) -> JSONValue { .string(String(v)) }
        let conversations = mailbox.conversations.map { c in
            JSONValue.object([
                ("id", .string(c.id)), ("other", c.other.map { str($0.rawValue) } ?? .null), ("last_read", str(c.lastRead)),
                (
                    "messages",
                    .array(
                        c.messages.suffix(Self.messagesKept).map { m in
                            .object([
                                ("id", str(m.id)), ("sender", str(m.senderID.rawValue)),
                                ("recipient", m.recipientID.map { str($0.rawValue) } ?? .null), ("text", .string(m.text)),
                                ("created_ms", .number(String(m.createdAtMs))),
                                (
                                    "urls",
                                    .array(
                                        m.urls.map { u in
                                            .object([
                                                ("target", .string(u.target)), ("display", .string(u.display)),
                                                ("start", .number(String(u.range.lowerBound))),
                                                ("end", .number(String(u.range.upperBound))),
                                            ])
                                        })
                                ),
                            ])
                        })
                ),
            ])
        }
        let named = Set(mailbox.conversations.flatMap { c in c.messages.flatMap { [$0.senderID] + ($0.recipientID.map { [$0] } ?? []) } })
        let users = mailbox.users.values.filter { named.contains($0.id) }.sorted { $0.id < $1.id }.map { u in
            JSONValue.object([("id", str(u.id.rawValue)), ("screen_name", .string(u.screenName)), ("name", .string(u.name))])
        }
        let doc = JSONValue.object([
            ("format", .number(String(Self.messagesFormat))), ("me", mailbox.me.map { str($0.rawValue) } ?? .null),
            ("users", .array(users)), ("conversations", .array(conversations)),
        ])
        do {
            try PrivateFile.write(Data(doc.serialized.utf8), to: messagesURL)
        } catch {
            throw CacheError("the messages were not saved: \(error.description)")
        }
    }

    /// The inbox as saved; empty when there is no file. A file that is not one Linnet wrote is
    /// moved aside, and the reason returned.
    public func loadMessages() -> (Mailbox, problem: String?) {
        let data: Data
        do {
            guard let d = try PrivateFile.read(messagesURL, limit: Self.maxFileBytes) else { return (Mailbox(), nil) }
            data = d
        } catch {
            return (Mailbox(), "the messages were not read: \(error.description)")
        }
        func id(_ v: JSONValue?) -> UInt64? { v?.stringValue.flatMap(UInt64.init) }
        guard let doc = try? JSONValue.parse(data), doc["format"]?.intValue == Int64(Self.messagesFormat),
            case .array(let conversations)? = doc["conversations"]
        else {
            let aside = messagesURL.path + ".unreadable-\(Int(Date().timeIntervalSince1970))"
            let moved = rename(messagesURL.path, aside) == 0
            return (Mailbox(), "the messages file could not be read; " + (moved ? "moved it to \(aside)" : "starting fresh"))
        }
        var mailbox = Mailbox(me: id(doc["me"]).map(UserID.init))
        var users: [User] = []
        if case .array(let list)? = doc["users"] {
            for u in list {
                guard let i = id(u["id"]), let s = u["screen_name"]?.stringValue else { continue }
                users.append(User(id: UserID(i), screenName: s, name: u["name"]?.stringValue ?? s))
            }
        }
        var messages: [DirectMessage] = []
        var marks: [String: UInt64] = [:]
        for c in conversations {
            guard let cid = c["id"]?.stringValue, case .array(let list)? = c["messages"] else { continue }
            marks[cid] = id(c["last_read"]) ?? 0
            for m in list {
                guard let mid = id(m["id"]), let sender = id(m["sender"]), let text = m["text"]?.stringValue else { continue }
                var urls: [Entities.Link] = []
                if case .array(let us)? = m["urls"] {
                    for u in us {
                        guard let a = u["start"]?.intValue, let b = u["end"]?.intValue, a <= b, let t = u["target"]?.stringValue else {
                            continue
                        }
                        urls.append(Entities.Link(target: t, display: u["display"]?.stringValue ?? "", range: Int(a)..<Int(b)))
                    }
                }
                messages.append(
                    DirectMessage(
                        id: mid, senderID: UserID(sender), recipientID: id(m["recipient"]).map(UserID.init), conversation: cid, text: text,
                        createdAtMs: m["created_ms"]?.intValue ?? 0, urls: urls))
            }
        }
        mailbox.merge(messages, users: users)
        mailbox.setRead(marks)
        return (mailbox, nil)
    }
}
