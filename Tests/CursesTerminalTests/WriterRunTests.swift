import Glibc
import Screen
import Testing

@testable import CursesTerminal

/// Runs of one-scalar cells (ASCII or not, narrow or wide) are written at once: the same bytes
/// as writing them cell by cell, over random frames (styles, links, blanks, wide graphemes and clusters, the bottom-right
/// cell, frames written whole or as changes, terminals with and without `bce` and `xenl`).
@Suite struct WriterRunTests {
    @Test func runsWriteTheBytesCellsDo() {
        var state: UInt64 = 20_261_128
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        let texts = [
            "word", " ", "   ", "a-b", "漢字", "e\u{301}", "👩‍👩‍👧", "x", "tail", "—", "\u{7F}", "Привет", "مرحبا", "é", "🙂", "\u{85}",
            "ｱ", "\u{200B}", "\u{1FAE8}", "\u{3030}", "\u{1F1E6}", "\u{1160}",
        ]
        // Both writers see the same process-wide state while other tests run: the UTF-8
        // character type every terminal start sets (`wcwidth` reads it), and a link of this
        // test's own in the address table.
        setlocale(LC_CTYPE, "C.UTF-8")
        var styles = [Style.plain, Style(fg: .indexed(2)), Style(fg: .indexed(2), bg: .indexed(4)), Style(bg: .default, .underline)]
        styles.append(styles[1].linked(Hyperlinks.id(for: "https://example.com/ascii-run")))
        func frame(_ width: Int, _ height: Int) -> Screen {
            var s = Screen(width: width, height: height)
            for y in 0..<height {
                var x = next(3)
                while x < width {
                    x = s.put(texts[next(texts.count)], x: x, y: y, style: styles[next(styles.count)])
                    x += next(2)
                }
            }
            return s
        }
        var bytes = 0
        for trial in 0..<600 {
            let (width, height) = (next(30) + 1, next(4) + 1)
            var abilities = TerminalAbilities.xterm
            abilities.backColorErase = next(2) == 0
            abilities.lastColumnSafe = next(2) == 0
            var runs = FrameWriter(abilities: abilities, depth: .full)
            var cells = runs
            cells.runs = false
            runs.hyperlinks = trial % 3 == 0
            cells.hyperlinks = runs.hyperlinks
            var old: Screen?
            for _ in 0..<3 {
                let new = frame(width, height)
                let full = old == nil || next(4) == 0
                let changed = Screen.diff(from: full ? nil : old, to: new)
                var a: [UInt8] = []
                var b: [UInt8] = []
                runs.frame(new, runs: changed, shift: nil, full: full, into: &a)
                cells.frame(new, runs: changed, shift: nil, full: full, into: &b)
                let (got, cellByCell) = (String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
                #expect(a == b, "\(got.debugDescription) against \(cellByCell.debugDescription)")
                bytes += a.count
                old = new
            }
        }
        #expect(bytes > 50_000, "bytes compared: \(bytes)")
    }
}
