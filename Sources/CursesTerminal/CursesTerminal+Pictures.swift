import Screen

/// Pictures, written by Linnet around ncurses: ncurses holds blanks in a picture's cells; the
/// cells of a symbols picture are written here (in truecolor where the terminal takes it), a
/// graphic's sequence is written at its corner, and when a picture leaves, its cells are
/// written again from the new frame (ncurses believes them blank and would send nothing).
extension CursesTerminal {
    static let kittyDeleteAll = Array("\u{1B}_Ga=d,d=a,q=2\u{1B}\\".utf8)

    /// What to write after ncurses's update for the pictures of `screen`, given the last frame's
    /// and the rows that changed.
    public static func pictureBytes(
        _ screen: Screen, last: Screen?, full: Bool, touched: Set<Int>, depth: ColorDepth, direct: Bool,
        through tmux: TmuxPassthrough? = nil
    ) -> [UInt8] {
        let now = screen.pictures
        let before = full ? [] : (last?.pictures ?? [])
        guard !now.isEmpty || !before.isEmpty else { return [] }
        var out: [UInt8] = []
        let gone = before.filter { !now.contains($0) }
        // kitty keeps its pictures apart from the text: they go only when deleted, and deleting
        // is for all of them, so the ones that stay are drawn again.
        let kittyCleared = gone.contains { isKitty($0.bytes) }
        if kittyCleared { out += tmux?.wrap(kittyDeleteAll) ?? kittyDeleteAll }
        for p in gone {
            for y in p.rect.y..<min(screen.height, p.rect.maxY) {
                out += rowBytes(screen, y: y, from: p.rect.x, to: min(screen.width, p.rect.maxX), depth: depth, direct: direct)
            }
        }
        for p in now {
            let rows = p.rect.y..<min(screen.height, p.rect.maxY)
            if p.isGraphic {
                // Text written under sixel or iTerm2 pixels paints over them; kitty keeps its
                // pictures apart from the text, so sending one again would only stack a copy.
                let damaged = !isKitty(p.bytes) && rows.contains { touched.contains($0) }
                guard full || !before.contains(p) || damaged || (kittyCleared && isKitty(p.bytes)) else { continue }
                if let tmux {
                    out += tmux.wrap(p.bytes, x: p.rect.x, y: p.rect.y)
                } else {
                    out += Array("\u{1B}7\u{1B}[\(p.rect.y + 1);\(p.rect.x + 1)H".utf8) + p.bytes + Array("\u{1B}8".utf8)
                }
            } else {
                for y in rows where full || touched.contains(y) || !before.contains(p) {
                    out += rowBytes(screen, y: y, from: p.rect.x, to: min(screen.width, p.rect.maxX), depth: depth, direct: direct)
                }
            }
        }
        return out
    }

    static func isKitty(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x1B, 0x5F, 0x47]) }

    /// Cells `from..<to` of row `y` written as they are, cursor and attributes saved and
    /// restored around, the colour changed only where it changes.
    static func rowBytes(_ screen: Screen, y: Int, from: Int, to: Int, depth: ColorDepth, direct: Bool) -> [UInt8] {
        var out = Array("\u{1B}7".utf8)
        var lastSGR = ""
        var place = -1
        for (x, n) in cells(of: screen, y: y, from: from, to: to) {
            if x != place { out += Array("\u{1B}[\(y + 1);\(x + 1)H".utf8) }
            let cell = screen[x, y]
            let sgr = sgr(cell.style, depth: depth, direct: direct)
            if sgr != lastSGR {
                out += Array(sgr.utf8)
                lastSGR = sgr
            }
            for v in screen.scalars(of: cell) { if let u = Unicode.Scalar(v) { out += Array(String(u).utf8) } }
            // After a grapheme of more than one cell the terminal may disagree on its width.
            place = n == 1 ? x + 1 : -1
        }
        out += Array("\u{1B}[0m\u{1B}8".utf8)
        return out
    }
}
