import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline

/// ctrl-x ctrl-e hands the draft to `$VISUAL`/`$EDITOR` (a real program on a real file) and
/// brings back what it saved; an editor that fails changes nothing.
@MainActor @Suite struct ExternalEditorTests {
    /// An editor script in `dir` running `body` with the draft's path as "$1".
    static func editor(_ dir: URL, _ body: String) throws -> String {
        let path = dir.appendingPathComponent("editor.sh").path
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    static func edit(with editor: String, in dir: URL) async throws -> (App, MemoryTerminal, DraftStore) {
        let drafts = DraftStore(directory: dir.appendingPathComponent("state"))
        let script: [[Key]] = [[], [.char("n"), .char("h"), .char("i")], [.ctrl("x"), .ctrl("e")], [], []]
        let terminal = MemoryTerminal(width: 100, height: 20, script: script)
        let (app, _) = try await AppLoopTests.app(terminal, cacheDir: dir, drafts: drafts) { $0.editor = editor }
        await app.run()
        return (app, terminal, drafts)
    }

    @Test func theEditorsTextComesBackToTheBox() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Saves as many editors do: a new file renamed over the old. It also notes the file's
        // mode and where it was.
        let editor = try Self.editor(
            dir,
            """
            stat -c %a "$1" > '\(dir.path)/mode'
            dirname "$1" > '\(dir.path)/folder'
            { cat "$1"; printf ' and more\\n\\nशर्मा 👩🏽‍💻\\033[31m\\n\\n'; } > "$1.new" && mv "$1.new" "$1"
            """)
        let (app, terminal, drafts) = try await Self.edit(with: editor, in: dir)
        let expected = "hi and more\n\nशर्मा 👩🏽‍💻[31m"
        #expect(app.state.compose?.editor.text == expected, "\(String(describing: app.state.compose?.editor.text))")
        #expect(app.state.compose?.editor.caret == Array(expected).count, "the caret is at the end")
        #expect(terminal.suspends == 1 && terminal.resumes == 1, "the terminal was handed over and taken back")
        #expect(try String(contentsOf: dir.appendingPathComponent("mode"), encoding: .utf8) == "600\n")
        let folder = try String(contentsOf: dir.appendingPathComponent("folder"), encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(!folder.isEmpty && !FileManager.default.fileExists(atPath: folder), "the private copy is removed")
        // The box was open when the loop ended: the text came back to it and reached the disk.
        #expect(drafts.read().drafts.map(\.text) == [expected])
        #expect(app.state.noticeLog.contains { $0.text == "The text from the editor is in the box." })
    }

    @Test(arguments: [
        ("exit 1", "exited with status 1"),
        ("exec linnet-no-such-editor \"$1\"", "was not found"),
        ("printf '\\377\\376' > \"$1\"", "saved text that is not UTF-8"),
        ("rm \"$1\"", "left no file"),
    ])
    func aFailingEditorChangesNothing(body: String, why: String) async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let editor = try Self.editor(dir, body)
        let (app, terminal, drafts) = try await Self.edit(with: editor, in: dir)
        #expect(app.state.compose?.editor.text == "hi")
        #expect(terminal.suspends == terminal.resumes, "the terminal is always taken back")
        #expect(drafts.read().drafts.map(\.text) == ["hi"], "saved before the editor ran")
        let said = app.state.noticeLog.map(\.text)
        #expect(said.contains("The editor (\(editor)) \(why); the draft is unchanged."), "\(said)")
    }

    @Test func theKeysAndWhatComesBack() async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        // ctrl-x alone waits for the second key; typing goes on as before after another one.
        var fx = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys("draft"), .keys([.ctrl("x")])])
        #expect(fx.isEmpty && s.compose?.editor.text == "draft")
        fx = Scene.run(&s, c, [.keys([.ctrl("e")])])
        #expect(fx.contains(.editInEditor("draft")))
        #expect(fx.first == .saveDrafts([DraftRecord(text: "draft", replyTo: nil)]), "saved before the editor runs")
        // Line ends from Windows editors become new lines; trailing ones go.
        _ = Reducer.reduce(&s, .edited("one\r\ntwo\r\n\n"), c)
        #expect(s.compose?.editor.text == "one\ntwo")
        // A box closed meanwhile opens again with the text; one being sent is left alone.
        s.compose = nil
        _ = Reducer.reduce(&s, .edited("back"), c)
        #expect(s.compose?.editor.text == "back")
        s.compose?.sending = true
        _ = Reducer.reduce(&s, .edited("not now"), c)
        #expect(s.compose?.editor.text == "back")
        // In the help.
        s.compose?.sending = false
        _ = Scene.run(&s, c, [.keys([.escape])])
        #expect(KeyMap.standard.keys(for: .editInEditor, in: .compose) == ["ctrl-x ctrl-e"])
    }
}
