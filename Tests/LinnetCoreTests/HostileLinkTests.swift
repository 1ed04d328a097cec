import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TweetText
import TwitterAPI

/// A server's link never reaches the browser, the terminal or the clipboard raw: only http and
/// https addresses, parsed and written out again, are handed on (WebAddress).
@MainActor @Suite struct HostileLinkTests {
    @Test func onlyCheckedWebAddressesPass() {
        let refused: [(String, WebAddress.Refusal)] = [
            ("file:///etc/passwd", .notWeb), ("javascript:alert(1)", .notWeb), ("--remote-debugging-port=9222", .notWeb),
            ("-new-window http://x", .spaces), ("data:text/html,<script>", .notWeb), ("ftp://example.com/", .notWeb),
            ("https://example.com/\u{1B}]52;c;AAAA\u{07}", .controlCharacters), ("https://example.com/\u{9B}31m", .controlCharacters),
            ("https://example.com/a\u{85}b", .controlCharacters), ("https://exa mple.com/", .spaces),
            ("https://example.com/\u{2028}", .spaces), ("https:///path", .noHost), ("https:example.com", .noHost),
            ("https://user:pw@example.com/", .userInfo),
            ("https://ex_am$ple.com/", .badHost), ("https://[::1/", .badHost), ("https://example.com:99999/", .badPort),
            ("https://example.com:8o/", .badPort), ("https://" + String(repeating: "a.", count: 200) + "com/", .badHost),
            ("https://example.com/" + String(repeating: "é", count: 5000), .tooLong),
            ("https://example.com/" + String(repeating: "a", count: 40_000), .tooLong),
        ]
        for (address, why) in refused {
            #expect(WebAddress.check(address) == .failure(why), "\(address.debugDescription)")
        }
        let kept: [(String, String)] = [
            ("https://example.com/a?b=c#d", "https://example.com/a?b=c#d"),
            ("HTTP://EXAMPLE.com:8080/Path", "http://example.com:8080/Path"),
            ("https://bücher.example/straße", "https://xn--bcher-kva.example/stra%C3%9Fe"),
            ("https://example.com/%41%zz", "https://example.com/%41%25zz"),
            ("https:\\\\example.com\\a", "https://example.com/a"), ("https://x.com\\@evil.example/", "https://x.com/@evil.example/"),
            ("https://[2001:db8::1]:443/", "https://[2001:db8::1]:443/"),
            ("https://example.com:/x", "https://example.com/x"),
        ]
        for (address, out) in kept {
            #expect(WebAddress.check(address) == .success(out), "\(address.debugDescription)")
        }
    }

    static func tweet(linking target: String) -> Tweet {
        var e = Entities()
        e.urls = [Entities.Link(target: target, display: "example.com", range: 5..<28)]
        return Tweet(id: TweetID(131), createdAt: Int64(Scene.now - 5), user: Scene.ann, text: "See: https://t.co/aaaaaaaaaa", entities: e)
    }

    @Test func thePickerOpensNothingUncheckedAndSaysWhy() async {
        for hostile in [
            "file:///etc/passwd", "javascript:alert(document.cookie)", "--remote-debugging-port=9222", "https://e.com/\u{1B}[2J\u{9D}x",
        ] {
            let store = await Scene.store()
            await store.add(Self.tweet(linking: hostile), to: [.home])
            let c = Scene.context(await store.snapshot())
            var s = Scene.state(120, 30)
            _ = Reducer.reduce(&s, .storeChanged, c)
            _ = Scene.run(&s, c, [.keys([.char("o")])])
            #expect(s.links?.items.first?.url == hostile)
            let fx = Scene.run(&s, c, [.keys([.enter])])
            #expect(!fx.contains { if case .openLink = $0 { true } else { false } }, "\(hostile.debugDescription): \(fx)")
            let notice = s.notice?.text ?? ""
            #expect(notice.hasPrefix("Not opened: ") && notice.contains("y copies it"), "\(notice)")
            #expect(!notice.unicodeScalars.contains { WebAddressTestsHelper.control($0) }, "\(notice.debugDescription)")
            // Still open: y copies it, its controls gone on the way to the clipboard.
            #expect(s.keyMode == .picker)
            let copy = Scene.run(&s, c, [.keys([.char("y")])])
            #expect(copy == [.copy(Clipboard.oneLine(hostile), what: Words.theAddress)])
            #expect(!Clipboard.oneLine(hostile).unicodeScalars.contains { WebAddressTestsHelper.control($0) })
        }
    }

    @Test func anIDNAddressIsOpenedInItsCheckedForm() async {
        let store = await Scene.store()
        await store.add(Self.tweet(linking: "https://bücher.example/ä"), to: [.home])
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(120, 30)
        _ = Reducer.reduce(&s, .storeChanged, c)
        let fx = Scene.run(&s, c, [.keys([.char("o"), .enter])])
        #expect(fx == [.openLink("https://xn--bcher-kva.example/%C3%A4")])
    }

    @Test func theBrowserGetsOneArgument() async throws {
        let dir = AppLoopTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let browser = dir.appendingPathComponent("browser.sh")
        let got = dir.appendingPathComponent("args.txt")
        try "#!/bin/sh\nprintf '%s|' \"$#\" \"$@\" > \(got.path)\n".write(to: browser, atomically: true, encoding: .utf8)
        chmod(browser.path, 0o700)
        let t = MemoryTerminal(width: 100, height: 20, script: [[], [.char("o")], [.enter], []])
        let (app, _) = try await AppLoopTests.app(t, cacheDir: dir) {
            $0.remoteSession = false
            $0.browser = browser.path
        }
        await app.run()
        var args = ""
        for _ in 0..<200 where args.isEmpty {
            args = (try? String(contentsOf: got, encoding: .utf8)) ?? ""
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(args.hasPrefix("1|https://") && args.filter { $0 == "|" }.count == 2, "\(args)")
    }

    @Test func theClipboardTakesCleanBoundedText() {
        #expect(Clipboard.text("a\u{1B}]52;c;x\u{07}b\u{9B}c\td\ne\u{7F}").text == "a]52;c;xbc\td\ne")
        let long = String(repeating: "字", count: 40_000)
        let (cut, wasCut) = Clipboard.text(long)
        #expect(wasCut && cut.utf8.count <= Clipboard.limit && cut.utf8.count > Clipboard.limit - 3 && long.hasPrefix(cut))
        #expect(Clipboard.text(String(repeating: "字", count: 25_000)).cut == false)
        // An address copied by y is one line: a line end pasted into a shell would run what follows.
        #expect(Clipboard.oneLine("http://x\nrm -rf ~\n\u{202E}\t") == "http://xrm -rf ~")
    }
}

enum WebAddressTestsHelper {
    static func control(_ u: Unicode.Scalar) -> Bool { u.value < 0x20 || (0x7F...0x9F).contains(u.value) }
}
