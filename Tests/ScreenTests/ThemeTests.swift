import Foundation
import LinnetTestSupport
import Screen
import Testing
import TweetText

@Suite struct ThemeTests {
    static let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Themes").standardized

    @Test func theShippedThemesLoadAndTheDefaultMatchesItsFile() throws {
        let env = ["LINNET_THEMES": Self.themes.path, "HOME": "/nonexistent"]
        let names = Theme.available(env)
        #expect(Set(["dark", "light", "solarized-dark", "mono"]).isSubset(of: Set(names)))
        for name in ["dark", "light", "solarized-dark", "mono"] {
            let t = try Theme.load(name, environment: env)
            #expect(t.name == name)
        }
        #expect(try Theme.load("dark", environment: env) == Theme.fallback)
        let mono = try Theme.load("mono", environment: env)
        for role in Theme.Role.allCases {
            #expect(mono[role].fg == .default && mono[role].bg == .default, "mono uses attributes only (\(role))")
        }
    }

    /// Every shipped theme is in the binary, as its file says; folders override it in the order
    /// the man page states: config home, then each data folder, first first.
    @Test func builtInThemesAndTheFoldersThatOverrideThem() throws {
        let bare = ["HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent"]
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.themes.path).filter { $0.hasSuffix(".toml") }
        #expect(files.count >= 4)
        for f in files {
            let name = String(f.dropLast(5))
            let text = try String(contentsOf: Self.themes.appendingPathComponent(f), encoding: .utf8)
            #expect(try Theme.load(name, environment: bare) == Theme.parse(text, file: f))
            #expect(Theme.sources(bare).contains { $0.name == name && $0.origin == "built in" })
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-themes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func put(_ dir: String, _ name: String) throws -> String {
            let folder = root.appendingPathComponent(dir).appendingPathComponent("linnet/themes")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("light.toml")
            try "name = \"\(name)\"\n[styles]\ntext = { fg = \"#000000\" }\n".write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        let second = try put("data2", "from-data2")
        let first = try put("data1", "from-data1")
        let config = try put("config", "from-config")
        var env = ["HOME": "/nonexistent", "XDG_DATA_DIRS": root.path + "/data1:" + root.path + "/data2"]
        #expect(try Theme.load("light", environment: env).name == "from-data1")
        #expect(Theme.sources(env).first { $0.name == "light" }?.origin == first)
        env["XDG_DATA_DIRS"] = root.path + "/data2"
        #expect(try Theme.load("light", environment: env).name == "from-data2")
        #expect(Theme.sources(env).first { $0.name == "light" }?.origin == second)
        env["XDG_CONFIG_HOME"] = root.path + "/config"
        #expect(try Theme.load("light", environment: env).name == "from-config")
        #expect(Theme.sources(env).first { $0.name == "light" }?.origin == config)
        #expect(try Theme.load("mono", environment: env).name == "mono")
    }

    @Test func brokenThemeFilesNameFileAndLine() {
        #expect(throws: Theme.LoadError(file: "bad.toml", line: 3, reason: "text.fg must be \"#rrggbb\", a number 0–255 or \"default\"")) {
            try Theme.parse("name = \"x\"\n[styles]\ntext = { fg = \"blue\" }\n", file: "bad.toml")
        }
        do {
            _ = try Theme.parse("name = \"x\"\n[styles]\ntext = { fg = \n", file: "broken.toml")
            Issue.record("a syntax error was accepted")
        } catch {
            #expect(error.file == "broken.toml")
            #expect(error.line == 3)
        }
        do {
            _ = try Theme.parse("[styles]\nsparkle = { bold = true }\n", file: "t.toml")
            Issue.record("an unknown role was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.reason.hasPrefix("unknown style \"sparkle\""))
        }
        #expect(throws: Theme.LoadError.self) { try Theme.load("no-such-theme", environment: ["HOME": "/nonexistent"]) }
    }
}

/// Every shipped theme is readable on the background it is made for: each role's text on its
/// own background (and a card's on the selected card's) reaches WCAG's 4.5:1, secondary text
/// and marks 3:1, in the 256 colours Linnet draws with and in the 16 or 8 of an older terminal.
@Suite struct ThemeContrastTests {
    @Test(arguments: ["dark", "light", "solarized-dark", "mono"])
    func everyRoleIsReadable(_ name: String) throws {
        let theme = try Theme.load(name, environment: ["HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent"])
        // 8 colours too (xterm as Debian sets it up: TERM=xterm), as the reader adapts the theme.
        for depth in [ColorDepth.full, .sixteen, .eight] {
            let all = theme.adapted(to: depth).contrasts(at: depth)
            #expect(all.count >= Theme.Role.allCases.count - 1)
            for c in all where c.ratio < c.needed {
                Issue.record(
                    "\(name) at \(depth.rawValue) colours: \(c.role.rawValue) on \(c.on) background is \(c.ratio) (needs \(c.needed))")
            }
        }
    }

    /// Nearest colour alone would draw the light theme's grey in cyan on 8 colours (2:1 on
    /// white); adapted, it is a colour that reads, and a grey stays a grey.
    @Test func fewColoursKeepContrastAndGreysStayGrey() throws {
        let light = try Theme.load("light", environment: ["HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent"])
        #expect(light[.time].fg.index(at: .eight) == 6)
        let adapted = light.adapted(to: .eight)
        #expect(adapted[.time].fg == .indexed(0))
        #expect(adapted[.handle] == light[.handle] || adapted[.handle].fg.index(at: .eight) != nil)
        #expect(light.adapted(to: .full) == light)
    }

    @Test func contrastIsWCAGs() {
        #expect(abs(Contrast.ratio((0, 0, 0), (255, 255, 255)) - 21) < 1e-9)
        #expect(abs(Contrast.ratio((255, 255, 255), (255, 255, 255)) - 1) < 1e-9)
        // WCAG's own example values: #777777 on white is 4.48:1, just short of AA.
        #expect(abs(Contrast.ratio((0x77, 0x77, 0x77), (255, 255, 255)) - 4.48) < 0.01)
        #expect(Contrast.isLight((255, 255, 255)) && !Contrast.isLight((0, 0x2b, 0x36)))
    }
}
