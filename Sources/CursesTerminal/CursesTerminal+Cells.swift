import CNcursesw
import Screen

/// Cells handed to ncurses.
extension CursesTerminal {
    /// One cell to ncurses: its attributes and colour pair, and its grapheme (or blanks where
    /// Linnet writes the grapheme itself after the update).
    func draw(_ cell: Cell, x: Int, y: Int, in screen: Screen, depth colorDepth: ColorDepth, last: inout (Style, attr_t, Int16)?) {
        let attrs: attr_t
        let pair: Int16
        // Runs of one style are the rule: the last answer first.
        if let (style, a, p) = last, style == cell.style {
            (attrs, pair) = (a, p)
        } else {
            (attrs, pair) = (Self.attributes(cell.style, depth: colorDepth), self.pair(cell.style))
            last = (cell.style, attrs, pair)
        }
        let n = screen.span(x, y)
        if var scalar = Self.single(cell, in: screen, cells: n) {
            // Most cells: one scalar as wide as its cells, handed over without an array.
            _ = cn_mvadd_cluster(Int32(y), Int32(x), &scalar, 1, attrs, pair)
            return
        }
        switch Self.plan(screen.scalars(of: cell), cells: n) {
        case .ncurses(let scalars):
            _ = scalars.withUnsafeBufferPointer { cn_mvadd_cluster(Int32(y), Int32(x), $0.baseAddress, Int32($0.count), attrs, pair) }
        case .raw:
            // ncurses keeps blanks in the grapheme's cells; the grapheme itself follows doupdate.
            let blank: [UInt32] = [32]
            for k in 0..<n {
                _ = blank.withUnsafeBufferPointer { cn_mvadd_cluster(Int32(y), Int32(x + k), $0.baseAddress, 1, attrs, pair) }
            }
        }
    }

    /// ncurses's attributes for a style at this depth.
    static func attributes(_ style: Style, depth colorDepth: ColorDepth) -> attr_t {
        var attrs: attr_t = 0
        let a = style.attributes
        // Bold black is drawn bright black (grey) by xterm and most terminals of 8 or 16 colours:
        // 3:1 on a light background. Black stays black there; the weight is what gives.
        if a.contains(.bold), colorDepth == .full || style.fg.index(at: colorDepth) != 0 { attrs |= cn_A_BOLD() }
        if a.contains(.underline) { attrs |= cn_A_UNDERLINE() }
        if a.contains(.reverse) { attrs |= cn_A_REVERSE() }
        if a.contains(.dim) { attrs |= cn_A_DIM() }
        if a.contains(.italic) { attrs |= cn_A_ITALIC() }
        return attrs
    }

    /// A colour pair for a style's colours at this terminal's depth, made on first use.
    func pair(_ style: Style) -> Int16 {
        let fg = style.fg.index(at: colorDepth) ?? -1
        let bg = style.bg.index(at: colorDepth) ?? -1
        if fg == -1 && bg == -1 { return 0 }
        let key = (fg + 1) << 16 | (bg + 1)
        if let p = pairs[key] { return p }
        let next = pairs.count + 1
        guard next < min(Int(cn_COLOR_PAIRS()), Int(Int16.max)) else { return 0 }
        init_pair(Int16(next), Int16(fg), Int16(bg))
        pairs[key] = Int16(next)
        return Int16(next)
    }

    /// What Linnet writes itself on rows ncurses touched, after its update: links inside OSC 8
    /// (so a click opens them), and graphemes ncurses cannot hold.
    func rawRowBytes(_ screen: Screen, rows: [Int], depth: ColorDepth) -> [UInt8] {
        var raw: [UInt8] = []
        for y in rows {
            var x = 0
            while x < screen.width {
                let cell = screen[x, y]
                // Printable ASCII, most cells, is one cell that ncurses holds.
                if cell.style.link == 0 || !hyperlinks, let v = screen.scalar(of: cell), v >= 0x20, v < 0x7F {
                    x += 1
                    continue
                }
                let n = screen.span(x, y)
                // A run of text leading to one address is written again inside OSC 8, raw
                // graphemes and all, so a click opens it.
                if hyperlinks, cell.style.link != 0, let target = Hyperlinks.target(of: cell.style.link) {
                    var parts: [(scalars: [UInt32], sgr: String)] = []
                    var end = x
                    while end < screen.width, screen[end, y].style.link == cell.style.link {
                        let c = screen[end, y]
                        if !c.isContinuation { parts.append((screen.scalars(of: c), Self.sgr(c.style, depth: depth))) }
                        end += screen.span(end, y)
                    }
                    raw += Self.linkBytes(parts, x: x, y: y, id: cell.style.link, target: target)
                    x = end
                    continue
                }
                if !cell.isContinuation, Self.single(cell, in: screen, cells: n) == nil,
                    case .raw = Self.plan(screen.scalars(of: cell), cells: n)
                {
                    let scalars = screen.scalars(of: cell)
                    raw += Self.rawBytes(scalars, x: x, y: y, sgr: Self.sgr(cell.style, depth: depth))
                    // A terminal may lay the scalars down one by one before joining them (kitty
                    // puts a wide watch over the next cell, then narrows it for VS-15 and leaves
                    // that cell blank): the cells they could reach are written again.
                    let reach = scalars.reduce(0) { $0 + max(0, Int(wcwidth(wchar_t(bitPattern: $1)))) }
                    if reach > n, x + n < screen.width {
                        raw += Self.rowBytes(screen, y: y, from: x + n, to: min(screen.width, x + reach), depth: depth, direct: directColor)
                    }
                }
                x += n
            }
        }
        return raw
    }

    /// Scrolls ncurses' window over `shift`'s region (scrolling allowed for the call alone);
    /// false, the window as it was, if ncurses refused.
    static func scrollWindow(_ shift: RowShift, height: Int) -> Bool {
        guard wsetscrreg(cn_stdscr(), Int32(shift.top), Int32(shift.bottom)) == OK else { return false }
        scrollok(cn_stdscr(), true)
        let scrolled = wscrl(cn_stdscr(), Int32(shift.by)) == OK
        scrollok(cn_stdscr(), false)
        wsetscrreg(cn_stdscr(), 0, Int32(height - 1))
        return scrolled
    }
}
