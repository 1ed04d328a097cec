import Bedrock
import FoundationEssentials
import PrivateFiles
import Spawn
import TweetText

#if canImport(Glibc)
    import Glibc
#endif

/// Other programs the app hands work to: the editor (the terminal goes with it) and the browser.
extension App {
    /// Hands the terminal to the editor on a private copy of the draft (a 0700 folder of its
    /// own, removed after); what it saves comes back to the box. An editor that cannot start,
    /// exits with an error or leaves something that is not UTF-8 text changes nothing.
    func editInEditor(_ text: String) {
        let editor = settings.editor
        var template = Array((FileManager.default.temporaryDirectory.path + "/linnet-edit-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            inbox.post(.notice(Words.editorFailed(editor, "could not be given a file: \(String(cString: strerror(errno)))"), isError: true))
            return
        }
        let folder = URL(fileURLWithPath: String(cString: made))
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("draft.txt")
        do { try PrivateFile.write(Data(text.utf8), to: file, privateFolder: false) } catch {
            inbox.post(.notice(Words.editorFailed(editor, "could not be given a file: \(error.description)"), isError: true))
            return
        }
        // The editor may stay open for minutes: what this turn asked of the queue goes now.
        effects.release()
        terminal.suspend()
        // A ctrl-c or ctrl-\ meant for the editor reaches the whole group: it must not end
        // Linnet (git does the same around its editor). The child starts with default handlers.
        let previousInt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInt)
            signal(SIGQUIT, previousQuit)
        }
        let status: Int32
        do {
            // As git runs core.editor: through the shell, the file as "$1".
            let child = try ChildProcess(
                "/bin/sh", ["-c", editor + " \"$1\"", "sh", file.path], stdin: .inherit, stdout: .inherit, stderr: .inherit)
            status = child.wait()
        } catch {
            terminal.resume()
            inbox.post(.notice(Words.editorFailed(editor, "did not start: \(error.description)"), isError: true))
            return
        }
        terminal.resume()
        guard status == 0 else {
            inbox.post(.notice(Words.editorFailed(editor, status == 127 ? "was not found" : "exited with status \(status)"), isError: true))
            return
        }
        let saved: Data?
        do { saved = try PrivateFile.read(file, limit: 1 << 20) } catch {
            inbox.post(.notice(Words.editorFailed(editor, "left no readable file: \(error.description)"), isError: true))
            return
        }
        guard let saved, let edited = String(validating: saved, as: UTF8.self) else {
            inbox.post(.notice(Words.editorFailed(editor, saved == nil ? "left no file" : "saved text that is not UTF-8"), isError: true))
            return
        }
        inbox.post(.edited(edited))
    }

    /// Opens an address in the browser of this machine; over ssh (no browser here) it is
    /// copied to the clipboard of the terminal the user sits at instead. Only an address that
    /// passes `WebAddress` is handed on, in its checked form.
    func openLink(_ address: String) {
        guard let url = WebAddress.safe(address) else {
            let why = if case .failure(let r) = WebAddress.check(address) { r.description } else { "" }
            inbox.post(.notice(Words.notOpenedUnsafe(address, why), isError: true))
            return
        }
        guard !settings.remoteSession else {
            terminal.copyToClipboard(url)
            inbox.post(.notice(Words.copiedOverSSH(url), isError: false))
            return
        }
        do {
            // $BROWSER may list several, separated by ':'; the first is used, the address as its
            // one argument (never through a shell; it begins http, so it is never an option).
            let browser = settings.browser.flatMap { $0.split(separator: ":").first.map(String.init) } ?? "xdg-open"
            let child = try ChildProcess("/usr/bin/env", ["--", browser, url], stdin: .null, stdout: .null, stderr: .null)
            startThread { _ = child.finish() }
            inbox.post(.notice(Words.opened(url), isError: false))
        } catch {
            terminal.copyToClipboard(url)
            inbox.post(.notice(Words.notOpened(error.description, url), isError: true))
        }
    }
}
