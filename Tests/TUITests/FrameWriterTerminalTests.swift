import CursesTerminal
import Foundation
import Screen
import Testing
import TwitterSimulator

/// Frames as `FrameWriter` writes them, read back from a real terminal (tmux, on its pane's
/// tty): after every frame, with scroll regions, erased blanks and moves over wide text, the
/// terminal shows the screen's text and cursor. (Graphemes a terminal may measure otherwise,
/// where tmux's text has blanks the screen's has not, and colours are compared by
/// `ScrollEndToEndTests`, a scrolled pane against its redraw;
/// tmux's capture leaves out cells erased to a row's end, so the bytes that erase them in a
/// colour are checked by `TerminalFormTests`.)
@Suite(.serialized) struct FrameWriterTerminalTests {
    static let words = [
        "plain", "words", "漢字かな", "한국어", "مرحبا", "e\u{301}te\u{301}", "👍", "Zoë", "中文，标点。", "—", "status", "@ann", "#tag",
    ]

    /// A frame of `rows` (a pane of text lines) with a band behind row `band`, a status bar
    /// below in reverse, and perhaps a caret; `anchored`, each line anchored by its index, as
    /// the timeline anchors its cards.
    static func frame(
        _ lines: ArraySlice<String>, band: Int?, width: Int, height: Int, caret: Bool, anchored: Bool = false, misplaced: Int = 0
    ) -> Screen {
        var s = Screen(width: width, height: height)
        for (y, (i, l)) in zip(lines.indices, lines).prefix(height - 1).enumerated() {
            // `misplaced`: every anchor that many rows off (a frame that misleads).
            if anchored { s.anchors.append(Anchor(key: UInt64(i), y: y + misplaced, top: 0, bottom: height - 2)) }
            // Each line's colour its own, so a scroll moves rows the terminal can move.
            let style = y == band ? Style(fg: .indexed(15), bg: .indexed(24)) : Style(fg: .indexed(UInt8(i % 7 + 1)))
            if y == band { s.fill(Rect(x: 0, y: y, width: width, height: 1), style: style) }
            _ = s.put(l, x: 0, y: y, style: style)
        }
        s.fill(Rect(x: 0, y: height - 1, width: width, height: 1), style: Style(fg: .default, bg: .default, [.reverse]))
        _ = s.put("home · \(lines.count) posts", x: 1, y: height - 1, style: Style(fg: .default, bg: .default, [.reverse]))
        if caret { s.cursor = (3, height - 1) }
        return s
    }

    /// Writes frames one after another as `CursesTerminal` does (the scroll found from the
    /// frames' anchors, or from the rows' hashes) and compares the pane with each.
    /// `misleading`: the anchors put some lines rows away from where they are drawn, so some
    /// moves the terminal makes are wrong; the picture must still be right.
    func play(abilities: TerminalAbilities, seed: UInt64, anchored: Bool = false, misleading: Bool = false) async throws {
        let (width, height) = (48, 14)
        let pane = try await Tmux.start("sleep 600", width: width, height: height)
        defer { pane.kill() }
        let tty = try await pane.display("#{pane_tty}")
        let out = try #require(FileHandle(forWritingAtPath: tty))
        defer { try? out.close() }
        // Autowrap off, as `CursesTerminal` sets it.
        try out.write(contentsOf: Data("\u{1B}[?7l".utf8))
        var writer = FrameWriter(abilities: abilities, depth: .full)
        var rng = SimRandom(state: seed)
        func line() -> String {
            (0..<Int(rng.next() % 6 + 1)).map { _ in Self.words[Int(rng.next() % UInt64(Self.words.count))] }.joined(separator: " ")
        }
        var lines = (0..<40).map { _ in line() }
        var top = 0
        var (shownTop, wrongMoves) = (0, 0)
        defer { #expect(wrongMoves > 0 || !misleading, "no move was wrong") }
        var band = 2
        var last: Screen?
        var shifts = 0
        defer { #expect(shifts > 0 || !abilities.scrollRegions, "no frame was a scroll") }
        for step in 0..<24 {
            switch rng.next() % 4 {
            case 0: top = min(lines.count - 10, top + Int(rng.next() % 4 + 1))  // scrolled down
            case 1: top = max(0, top - Int(rng.next() % 4 + 1))  // scrolled up
            case 2: band = Int(rng.next() % UInt64(height - 1))  // the selection moved
            default: lines[top + Int(rng.next() % 8)] = line()  // a post changed
            }
            let screen = Self.frame(
                lines[top...], band: band, width: width, height: height, caret: step % 5 == 4, anchored: anchored,
                misplaced: misleading ? Int(rng.next() % 7) - 3 : 0)
            var shift: RowShift?
            if let last, abilities.scrollRegions {
                let found = Screen.scroll(from: last, to: screen, oldHashes: nil)
                shift = found.shift
                // Frames whose anchors say their moves are not hashed.
                if anchored, !misleading { #expect(found.hashes == nil, "step \(step)") }
            }
            if shift != nil { shifts += 1 }
            if let shift, shift.by != top - shownTop { wrongMoves += 1 }
            shownTop = top
            var bytes: [UInt8] = []
            writer.frame(screen, runs: Screen.diff(from: last, through: shift, to: screen), shift: shift, full: last == nil, into: &bytes)
            writer.cursor(screen, moved: !bytes.isEmpty, into: &bytes)
            // The pane's title set after the frame: once tmux shows it, it has read the frame.
            bytes += Array("\u{1B}]2;step \(seed) \(step)\u{1B}\\".utf8)
            try out.write(contentsOf: Data(bytes))
            var title = ""
            for _ in 0..<100 {
                title = try await pane.display("#{pane_title}")
                if title == "step \(seed) \(step)" { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(title == "step \(seed) \(step)")
            let expected = screen.text
            let shown = try await pane.screen()
            #expect(
                shown.trimmingCharacters(in: .newlines) == expected.trimmingCharacters(in: .newlines),
                "step \(step) (seed \(seed)):\n\(shown)\nexpected:\n\(expected)")
            let cursor = try await pane.display("#{cursor_x},#{cursor_y},#{cursor_flag}")
            if step % 5 == 4 {
                #expect(cursor == "3,\(height - 1),1", "step \(step)")
            } else {
                #expect(cursor.hasSuffix(",0"), "step \(step): the cursor is hidden")
            }
            last = screen
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64]) func framesAsAnXterm(seed: UInt64) async throws {
        try await play(abilities: .xterm, seed: seed)
    }

    /// Scrolls the frames' anchors say (their regions whole), as the timeline's frames.
    @Test(arguments: [6, 7] as [UInt64]) func framesScrolledAsTheirAnchorsSay(seed: UInt64) async throws {
        try await play(abilities: .xterm, seed: seed, anchored: true)
    }

    /// Anchors that mislead cost bytes, never the picture.
    @Test func framesWithMisleadingAnchorsStillShowTheirCells() async throws {
        try await play(abilities: .xterm, seed: 8, anchored: true, misleading: true)
    }

    /// A terminal that scrolls a line at a time and erases only to the default background.
    @Test func framesWithTheLeastAbilities() async throws {
        var least = TerminalAbilities.xterm
        least.scrollMany = false
        least.backColorErase = false
        least.lastColumnSafe = false
        try await play(abilities: least, seed: 4)
        least.scrollRegions = false
        try await play(abilities: least, seed: 5)
    }
}
