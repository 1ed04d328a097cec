import Testing

@testable import TweetText

@Suite struct SanitizerTests {
    @Test(arguments: [
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("\u{1B}]0;pwned\u{7}ok", "ok"),
        ("\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
        ("a\u{1B}P1$r\u{1B}\\b", "ab"),
        ("\u{9B}2Jcleared", "cleared"),
        ("\u{1B}(0x\u{1B}(B", "x"),
        ("\u{1B}7saved\u{1B}8", "saved"),
        ("bell\u{7}s", "bells"),
        ("del\u{7F}ete", "delete"),
        ("c1\u{85}x", "c1x"),
        ("tab\there", "tab    here"),
        ("line1\r\nline2\rline3", "line1\nline2\nline3"),
        ("keep\nnewline", "keep\nnewline"),
        ("\u{202E}txt.exe", "txt.exe"),
        ("a\u{2066}b\u{2069}c\u{202A}d\u{202C}", "abcd"),
        ("zero\u{200B}width", "zerowidth"),
        ("soft\u{AD}hyphen", "softhyphen"),
        ("bom\u{FEFF}", "bom"),
        ("👩\u{200D}💻", "👩\u{200D}💻"),
        ("\u{200D}edge", "edge"),
        ("edge\u{200D}", "edge"),
        ("می\u{200C}خواهم", "می\u{200C}خواهم"),
        ("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"),
        ("x\u{E0041}y", "xy"),
        ("para\u{2029}graph", "para\ngraph"),
        ("unterminated \u{1B}]0;title", "unterminated "),
        ("plain text, 日本語 and emoji 🐦", "plain text, 日本語 and emoji 🐦"),
    ])
    func sanitises(input: String, expected: String) {
        #expect(Sanitizer.sanitize(input) == expected)
    }

    @Test func outputNeverHoldsControlsOrOverrides() {
        var all = String.UnicodeScalarView()
        for v in 0..<0x3000 where v < 0xD800 {
            if let s = Unicode.Scalar(UInt32(v)) { all.append(s) }
        }
        let out = Sanitizer.sanitize(String(all))
        for s in out.unicodeScalars {
            let v = s.value
            #expect(v == 0x0A || v >= 0x20, "control U+\(String(v, radix: 16)) survived")
            #expect(!(0x7F...0x9F).contains(v), "C1/DEL U+\(String(v, radix: 16)) survived")
            #expect(!(0x202A...0x202E).contains(v) && !(0x2066...0x2069).contains(v))
        }
    }

    @Test(arguments: [
        ("a &amp; b", "a & b"), ("&lt;script&gt;", "<script>"), ("&amp;lt;", "&lt;"), ("it&#39;s", "it's"),
        ("&#x1F426;", "🐦"), ("&bogus; & alone &", "&bogus; & alone &"), ("&#xD800;", "&#xD800;"),
        ("&quot;q&quot;", "\"q\""), ("no entities", "no entities"),
    ])
    func decodesHTMLEntities(input: String, expected: String) {
        #expect(HTMLEntities.decode(input) == expected)
    }

    @Test func decodedEscapesAreStillSanitised() {
        #expect(Sanitizer.sanitize(HTMLEntities.decode("&#27;[2Jgone")) == "gone")
    }
}
