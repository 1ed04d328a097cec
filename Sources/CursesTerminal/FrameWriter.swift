import CNcursesw
import Glibc
import Screen

/// Writes frames to the terminal itself: the rows a scroll moved are moved by the terminal
/// (a scroll region), then each run of changed cells is written with the cursor moves, SGR and
/// OSC 8 links it needs, trailing blanks erased. What the terminal shows is the last frame
/// Linnet wrote, so there is no second picture of it to keep and compare (ncurses' update was
/// half of a key's instructions).
public struct FrameWriter {
    public var abilities: TerminalAbilities
    public var depth: ColorDepth {
        didSet {
            if depth != oldValue {
                sgrs = [:]
                recent = []
            }
        }
    }
    /// Links are written as OSC 8 hyperlinks.
    public var hyperlinks = false
    /// Runs of one-scalar cells in one style written at once (off: cell by cell, for tests).
    var runs = true
    /// The SGR of each style met (its link left out).
    private var sgrs: [Style: [UInt8]] = [:]
    /// The last styles' SGRs, looked through before `sgrs`: a frame uses a few styles, and
    /// hashing one to find it cost more than writing its bytes (about 330 instructions).
    private var recent: [(style: Style, bytes: [UInt8])] = []
    private var recentNext = 0
    /// The style the terminal draws with, nil when not known.
    private var pen: Style?
    /// Whether the terminal shows its cursor, nil when not known.
    private var cursorShown: Bool?
    /// Where the cursor was placed last, nil when not known.
    private var caret: (x: Int, y: Int)?

    public init(abilities: TerminalAbilities, depth: ColorDepth) {
        self.abilities = abilities
        self.depth = depth
    }

    /// Forgets what the terminal's state was (others wrote to it, or it was reset).
    public mutating func forget() {
        pen = nil
        cursorShown = nil
        caret = nil
    }

    /// The bytes that bring the terminal from the frame it shows to `screen`. `runs` are the
    /// cells that differ (`Screen.diff`) from the last frame as `shift` leaves it; `full`: the
    /// screen is cleared first and only cells other than plain blanks are written.
    public mutating func frame(_ screen: Screen, runs: [Screen.Run], shift: RowShift?, full: Bool, into out: inout [UInt8]) {
        var state = Pass(screen: screen, writer: self)
        // The pass holds the only copy of the kept SGRs while it writes (replacing one then
        // does not copy the list).
        recent = []
        if full {
            // The clear fills with the pen's background where the terminal has `bce`.
            state.style(.plain, into: &out)
            out += abilities.clear
            state.at = 0
        }
        if let s = shift { state.scroll(s, into: &out) }
        for run in runs { state.write(run, full: full, into: &out) }
        state.link(0, into: &out)
        pen = state.pen
        sgrs = state.writer.sgrs
        (recent, recentNext) = (state.writer.recent, state.writer.recentNext)
    }

    /// The cursor placed at the screen's caret and shown, or hidden when it has none; `moved`:
    /// something was written since the cursor was last placed.
    public mutating func cursor(_ screen: Screen, moved: Bool, into out: inout [UInt8]) {
        if let c = screen.cursor {
            if moved || caret.map({ $0 != (c.x, c.y) }) ?? true {
                Self.cursorMove(c.x, c.y, into: &out)
            }
            caret = c
            if cursorShown != true {
                out += abilities.showCursor
                cursorShown = true
            }
        } else {
            caret = nil
            if cursorShown != false {
                out += abilities.hideCursor
                cursorShown = false
            }
        }
    }

    /// One frame's writing: where the cursor is and how it draws.
    struct Pass {
        let screen: Screen
        var writer: FrameWriter
        var pen: Style?
        var openLink: UInt16 = 0
        /// The cursor's place as `y * width + x`, -1 when not known (after a grapheme the
        /// terminal may measure otherwise, at the right margin, after a scroll region is set).
        var at = -1
        let pictures: Bool

        init(screen: Screen, writer: FrameWriter) {
            self.screen = screen
            self.writer = writer
            pen = writer.pen
            pictures = !screen.pictures.isEmpty
        }

        mutating func move(_ x: Int, _ y: Int, into out: inout [UInt8]) {
            guard at != y * screen.width + x else { return }
            FrameWriter.cursorMove(x, y, into: &out)
            at = y * screen.width + x
        }

        /// The pen set to a style's attributes and colours (its link apart).
        mutating func style(_ s: Style, into out: inout [UInt8]) {
            var bare = s
            bare.link = 0
            guard pen != bare else { return }
            pen = bare
            if let i = writer.recent.firstIndex(where: { $0.style == bare }) {
                out += writer.recent[i].bytes
                return
            }
            let bytes: [UInt8]
            if let known = writer.sgrs[bare] {
                bytes = known
            } else {
                bytes = Array(CursesTerminal.sgr(bare, depth: writer.depth).utf8)
                writer.sgrs[bare] = bytes
            }
            out += bytes
            if writer.recent.count < 16 {
                writer.recent.append((bare, bytes))
            } else {
                writer.recent[writer.recentNext] = (bare, bytes)
                writer.recentNext = (writer.recentNext + 1) % 16
            }
        }

        /// The OSC 8 link cells are written under: closed, or opened for another address.
        mutating func link(_ id: UInt16, into out: inout [UInt8]) {
            let wanted = writer.hyperlinks ? id : 0
            guard wanted != openLink else { return }
            if openLink != 0 { out += Array("\u{1B}]8;;\u{1B}\\".utf8) }
            openLink = 0
            if wanted != 0, let target = Hyperlinks.target(of: wanted) {
                out += Array("\u{1B}]8;id=linnet-\(wanted);\(target)\u{1B}\\".utf8)
                openLink = wanted
            }
        }

        /// Moves the region's rows as `shift` says, the rows it brings in blank.
        mutating func scroll(_ s: RowShift, into out: inout [UInt8]) {
            link(0, into: &out)
            style(.plain, into: &out)
            out += [0x1B, 0x5B]
            decimal(s.top + 1, into: &out)
            out.append(0x3B)
            decimal(s.bottom + 1, into: &out)
            out.append(0x72)
            at = -1
            let n = abs(s.by)
            if writer.abilities.scrollMany {
                out += [0x1B, 0x5B]
                decimal(n, into: &out)
                out.append(s.by > 0 ? 0x53 : 0x54)
            } else {
                move(0, s.by > 0 ? s.bottom : s.top, into: &out)
                for _ in 0..<n { out += [0x1B, s.by > 0 ? 0x44 : 0x4D] }
            }
            // The whole screen again, whatever its size is by now.
            out += [0x1B, 0x5B, 0x72]
            at = -1
        }

        /// Whether blanks of this style may be erased rather than written.
        func erasable(_ c: Cell) -> Bool {
            guard screen.scalar(of: c) == 32, c.style.link == 0 || !writer.hyperlinks else { return false }
            guard c.style.attributes.intersection([.underline, .reverse]).isEmpty else { return false }
            return writer.abilities.backColorErase || c.style.bg.index(at: writer.depth) == nil
        }

        /// Where an erase to the row's end began, as `y * width + x`: later runs of the row
        /// past it are blanks already.
        var erased = -1

        mutating func write(_ run: Screen.Run, full: Bool, into out: inout [UInt8]) {
            let y = run.y
            let w = screen.width
            if erased >= 0, erased / w == y, run.x >= erased % w { return }
            var x = run.x
            while x > 0, screen[x, y].isContinuation { x -= 1 }
            var end = min(w, run.x + run.count)
            // Blanks to the row's end, all alike, are one erase (after a clear, plain ones are
            // there already). Those past the run show the same blank now and stay.
            var erase = w
            let last = screen[w - 1, y]
            // An erase starts at `x` at the earliest: a run of fewer than three cells (a moved
            // gutter bar) is written without looking along its row.
            if end - x >= 3, erasable(last), !(full && last == .blank) {
                let from = screen.sameToEnd(row: y, from: x)
                if end - from >= 3 { erase = from }
            }
            let blank = Cell.blank
            var reached = 0
            while x < min(end, erase) {
                let cell = screen[x, y]
                let n = screen.span(x, y)
                defer { x += n }
                if cell.isContinuation { continue }
                // After a clear, plain blanks are there already, unless a grapheme before
                // may have reached over them.
                if full, cell == blank, x >= reached { continue }
                if y == screen.height - 1, x + n == w, !writer.abilities.lastColumnSafe { continue }
                move(x, y, into: &out)
                if pictures, screen.inPicture(x, y) {
                    // A blank under the picture, which is written after the frame.
                    link(0, into: &out)
                    style(.plain, into: &out)
                    out.append(0x20)
                    advance(1)
                    continue
                }
                style(cell.style, into: &out)
                link(cell.style.link, into: &out)
                if let v = CursesTerminal.single(cell, in: screen, cells: n) {
                    if v < 0x80 { out.append(UInt8(v)) } else { utf8(v, into: &out) }
                    advance(n)
                    if !pictures, writer.runs {
                        x += oneScalarRun(after: x, n, y, cell.style, to: min(end, erase), full: full, reached: reached, into: &out)
                    }
                    continue
                }
                let scalars = screen.scalars(of: cell)
                guard CursesTerminal.plan(scalars, cells: n) == .apart else {
                    for v in scalars { utf8(v, into: &out) }
                    advance(n)
                    continue
                }
                // The terminal may measure it otherwise: its cells are blanked first (it may
                // draw it narrower), the next cell is found by a move, and the cells its
                // scalars could reach one by one are written again (kitty puts a wide watch
                // over the next cell, then narrows it for VS-15).
                out += repeatElement(0x20, count: n)
                at = -1
                move(x, y, into: &out)
                for v in scalars { utf8(v, into: &out) }
                at = -1
                let reach = scalars.reduce(0) { $0 + max(0, Int(wcwidth(wchar_t(bitPattern: $1)))) }
                if reach > n {
                    end = max(end, min(w, x + reach))
                    reached = max(reached, x + reach)
                }
            }
            if erase < w {
                move(erase, y, into: &out)
                let c = screen[erase, y]
                style(c.style, into: &out)
                link(0, into: &out)
                out += [0x1B, 0x5B, 0x4B]
                erased = y * w + erase
            }
        }
    }
}
