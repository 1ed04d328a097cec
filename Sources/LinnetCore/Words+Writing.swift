import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The words of direct messages and threads.
extension Words {
    public static let groupConversation = "A group conversation"
    public static let noDirectMessages = "No messages yet."
    public static let readingMessages = "Reading your messages…"
    public static func messagesFailed(_ why: String) -> String { "The messages could not be read: \(why)" }
    public static func unreadMessages(_ n: Int) -> String { n == 1 ? "1 new" : "\(n) new" }
    public static let youSaid = "You: "
    public static let you = "You"
    public static let loadingOlderMessages = "Loading older messages…"
    public static let olderAbove = "↑ older messages above (k, pgup, g g)"
    public static let conversationStart = "The start of the conversation held."
    public static let notOnMessages = "That acts on a tweet; this is a direct message."
    public static let cannotWriteToGroup = "Linnet cannot write to a group conversation yet."
    public static func messageTooLong(by n: Int) -> String {
        "\(n) \(n == 1 ? "character" : "characters") over X's 10,000 for a message."
    }
    public static func messageSent(_ name: String) -> String { "Message sent to @\(name)." }
    public static func messageTitle(_ name: String) -> String { " Message to @\(name) " }
    public static let messagesWithoutFiles = "Linnet sends messages without files."
    public static func messageNotice(_ name: String) -> String { "Linnet: @\(name) sent you a message" }
    /// After a notice's text, when more came at once.
    public static func andMore(_ n: Int) -> String { " (and \(n) more)" }
    public static func conversationTab(_ name: String) -> String { "✉ " + name }
    public static let messagesTab = "✉ Messages"
}

// MARK: Threads
extension Words {
    public static func threadPart(_ n: Int, of total: Int, _ why: String) -> String { "Tweet \(n) of \(total): \(why)" }
    public static func threadSent(_ n: Int) -> String { "Thread of \(n) sent." }
    public static func threadStopped(sent: Int, of total: Int, _ why: String) -> String {
        "\(sent) of \(total) sent, then: \(why) The rest is kept here; enter sends it, continuing the thread."
    }
    public static let continueOnlyYours = "C continues a thread of yours: select one of your tweets."
    public static func threadTitle(part: Int, of total: Int) -> String { " Thread · tweet \(part) of \(total) " }
    public static func sendingThread(_ n: Int, of total: Int) -> String { " Sending \(n + 1) of \(total)… " }
}
