import LinnetCore
import Screen
import TOML
import Testing
import Timeline

@Suite struct ConfigTests {
    @Test func settingsAndKeyOverrides() throws {
        let c = try Config.parse(
            """
            theme = "mono"
            confirm_before_post = true
            bell_on_mention = true
            panes = ["home", "search:swift lang", "user:jack"]
            keep_per_timeline = 20000

            [poll]
            minimum_seconds = 120

            [keys.timeline]
            "ctrl-n" = "down"
            "j" = "none"
            """, file: "config.toml")
        #expect(c.theme == "mono" && c.confirmBeforePost && c.bellOnMention && c.minimumPollSeconds == 120)
        #expect(c.keepPerTimeline == 20000 && Config().keepPerTimeline == 5000)
        let back = try Config.parse(c.rendered, file: "again")
        #expect(back.keepPerTimeline == c.keepPerTimeline && back.panes == c.panes && back.minimumPollSeconds == c.minimumPollSeconds)
        #expect(c.panes.compactMap(Config.pane) == [.home, .search("swift lang"), .user("jack")])
        #expect(c.keyMap.resolve(.timeline, [.ctrl("n")]) == .command(.down))
        #expect(c.keyMap.resolve(.timeline, [.char("j")]) == .none)
        // What `linnet config` prints reads back the same.
        func bound(_ k: KeyMap) -> Set<String> { Set(k.bindings.map { "\($0.mode) \($0.keys) \($0.command)" }) }
        #expect(bound(try Config.parse(c.rendered, file: "again").keyMap) == bound(c.keyMap))
        #expect(try Config.parse("", file: "empty") == Config())
    }

    @Test(arguments: [
        ("theme = \"dark\"\nconfirm_before_post = \"yes\"\n", 2, "confirm_before_post must be true or false"),
        ("\n\ncolour = 3\n", 3, "unknown setting \"colour\""),
        ("panes = [\"home\", \"timeline:x\"]\n", 1, "panes must be a list"),
        ("[keys.timeline]\n\"j\" = \"fly\"\n", 2, "\"fly\" is not a command"),
        ("theme = \n", 1, "expected a value"),
        ("theme = \"dark\"\nkeep_per_timeline = 10\n", 2, "keep_per_timeline must be a whole number"),
    ]) func problemsNameTheLine(_ text: String, _ line: Int, _ words: String) {
        do {
            _ = try Config.parse(text, file: "config.toml")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.file == "config.toml")
            #expect(error.line == line, "\(error)")
            #expect(error.reason.contains(words), "\(error)")
        }
    }
}

/// Found by `make fuzz`: the C++ TOML parser Linnet used before aborted the program on these table
/// headers; they must stay errors.
@Suite struct ConfigFuzzFindings {
    @Test(arguments: [
        "[!keys]\n", "[ !x]\n", "[[!x]]\n", "[.a]\nx = 1\n", "theme = \"dark\"\n[@poll]\n", "[+1]\n", "[#x]\n", "[{a=1}]\n", "[[[a]]]\n",
        "[\n", "[[", "a = 1\r\n[\u{17}x]\r\n",
    ])
    func aBadTableNameIsAnErrorNotAnAbort(_ text: String) {
        #expect(throws: FileProblem.self) { _ = try Config.parse(text, file: "config.toml") }
    }

    @Test func arraysOverSeveralLinesStillRead() throws {
        let c = try Config.parse("panes = [\n  \"home\",\n  \"search:swift\",\n]\n", file: "config.toml")
        #expect(c.panes == ["home", "search:swift"])
    }
}

@Suite struct EscapeDelayConfigTests {
    @Test func theEscapeDelayIsSetAndChecked() throws {
        #expect(try Config.parse("escape_delay_ms = 80\n", file: "c.toml").escapeDelayMilliseconds == 80)
        #expect(Config().escapeDelayMilliseconds == 40)
        #expect(throws: Config.Problem.self) { try Config.parse("escape_delay_ms = 0\n", file: "c.toml") }
        // What `linnet config` prints reads back with the same settings.
        let back = try Config.parse(Config().rendered, file: "c.toml")
        #expect(back.escapeDelayMilliseconds == 40 && back.prices == UsagePrices() && back.budgetPerDay == nil)
    }
}
