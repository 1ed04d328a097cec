import Testing

@testable import TOML

/// The TOML reader on examples from the TOML 1.0 specification's sections, and on the inputs
/// that made the parser it replaced abort.
@Suite struct TOMLParserTests {
    func parse(_ s: String) throws -> TOMLTable { try TOMLParser.parse(s) }

    @Test func keysTablesAndArraysOfTables() throws {
        let t = try parse(
            """
            # a comment
            title = "TOML" # after a value
            "quoted key" = 1
            'literal key' = 2
            site."google.com" = true
            a.b.c = 3

            [owner]
            name = "Tom"

            [dog."tater.man"]
            type.name = "pug"

            [[products]]
            name = "Hammer"
            [[products]]
            name = "Nail"
            """)
        #expect(t.keys == ["title", "quoted key", "literal key", "site", "a", "owner", "dog", "products"])
        #expect(t["site"]?.table?["google.com"]?.bool == true)
        #expect(t["a"]?.table?["b"]?.table?["c"]?.int == 3)
        #expect(t["dog"]?.table?["tater.man"]?.table?["type"]?.table?["name"]?.string == "pug")
        #expect(t["products"]?.array?.compactMap { $0.table?["name"]?.string } == ["Hammer", "Nail"])
    }

    @Test func strings() throws {
        let t = try parse(
            #"""
            basic = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF. \U0001F426"
            literal = 'C:\Users\nodejs\templates'
            multi = """
            Roses are red
            Violets are blue"""
            joined = """\
                   The quick brown \
                   fox."""
            raw = '''
            The first newline is
            trimmed in raw strings.'''
            quotes = """Here are two quotation marks: "". Simple enough."""
            """#)
        #expect(t["basic"]?.string == "I'm a string. \"You can quote me\". Name\tJosé\nLocation\tSF. 🐦")
        #expect(t["literal"]?.string == #"C:\Users\nodejs\templates"#)
        #expect(t["multi"]?.string == "Roses are red\nViolets are blue")
        #expect(t["joined"]?.string == "The quick brown fox.")
        #expect(t["raw"]?.string == "The first newline is\ntrimmed in raw strings.")
        #expect(t["quotes"]?.string == "Here are two quotation marks: \"\". Simple enough.")
    }

    @Test func numbersBooleansDatesArraysInlineTables() throws {
        let t = try parse(
            """
            int = +99
            neg = -17
            big = 1_000_000
            hex = 0xDEADBEEF
            oct = 0o755
            bin = 0b1101
            f1 = 3.1415
            f2 = -0.01
            f3 = 5e+22
            f4 = 6.626e-34
            inf = inf
            yes = true
            when = 1979-05-27T07:32:00Z
            nested = [ [ 1, 2 ], ["a", 'b'], ]
            multi = [
              1, # one
              2,
            ]
            point = { x = 1, y = 2, name.first = "p" }
            """)
        #expect(t["int"]?.int == 99 && t["neg"]?.int == -17 && t["big"]?.int == 1_000_000)
        #expect(t["hex"]?.int == 0xDEAD_BEEF && t["oct"]?.int == 0o755 && t["bin"]?.int == 13)
        #expect(t["f1"]?.double == 3.1415 && t["f2"]?.double == -0.01 && t["f3"]?.double == 5e22 && t["f4"]?.double == 6.626e-34)
        #expect(t["inf"]?.double == .infinity && t["yes"]?.bool == true)
        #expect(t["when"] == .datetime("1979-05-27T07:32:00Z"))
        #expect(t["nested"]?.array?.first?.array == [.int(1), .int(2)])
        #expect(t["multi"]?.array == [.int(1), .int(2)])
        #expect(t["point"]?.table?["name"]?.table?["first"]?.string == "p")
    }

    @Test(arguments: [
        ("a = 1\na = 2\n", 2, "set twice"),
        ("[t]\n[t]\n", 2, "defined twice"),
        ("s = \"open\n", 1, "not closed"),
        ("s = \"bad \\q\"\n", 1, "unknown escape"),
        ("n = 012\n", 1, "not a TOML value"),
        ("x = 1 2\n", 1, "end of the line"),
        ("p = { x = 1 }\n[p]\n", 2, "inline table"),
        ("[[!x]]\n", 1, "a key must be"),
        ("panes = [\"home\",}\"h:swift\"]\n", 1, "expected a value"),
        ("\u{FEFF}[*\u{E3}\n", 1, "a key must be"),
    ])
    func problemsAreErrorsWithTheirLine(_ text: String, _ line: Int, _ words: String) {
        do {
            _ = try TOMLParser.parse(text)
            Issue.record("accepted: \(text.debugDescription)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.reason.contains(words), "\(error)")
        }
    }

    /// Nesting past 64 is an error, not a stack overflow.
    @Test func deepNestingIsRefused() {
        #expect(throws: TOMLError.self) { _ = try TOMLParser.parse("a = " + String(repeating: "[", count: 100_000)) }
        #expect(throws: TOMLError.self) { _ = try TOMLParser.parse("a = " + String(repeating: "{b = ", count: 1000)) }
    }
}
