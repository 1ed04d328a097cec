import Foundation
import Testing

extension TerminalTests {
    /// Scrolling moves the rows already on the terminal (a scroll region, or the rows written
    /// again where the terminal has none): what tmux then holds must be what a whole redraw
    /// (Ctrl-L) draws, cell by cell, graphemes the terminal may measure otherwise among them.
    @Suite(.serialized) struct ScrollEndToEndTests {
        /// A cell as tmux holds it: its text and colours (a blank's foreground shows nothing).
        struct Cell: Equatable, CustomStringConvertible {
            var text: Character
            var fg: [Int]?
            var bg: [Int]?
            var attributes: Set<Int>
            var description: String { "\(text) fg \(fg ?? []) bg \(bg ?? []) \(attributes.sorted())" }
        }

        /// `capture-pane -p -e` read back into cells: SGR carries across rows, trailing blanks
        /// are left out.
        static func cells(_ captured: String) -> [[Cell]] {
            var fg: [Int]?
            var bg: [Int]?
            var attributes = Set<Int>()
            var rows: [[Cell]] = []
            for line in captured.components(separatedBy: "\n") {
                var row: [Cell] = []
                var rest = Substring(line)
                while let c = rest.first {
                    if c == "\u{1B}", rest.dropFirst().first == "[", let end = rest.firstIndex(of: "m") {
                        let params = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].split(
                            separator: ";", omittingEmptySubsequences: false
                        )
                        .map { Int($0) ?? 0 }
                        var i = 0
                        while i < params.count {
                            let p = params[i]
                            switch p {
                            case 0:
                                (fg, bg, attributes) = (nil, nil, [])
                            case 38, 48:
                                let n = params.dropFirst(i + 1).first == 5 ? 3 : 5
                                let colour = Array(params[i..<min(params.count, i + n)])
                                if p == 38 { fg = colour } else { bg = colour }
                                i += n - 1
                            case 39: fg = nil
                            case 49: bg = nil
                            case 30...37, 90...97: fg = [p]
                            case 40...47, 100...107: bg = [p]
                            case 22: attributes.subtract([1, 2])
                            case 23, 24, 25, 27: attributes.remove(p - 20)
                            default: attributes.insert(p)
                            }
                            i += 1
                        }
                        rest = rest[rest.index(after: end)...]
                        continue
                    }
                    row.append(Cell(text: c, fg: c == " " ? nil : fg, bg: bg, attributes: attributes))
                    rest = rest.dropFirst()
                }
                // tmux leaves out the cells a row was erased to its end, whatever their colour, but
                // keeps blanks written there: a row's trailing blanks are not compared.
                while let last = row.last, last.text == " ", !last.attributes.contains(4), !last.attributes.contains(7) { row.removeLast() }
                rows.append(row)
            }
            return rows
        }

        /// tmux's own terminal, which scrolls the rows; and one whose terminfo has no way to
        /// move lines (compiled here with `tic`), where they are written again.
        @Test(arguments: [false, true]) func scrolledRowsAreWhatARedrawDraws(linesCannotMove: Bool) async throws {
            guard DemoEndToEndTests.binaryIsBuilt() else { return }
            let port = DemoEndToEndTests.freePort()
            let stateDir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-scroll-\(port)").path
            defer { try? FileManager.default.removeItem(atPath: stateDir) }
            var terminal = ""
            if linesCannotMove {
                let source = stateDir + "/noscroll.ti"
                try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: true)
                try
                    "linnet-noscroll|xterm-256color without line moves,\n\tcsr@, ind@, ri@, indn@, rin@, il@, il1@, dl@, dl1@, use=xterm-256color,\n"
                    .write(toFile: source, atomically: true, encoding: .utf8)
                let tic = try await runProcess("/usr/bin/env", ["tic", "-x", "-o", stateDir + "/terminfo", source])
                #expect(tic.status == 0, "tic: \(tic.output)")
                terminal = "TERM=linnet-noscroll TERMINFO=\(stateDir)/terminfo"
            }
            // swift test sets NO_COLOR: colours are part of what must match.
            let tmux = try await Tmux.start(
                "env -u NO_COLOR \(terminal) XDG_CONFIG_HOME=\(stateDir)/config \(DemoEndToEndTests.binary) demo --port \(port) --tweets-per-minute 0 --state-dir \(stateDir); sleep 60",
                width: 100, height: 30)
            defer { tmux.kill() }
            let (ok, first) = try await tmux.wait(30) { $0.contains("Home: streaming") && $0.contains("▌") }
            #expect(ok, "no timeline appeared:\n\(first)")
            /// The pane once it stopped changing.
            func settled() async throws -> String {
                var last = try await tmux.colouredScreen()
                for _ in 0..<50 {
                    try await Task.sleep(for: .milliseconds(300))
                    let now = try await tmux.colouredScreen()
                    if now == last { return now }
                    last = now
                }
                return last
            }
            // Down a card at a time (each `j` past the bottom scrolls), then back up.
            for key in Array(repeating: "j", count: 40) + Array(repeating: "k", count: 15) {
                try await tmux.keys(key)
                try await Task.sleep(for: .milliseconds(40))
            }
            // Ages tick on the minute: the two captures are taken within the same one.
            let second = Int(Date().timeIntervalSince1970) % 60
            if second >= 54 { try await Task.sleep(for: .seconds(Double(61 - second))) }
            let scrolled = try await settled()
            try await tmux.keys("C-l")
            try await Task.sleep(for: .milliseconds(300))
            let redrawn = try await settled()
            let plain = try await tmux.screen()
            #expect(plain.contains("newer"), "the pane did not scroll:\n\(plain)")
            // Graphemes a terminal may measure otherwise (joined emoji, flags) are on the scrolled pane.
            #expect(plain.unicodeScalars.contains { $0 == "\u{200D}" || (0x1F1E6...0x1F1FF).contains($0.value) }, "\(plain)")
            let a = Self.cells(scrolled)
            let b = Self.cells(redrawn)
            let differing = (0..<max(a.count, b.count)).filter { y in (y < a.count ? a[y] : []) != (y < b.count ? b[y] : []) }
            #expect(differing.isEmpty, "rows \(differing) differ from a redraw:\n\(scrolled)\n---\n\(redrawn)")
        }
    }
}
