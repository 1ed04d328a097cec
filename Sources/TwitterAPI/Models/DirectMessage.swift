import TweetText

/// One direct message, the same from either API.
public struct DirectMessage: Equatable, Sendable {
    public var id: UInt64
    public var senderID: UserID
    /// Nil in a group conversation, where a message has no one recipient.
    public var recipientID: UserID?
    /// X's name for the conversation: `smaller-larger` user ids for two people.
    public var conversation: String
    public var text: String
    /// Unix milliseconds.
    public var createdAtMs: Int64
    /// Links in `text` (code-point ranges), with their expansions.
    public var urls: [Entities.Link]

    public init(
        id: UInt64, senderID: UserID, recipientID: UserID?, conversation: String? = nil, text: String, createdAtMs: Int64,
        urls: [Entities.Link] = []
    ) {
        self.id = id
        self.senderID = senderID
        self.recipientID = recipientID
        self.conversation =
            conversation ?? recipientID.map { "\(min(senderID.rawValue, $0.rawValue))-\(max(senderID.rawValue, $0.rawValue))" } ?? ""
        self.text = text
        self.createdAtMs = createdAtMs
        self.urls = urls
    }

    /// The other person of a two-person conversation, seen from `me`; nil for a group.
    public func other(than me: UserID) -> UserID? {
        let ids = conversation.split(separator: "-").compactMap { UInt64($0) }
        guard ids.count == 2 else { return nil }
        return ids[0] == me.rawValue ? UserID(ids[1]) : UserID(ids[0])
    }

    /// The text to show: links replaced by their short form (the expansion is the highlight's
    /// target), every control sequence removed. Nothing else changes.
    public var displayText: DisplayText {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var count = 0
        var highlights: [DisplayText.Highlight] = []
        var cursor = 0
        func append(_ raw: String) {
            let clean = Sanitizer.sanitize(raw).unicodeScalars
            out.append(contentsOf: clean)
            count += clean.count
        }
        func slice(_ r: Range<Int>) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[r])
            return String(s)
        }
        for u in urls.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            guard u.range.lowerBound >= cursor, u.range.upperBound <= scalars.count, !u.range.isEmpty else { continue }
            append(slice(cursor..<u.range.lowerBound))
            let start = count
            append(u.display.isEmpty ? u.target : u.display)
            highlights.append(DisplayText.Highlight(kind: .url(target: u.target), range: start..<count))
            cursor = u.range.upperBound
        }
        append(slice(cursor..<scalars.count))
        return DisplayText(text: String(out), highlights: highlights)
    }
}
