import Screen
import Testing

@testable import CursesTerminal

/// OSC 8: links on cards lead to their expanded address where the terminal takes them, the
/// address in Linnet's own encoding, never a byte a terminal could act on.
@Suite struct HyperlinkTests {
    @Test func addressesAreEncodedAndOnlyWebOnesTaken() {
        // WebAddress's rule: controls and spaces refuse the address; the rest is encoded.
        #expect(Hyperlinks.target("https://example.com/a b") == nil)
        #expect(Hyperlinks.target("https://example.com/?x=\u{1B}]8;;https://evil\u{07}\u{1B}\\end") == nil)
        let t = try! #require(Hyperlinks.target("https://example.com/a?q=ü&x=\"<>`{}|^"))
        #expect(t == "https://example.com/a?q=%C3%BC&x=%22%3C%3E%60%7B%7D%7C%5E")
        #expect(t.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
        #expect(Hyperlinks.target("HTTPS://Example.com/Path") == "https://example.com/Path")
        for refused in ["javascript:alert(1)", "file:///etc/passwd", "ftp://x", "example.com", ""] {
            #expect(Hyperlinks.target(refused) == nil, "\(refused)")
            #expect(Hyperlinks.id(for: refused) == 0)
            #expect(Hyperlinks.id(for: refused) == 0, "asked again, as it was checked: \(refused)")
        }
        // Two spellings of one address, each remembered as given: one number.
        let spelled = Hyperlinks.id(for: "HTTPS://Example.com/Spelled")
        #expect(spelled != 0 && Hyperlinks.id(for: "https://example.com/Spelled") == spelled)
        #expect(Hyperlinks.id(for: "HTTPS://Example.com/Spelled") == spelled)
        // Canonically equivalent spellings are other domains once encoded: each its own link,
        // whichever came first.
        let decomposed = Hyperlinks.id(for: "https://cafe\u{301}.com/")
        let precomposed = Hyperlinks.id(for: "https://caf\u{E9}.com/")
        #expect(decomposed != precomposed)
        #expect(Hyperlinks.target(of: precomposed) == Hyperlinks.target("https://caf\u{E9}.com/"))
        #expect(Hyperlinks.target(of: decomposed) == Hyperlinks.target("https://cafe\u{301}.com/"))
        // One number per address, for the life of the process.
        let a = Hyperlinks.id(for: "https://example.com/one")
        #expect(a != 0 && Hyperlinks.id(for: "https://example.com/one") == a)
        #expect(Hyperlinks.id(for: "https://example.com/two") != a)
        #expect(Hyperlinks.target(of: a) == "https://example.com/one")
        #expect(Hyperlinks.target(of: 0) == nil)
        // The link rides in the style's padding: a cell is still 16 bytes.
        #expect(MemoryLayout<Cell>.stride == 16)
    }

    @Test func linkBytesAreGolden() {
        let id = Hyperlinks.id(for: "https://example.com/a")
        let style = Style(fg: .indexed(4)).linked(id)
        var screen = Screen(width: 12, height: 2)
        _ = screen.put("see", x: 0, y: 1, style: .plain)
        _ = screen.put("exस्ते", x: 4, y: 1, style: style)
        var writer = FrameWriter(abilities: .xterm, depth: .full)
        writer.hyperlinks = true
        var bytes: [UInt8] = []
        writer.frame(screen, runs: Screen.diff(from: nil, to: screen), shift: nil, full: true, into: &bytes)
        // The link opened for its cells and closed after them.
        let expected =
            "\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[2;1Hsee\u{1B}[2;5H\u{1B}[0;34m\u{1B}]8;id=linnet-\(id);https://example.com/a\u{1B}\\ex  \u{1B}[2;7Hस्ते"
            + "\u{1B}]8;;\u{1B}\\"
        #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        // Without hyperlinks, no OSC 8.
        writer.hyperlinks = false
        bytes = []
        writer.frame(screen, runs: Screen.diff(from: nil, to: screen), shift: nil, full: true, into: &bytes)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("\u{1B}]8"))
    }

    @Test func theTerminalsKnownToTakeThem() {
        #expect(CursesTerminal.hyperlinksKnown(["TERM_PROGRAM": "WezTerm", "TERM": "xterm-256color"]))
        #expect(CursesTerminal.hyperlinksKnown(["TERM": "xterm-kitty"]))
        #expect(CursesTerminal.hyperlinksKnown(["TERM": "foot"]))
        #expect(CursesTerminal.hyperlinksKnown(["VTE_VERSION": "7200", "TERM": "xterm-256color"]))
        #expect(CursesTerminal.hyperlinksKnown(["WT_SESSION": "x"]))
        #expect(!CursesTerminal.hyperlinksKnown(["VTE_VERSION": "4800"]))
        #expect(!CursesTerminal.hyperlinksKnown(["TERM": "xterm-256color"]), "an ordinary xterm over ssh: not known")
        #expect(!CursesTerminal.hyperlinksKnown(["TERM": "tmux-256color", "TERM_PROGRAM": "WezTerm"]), "inside tmux")
        #expect(!CursesTerminal.hyperlinksKnown(["TMUX": "/tmp/x", "TERM": "xterm-kitty"]))
    }
}
