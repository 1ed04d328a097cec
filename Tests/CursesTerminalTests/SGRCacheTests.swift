import Screen
import Testing

@testable import CursesTerminal

/// The SGRs a writer keeps between frames (its last styles, looked through before the table)
/// are those a writer meeting each style for the first time makes: over more styles than it
/// keeps, replaced in turn, and after the colour depth changes.
@Suite struct SGRCacheTests {
    @Test func keptSGRsAreTheOnesMadeAfresh() {
        let styles = (0..<40).map { (i: Int) -> Style in
            let fg: Color = i % 3 == 0 ? .default : .indexed(UInt8(i))
            let bg: Color = i % 4 == 0 ? .rgb(UInt8(i), 9, 200) : .default
            let attributes: Attributes = i % 5 == 0 ? .bold : []
            return Style(fg: fg, bg: bg, attributes)
        }
        var kept = FrameWriter(abilities: .xterm, depth: .full)
        for round in 0..<60 {
            let depth: ColorDepth = round < 30 ? .full : .sixteen
            kept.depth = depth
            var screen = Screen(width: 24, height: 2)
            for y in 0..<2 {
                // Each round its own order over the styles, most of them in each frame.
                for x in 0..<24 { screen.put("x", x: x, y: y, style: styles[(x * 7 + y * 11 + round * 13) % styles.count]) }
            }
            let runs = Screen.diff(from: nil, to: screen)
            var fresh = FrameWriter(abilities: .xterm, depth: depth)
            kept.forget()
            var a: [UInt8] = []
            var b: [UInt8] = []
            kept.frame(screen, runs: runs, shift: nil, full: true, into: &a)
            fresh.frame(screen, runs: runs, shift: nil, full: true, into: &b)
            #expect(a == b, "round \(round)")
            #expect(a.count > 24 * 2 * 4)
        }
    }
}
