import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

/// `o` lists a tweet's links in full and opens or copies the chosen one; `y` and `Y` copy the
/// tweet's address and text to the terminal's clipboard (OSC 52, over ssh too).
@MainActor @Suite struct LinksTests {
    static let linked: Tweet = {
        var e = Entities()
        e.urls = [
            Entities.Link(target: "https://example.com/a/very/long/path/that/wraps?x=1", display: "example.com/a/very…", range: 5..<27)
        ]
        e.media = [
            Entities.Media(
                type: "photo", target: "https://x.com/ann/status/130/photo/1", display: "pic.x.com/abc",
                mediaURL: "https://pbs.twimg.com/media/abc.jpg", range: 28..<51)
        ]
        return Tweet(
            id: TweetID(130), createdAt: Int64(Scene.now - 5), user: Scene.ann, text: "See: https://t.co/aaaaaaaaa https://t.co/bbbbbbbbbb",
            entities: e, quotedStatusID: TweetID(90))
    }()

    @Test func thePickerListsEveryLinkInFull() async {
        let store = await Scene.store()
        await store.add(Self.linked, to: [.home])
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(120, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        #expect(s.pane.selected == TweetID(130))
        _ = Scene.run(&s, c, [.keys([.char("o")])])
        #expect(s.keyMode == .picker)
        #expect(
            s.links?.items.map(\.url) == [
                "https://example.com/a/very/long/path/that/wraps?x=1", "https://pbs.twimg.com/media/abc.jpg",
                "https://x.com/i/status/90", "https://x.com/ann/status/130",
            ])
        let text = Views.render(s, c).text
        #expect(text.contains("link  https://example.com/a/very/long/path/that/wraps?x=1") && text.contains("photo 1/1"), "\(text)")
        var fx = Scene.run(&s, c, [.keys([.char("j"), .enter])])
        #expect(fx == [.openLink("https://pbs.twimg.com/media/abc.jpg")] && s.links == nil)
        _ = Scene.run(&s, c, [.keys([.char("o"), .char("j"), .char("j"), .char("j"), .char("y")])])
        fx = Scene.run(&s, c, [.keys([.char("y")])])
        #expect(fx == [.copy("https://x.com/ann/status/130", what: Words.tweetAddress)])
        fx = Scene.run(&s, c, [.keys([.char("Y")])])
        #expect(
            fx == [
                .copy(
                    "See: https://example.com/a/very/long/path/that/wraps?x=1 https://x.com/ann/status/130/photo/1", what: Words.tweetText)
            ])
    }

    @Test func openingCopiesOverSSHAndRunsTheBrowserHere() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Over ssh: y and Enter in the picker both reach the clipboard.
        let remote = MemoryTerminal(width: 100, height: 20, script: [[], [.char("y")], [.char("o")], [.enter], []])
        let (app, _) = try await AppLoopTests.app(remote, cacheDir: dir) { $0.remoteSession = true }
        await app.run()
        #expect(remote.copies.count == 2 && remote.copies.allSatisfy { $0.hasPrefix("https://") }, "\(remote.copies)")
        #expect(app.state.noticeLog.contains { $0.text.hasPrefix("Copied (an ssh session") })
        // Here: the browser is run with the address as its argument.
        let browser = dir.appendingPathComponent("browser.sh")
        let got = dir.appendingPathComponent("opened.txt")
        try "#!/bin/sh\nprintf '%s' \"$1\" > \(got.path)\n".write(to: browser, atomically: true, encoding: .utf8)
        chmod(browser.path, 0o700)
        let local = MemoryTerminal(width: 100, height: 20, script: [[], [.char("o")], [.enter], []])
        let (here, _) = try await AppLoopTests.app(local, cacheDir: dir) {
            $0.remoteSession = false
            $0.browser = browser.path
        }
        await here.run()
        var opened = ""
        for _ in 0..<100 where opened.isEmpty {
            opened = (try? String(contentsOf: got, encoding: .utf8)) ?? ""
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(opened.hasPrefix("https://"), "\(opened)")
        #expect(local.copies.isEmpty)
    }
}

/// On a quote post, one entry per target: the link to the quoted post in the text is the
/// quoted post's entry, and the quoted post's own links are listed.
@Suite struct QuotePickerTests {
    @Test func oneEntryPerTargetAndTheQuotedPostsLinks() {
        var qe = Entities()
        qe.urls = [Entities.Link(target: "https://docs.example.org/guide", display: "docs.example.org/guide", range: 6..<29)]
        let quoted = Tweet(id: TweetID(90), createdAt: 0, user: Scene.kenji, text: "Read: https://t.co/qqqqqqqqqq", entities: qe)
        var e = Entities()
        e.urls = [Entities.Link(target: "https://twitter.com/kenji/status/90", display: "twitter.com/kenji/st…", range: 15..<38)]
        let quote = Tweet(
            id: TweetID(91), createdAt: 0, user: Scene.ann, text: "This, exactly. https://t.co/aaaaaaaaaa", entities: e,
            quotedStatus: quoted)
        let items = LinkPicker(quote).items
        #expect(
            items.map(\.label) == ["quoted", "quoted link", "this tweet"]
                && items.map(\.url) == ["https://x.com/kenji/status/90", "https://docs.example.org/guide", "https://x.com/ann/status/91"],
            "\(items)")
    }
}
