import Bedrock
import Screen
import Timeline
import TweetText
import TwitterAPI

/// The compose box, the search prompt, questions, and what write results do to the state.
extension Reducer {
    // MARK: - Compose and prompt

    static func editCompose(_ command: Command, _ s: inout AppState) -> [Effect] {
        // While sending, the text is frozen: the box closes when the server accepts it.
        guard var box = s.compose, !box.sending else { return [] }
        switch command {
        case .send: return send(&s)
        case .cancel:
            s.compose = nil
            box.sending = false
            box.error = nil
            if !box.isUnchanged { s.drafts.append(box) }
            return [.saveDrafts(draftRecords(s))]
        case .newline: box.editor.insert("\n")
        case .left: box.editor.left()
        case .right: box.editor.right()
        case .lineStart: box.editor.home()
        case .lineEnd: box.editor.end()
        case .deleteBack: box.editor.deleteBackward()
        case .deleteForward: box.editor.deleteForward()
        case .deleteWord: box.editor.deleteWord()
        case .killToStart: box.editor.killToLineStart()
        case .killToEnd: box.editor.killToLineEnd()
        case .lineUp: box.editor.vertical(-1)
        case .lineDown: box.editor.vertical(1)
        case .attach:
            guard box.to == nil else {
                box.error = Words.messagesWithoutFiles
                s.compose = box
                return []
            }
            box.attach = AttachPrompt()
        case .detach:
            guard box.media.popLast() != nil else { return [] }
        case .editInEditor:
            // Saved first: the draft is on disk whatever the editor does.
            return [.saveDrafts(draftRecords(s)), .editInEditor(box.editor.text)]
        default: return []
        }
        box.error = nil
        s.compose = box
        return []
    }

    /// The attach prompt: a path (Tab completes it), then the file's alt text.
    static func editAttach(_ command: Command, _ s: inout AppState, _ c: Context) -> [Effect] {
        var fx: [Effect] = []
        guard var box = s.compose, var p = box.attach else { return [] }
        box.error = nil
        switch command {
        case .cancel:
            box.attach = nil
            s.compose = box
            return []
        case .complete:
            guard p.stage == .path else { return [] }
            fx.append(.listFiles(p.editor.text))
        case .send:
            switch p.stage {
            case .path:
                let path = p.editor.text.trimmed()
                if path.isEmpty {
                    box.attach = nil
                    s.compose = box
                    return []
                }
                fx.append(.inspectFile(path))
            case .altText(var file):
                let alt = p.editor.text.trimmedLines()
                guard alt.count <= MediaFile.altTextLimit else {
                    box.error = Words.altTextTooLong(alt.count)
                    break
                }
                file.altText = alt
                box.media.append(file)
                box.attach = nil
                s.compose = box
                return [.saveDrafts(draftRecords(s))]
            }
        case .left: p.editor.left()
        case .right: p.editor.right()
        case .lineStart: p.editor.home()
        case .lineEnd: p.editor.end()
        case .deleteBack: p.editor.deleteBackward()
        case .deleteForward: p.editor.deleteForward()
        case .deleteWord: p.editor.deleteWord()
        case .killToStart: p.editor.killToLineStart()
        case .killToEnd: p.editor.killToLineEnd()
        default: return []
        }
        box.attach = p
        s.compose = box
        return fx
    }

    /// Names that complete the path being typed: one fills it in, several fill what they share
    /// and are listed. An answer for a path no longer typed is let go.
    static func filesListed(_ prefix: String, _ found: [String], _ s: inout AppState) {
        guard var box = s.compose, var p = box.attach, p.stage == .path, p.editor.text == prefix else { return }
        if found.count == 1 {
            p.editor = Editor(found[0])
            p.candidates = []
        } else if let common = Self.commonPrefix(found), common.count > p.editor.text.count {
            p.editor = Editor(common)
            p.candidates = found
        } else {
            p.candidates = found
            if found.isEmpty { box.error = Words.noFileMatches(p.editor.text) }
        }
        box.attach = p
        s.compose = box
    }

    /// The file chosen: its alt text is asked for next, or why it cannot go is said.
    static func fileInspected(_ path: String, _ result: Result<MediaFile, MediaError>, _ s: inout AppState) {
        guard var box = s.compose, box.attach?.stage == .path, box.attach?.editor.text.trimmed() == path else { return }
        switch result {
        case .failure(let e): box.error = e.description
        case .success(let file):
            if let why = MediaFile.refusal(adding: file, to: box.media) {
                box.error = why
            } else {
                var p = AttachPrompt()
                p.stage = .altText(file)
                box.attach = p
            }
        }
        s.compose = box
    }

    static func commonPrefix(_ names: [String]) -> String? {
        guard var prefix = names.first else { return nil }
        for n in names.dropFirst() {
            while !n.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }

    /// Why a text cannot be sent, or nil when it can.
    public static func refusal(_ text: String) -> String? {
        if text.allSatisfy(\.isWhitespace) { return Words.nothingToSend }
        let length = TweetLength(text)
        if length.remaining() < 0 { return Words.tooLong(by: -length.remaining()) }
        if !length.isValid { return Words.invalidText }
        return nil
    }

    static func send(_ s: inout AppState, confirmed: Bool = false) -> [Effect] {
        guard var box = s.compose, !box.sending else { return [] }
        let text = box.editor.text
        if let to = box.to {
            if let why = messageRefusal(text) {
                box.error = why
                s.compose = box
                return []
            }
            box.sending = true
            box.error = nil
            s.compose = box
            return [.sendMessage(text, to: to)]
        }
        if box.thread { return sendThread(&s, confirmed: confirmed) }
        // Files or a quoted post alone make a post; text with them is checked like any other.
        let why = (box.media.isEmpty && box.quote == nil) || !text.allSatisfy(\.isWhitespace) ? refusal(text) : nil
        guard startSending(why, &s, confirmed: confirmed) else { return [] }
        return [.perform(.post(text, inReplyTo: box.replyTo, media: box.media, quote: box.quote))]
    }

    /// Shows why the box cannot be sent, or asks first where config.toml says so; otherwise
    /// marks it sending and answers true.
    static func startSending(_ refusal: String?, _ s: inout AppState, confirmed: Bool) -> Bool {
        guard var box = s.compose else { return false }
        if let refusal {
            box.error = refusal
            s.compose = box
            return false
        }
        if s.confirmBeforePost && !confirmed {
            s.question = .post
            return false
        }
        box.sending = true
        box.threadSent = 0
        box.error = nil
        s.compose = box
        return true
    }

    static func editPrompt(_ command: Command, _ s: inout AppState) -> [Effect] {
        guard var p = s.searchPrompt else { return [] }
        switch command {
        case .send:
            s.searchPrompt = nil
            let q = p.text.trimmedLines()
            return q.isEmpty ? [] : openPane(.search(q), &s)
        case .cancel:
            s.searchPrompt = nil
            return []
        case .left: p.left()
        case .right: p.right()
        case .lineStart: p.home()
        case .lineEnd: p.end()
        case .deleteBack: p.deleteBackward()
        case .deleteForward: p.deleteForward()
        case .deleteWord: p.deleteWord()
        case .killToStart: p.killToLineStart()
        case .killToEnd: p.killToLineEnd()
        default: break
        }
        s.searchPrompt = p
        return []
    }

    static func answer(_ yes: Bool, _ s: inout AppState) -> [Effect] {
        guard let q = s.question else { return [] }
        s.question = nil
        guard yes else { return [] }
        switch q {
        case .retweet(let id): return [.perform(.retweet(id))]
        case .unretweet(let id): return [.perform(.unretweet(id))]
        case .delete(let id): return [.perform(.delete(id))]
        case .post: return send(&s, confirmed: true)
        case .people(let a): return [.people(a)]
        case .quitWithDraft:
            s.quitting = true
            return [.saveDrafts(draftRecords(s)), .quit]
        }
    }

    /// What the external editor saved becomes the box's text, caret at its end: controls a
    /// terminal would act on removed, the line ends editors add at the end dropped. A box
    /// closed meanwhile opens again with it; one being sent is left alone.
    static func edited(_ text: String, _ s: inout AppState) -> [Effect] {
        var t = plainText(text.replacingAll("\r\n", with: "\n"))
        while t.hasSuffix("\n") { t.removeLast() }
        var box = s.compose ?? Compose()
        guard !box.sending else { return [] }
        box.editor = Editor(t)
        box.error = nil
        box.attach = nil
        s.compose = box
        s.notice = Notice(Words.editedInEditor, isError: false, at: s.now)
        return [.saveDrafts(draftRecords(s))]
    }

    /// What must survive a crash or quit: the open box (when it holds more than it opened
    /// with) and every kept draft.
    public static func draftRecords(_ s: AppState) -> [DraftRecord] {
        var all = s.drafts
        if let c = s.compose, !c.isUnchanged { all.append(c) }
        return all.map {
            DraftRecord(text: $0.editor.text, replyTo: $0.replyTo, media: $0.media, quote: $0.quote, to: $0.to, thread: $0.thread)
        }
    }

    // MARK: - Results

    static func finished(_ write: WriteAction, _ result: Result<Tweet, SyncError>, _ s: inout AppState) -> [Effect] {
        switch (write, result) {
        case (.post(_, let reply, _, _), .success):
            s.compose = nil
            s.notice = Notice(Words.sent(reply: reply != nil), isError: false, at: s.now)
            return [.saveDrafts(draftRecords(s))]
        case (.post, .failure(let e)):
            s.compose?.sending = false
            // Said once, whole, in the box that is still open (wrapped in its footer); the
            // notice log keeps it, the status line does not repeat it.
            s.compose?.error = Words.notSent(e.message)
            s.noticeLog.append(Notice(Words.notSent(e.message), isError: true, at: s.now))
            return [.saveDrafts(draftRecords(s))]
        case (_, .failure(let e)):
            s.notice = Notice(e.message, isError: true, at: s.now)
        case (.retweet, .success): s.notice = Notice(Words.retweeted, isError: false, at: s.now)
        case (.unretweet, .success): s.notice = Notice(Words.retweetUndone, isError: false, at: s.now)
        case (.like, .success): s.notice = Notice(Words.liked, isError: false, at: s.now)
        case (.unlike, .success): s.notice = Notice(Words.likeUndone, isError: false, at: s.now)
        case (.delete, .success): s.notice = Notice(Words.deleted, isError: false, at: s.now)
        }
        return []
    }

}
