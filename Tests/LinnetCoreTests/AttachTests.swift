import Foundation
import LinnetCore
import Screen
import Testing
import Timeline
import TwitterAPI

/// Attaching files from the compose box: ctrl-o asks for a path (Tab completes it from a real
/// folder), then the alt text; the files show in the box, go with the post and stay with a
/// draft; what X would not take is refused in words.
@Suite struct AttachTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-attach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("holiday"), withIntermediateDirectories: true)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 1, count: 2048)
        try png.write(to: dir.appendingPathComponent("linnet.png"))
        try png.write(to: dir.appendingPathComponent("lark.png"))
        try Data("GIF89a-----".utf8).write(to: dir.appendingPathComponent("dance.gif"))
        try Data("just words".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        return dir
    }

    func open() async -> (AppState, Context) {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        _ = Scene.run(&s, c, [.keys([.char("n")]), Scene.keys("look")])
        return (s, c)
    }

    @Test func aPhotoIsFoundByTabGivenAltTextAndPostedWithTheText() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var (s, c) = await open()
        _ = Scene.run(&s, c, [.keys([.ctrl("o")])])
        #expect(s.keyMode == .prompt && s.compose?.attach?.stage == .path)
        // Two names fit "l": Tab fills what they share and lists them.
        _ = Scene.run(&s, c, [Scene.keys(dir.path + "/l"), .keys([.tab])])
        #expect(s.compose?.attach?.editor.text == dir.path + "/l")
        #expect(s.compose?.attach?.candidates == [dir.path + "/lark.png", dir.path + "/linnet.png"])
        var screen = Views.render(s, c)
        #expect(screen.text.contains("lark.png  linnet.png"), "\(screen.text)")
        _ = Scene.run(&s, c, [Scene.keys("i"), .keys([.tab])])
        #expect(s.compose?.attach?.editor.text == dir.path + "/linnet.png")
        _ = Scene.run(&s, c, [.keys([.enter])])
        guard case .altText(let file)? = s.compose?.attach?.stage else {
            Issue.record("no alt text asked for: \(String(describing: s.compose?.attach))")
            return
        }
        #expect(file.kind == .photo && file.mimeType == "image/png" && file.bytes == 2056)
        screen = Views.render(s, c)
        #expect(screen.text.contains("Alt text for linnet.png (Enter for none):"))
        let fx = Scene.run(&s, c, [Scene.keys("a linnet on a wire"), .keys([.enter])])
        #expect(s.keyMode == .compose && s.compose?.media.count == 1)
        #expect(fx.contains { if case .saveDrafts(let d) = $0 { d.first?.media.first?.altText == "a linnet on a wire" } else { false } })
        screen = Views.render(s, c)
        #expect(screen.text.contains("▣ photo 1/1 linnet.png 2 KB · alt: a linnet on a wire"), "\(screen.text)")
        #expect(screen.text.contains("ctrl-o attach"))

        let sent = Scene.run(&s, c, [.keys([.enter])])
        #expect(sent.contains(.perform(.post("look", inReplyTo: nil, media: [s.compose!.media[0]]))), "\(sent)")
        // While the files go up, the box says how far along it is.
        var uploading = c
        uploading.upload = UploadStatus(file: 1, of: 1, sent: 1024, total: 2056)
        #expect(Views.render(s, uploading).text.contains("Uploading, 49%…"))
    }

    @Test func whatXWouldNotTakeIsRefusedInWords() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var (s, c) = await open()
        func attach(_ name: String, alt: String = "") {
            _ = Scene.run(&s, c, [.keys([.ctrl("o")]), Scene.keys(dir.path + "/" + name), .keys([.enter])])
            if case .altText? = s.compose?.attach?.stage { _ = Scene.run(&s, c, [Scene.keys(alt), .keys([.enter])]) }
        }
        attach("notes.txt")
        #expect(s.compose?.error?.contains("is not a photo (JPEG, PNG, WebP), a GIF or an MP4 video") == true)
        #expect(s.compose?.attach != nil, "the prompt stays to try another path")
        _ = Scene.run(&s, c, [.keys([.escape])])
        #expect(s.keyMode == .compose && s.compose?.media.isEmpty == true)
        attach("linnet.png")
        attach("dance.gif")
        #expect(s.compose?.error == "A post carries up to four photos, or one GIF, or one video, not both.")
        _ = Scene.run(&s, c, [.keys([.escape])])
        for _ in 0..<3 { attach("lark.png") }
        #expect(s.compose?.media.count == 4)
        attach("lark.png")
        #expect(s.compose?.error == "A post carries at most four photos.")
        _ = Scene.run(&s, c, [.keys([.escape]), .keys([.ctrl("x"), .backspace])])
        #expect(s.compose?.media.count == 3, "ctrl-x backspace removes the last one")
        _ = Scene.run(&s, c, [.keys([.ctrl("x")]), .keys([.backspace])])
        #expect(s.compose?.media.count == 2, "across two reads too")
        attach("lark.png")
        // Nothing matches: said so.
        _ = Scene.run(&s, c, [.keys([.ctrl("o")]), Scene.keys(dir.path + "/zz"), .keys([.tab])])
        #expect(s.compose?.error?.contains("No file name begins with") == true)
        // Files alone make a post.
        _ = Scene.run(&s, c, [.keys([.escape])])
        s.compose?.editor = Editor()
        let fx = Scene.run(&s, c, [.keys([.enter])])
        #expect(fx.contains { if case .perform(.post("", nil, let media, nil)) = $0 { media.count == 3 } else { false } }, "\(fx)")
    }

    @Test func aQuoteNamesThePostInsteadOfALink() async throws {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(100, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        let selected = try #require(s.pane.selected)
        _ = Scene.run(&s, c, [.keys([.char("Q")])])
        #expect(s.compose?.quote == selected && s.compose?.editor.text == "", "no link in the text")
        let screen = Views.render(s, c)
        #expect(screen.text.contains(" Quote ") && screen.text.contains("┃ @ann: Reading #swift tips"), "\(screen.text)")
        // The quote alone is a post; it stays with a draft if the box is closed.
        let fx = Scene.run(&s, c, [.keys([.enter])])
        #expect(fx.contains(.perform(.post("", inReplyTo: nil, media: [], quote: selected))), "\(fx)")
        let record = DraftRecord(text: "", replyTo: nil, quote: selected)
        #expect(try JSONDecoder().decode(DraftRecord.self, from: try JSONEncoder().encode(record)) == record)
    }

    @Test func draftsKeepTheirFiles() throws {
        let f = MediaFile(path: "/tmp/x.png", kind: .photo, mimeType: "image/png", bytes: 10, altText: "alt")
        let record = DraftRecord(text: "t", replyTo: TweetID(5), media: [f])
        let back = try JSONDecoder().decode(DraftRecord.self, from: try JSONEncoder().encode(record))
        #expect(back == record)
        // A draft file from before attachments reads with none.
        let old = try JSONDecoder().decode(DraftRecord.self, from: Data(#"{"text":"hi","reply_to":"7"}"#.utf8))
        #expect(old.media.isEmpty && old.replyTo == TweetID(7))
    }
}
