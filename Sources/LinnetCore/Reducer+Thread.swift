import Bedrock
import Screen
import Timeline
import TwitterAPI

/// Threads: one box, tweets separated by lines of `---`, sent in order, each a reply to the one
/// before. If one is refused the rest stay in the box (and the drafts), continuing from the last
/// one sent, so sending again picks up where it stopped.
extension Reducer {
    /// The tweets of a thread's text: split at lines holding only `---`, each trimmed of the
    /// line ends around it (nothing else in them changes).
    public static func threadParts(_ text: String) -> [String] {
        var parts: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmed() == "---" {
                parts.append(current.joined(separator: "\n"))
                current = []
            } else {
                current.append(line)
            }
        }
        parts.append(current.joined(separator: "\n"))
        return parts.map { $0.trimmedNewlines() }
    }

    /// Opens a thread box: a kept thread draft, or an empty one (continuing from `from`).
    static func openThread(continuing from: TweetID?, _ s: inout AppState) -> [Effect] {
        if let i = s.drafts.lastIndex(where: { $0.thread && $0.replyTo == from }) {
            s.compose = s.drafts.remove(at: i)
            return []
        }
        var box = Compose(editor: Editor(), replyTo: from)
        box.thread = true
        s.compose = box
        return []
    }

    /// Why a thread cannot be sent (naming the tweet), or nil.
    public static func threadRefusal(_ parts: [String]) -> String? {
        for (i, p) in parts.enumerated() {
            if let why = refusal(p) { return parts.count == 1 ? why : Words.threadPart(i + 1, of: parts.count, why) }
        }
        return nil
    }

    static func sendThread(_ s: inout AppState, confirmed: Bool) -> [Effect] {
        guard let box = s.compose, !box.sending else { return [] }
        let parts = threadParts(box.editor.text)
        guard startSending(threadRefusal(parts), &s, confirmed: confirmed) else { return [] }
        return [.postThread(parts, inReplyTo: box.replyTo, media: box.media)]
    }

    static func threadFinished(_ sent: [Tweet], of total: Int, _ error: SyncError?, _ s: inout AppState) -> [Effect] {
        guard var box = s.compose, box.thread, box.sending else { return [] }
        guard let error else {
            s.compose = nil
            s.notice = Notice(Words.threadSent(total), isError: false, at: s.now)
            return [.saveDrafts(draftRecords(s))]
        }
        // What was not sent stays, continuing from the last tweet that was; files went with
        // the first tweet, so they stay only if it did not go.
        let rest = Array(threadParts(box.editor.text).dropFirst(sent.count))
        box.editor = Editor(rest.joined(separator: "\n---\n"))
        if let last = sent.last {
            box.replyTo = last.id
            box.media = []
            box.quote = nil
        }
        box.sending = false
        box.threadSent = 0
        box.error = Words.threadStopped(sent: sent.count, of: total, error.message)
        s.compose = box
        s.notice = Notice(box.error ?? error.message, isError: true, at: s.now)
        return [.saveDrafts(draftRecords(s))]
    }
}
