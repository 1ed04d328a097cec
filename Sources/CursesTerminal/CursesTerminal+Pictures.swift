import Screen

/// Pictures, written after the frame's cells: the frame holds blanks in a picture's cells; the
/// cells of a symbols picture are written here (in truecolor where the terminal takes it), a
/// graphic's sequence is written at its corner, and when a picture leaves, its cells are
/// written again from the new frame (blanks both times, the diff would send nothing).
/// kitty's pictures are sent once and placed by id (`KittyImages`).
extension CursesTerminal {
    /// What to write after the frame's cells for the pictures of `screen`, given the last frame's
    /// and the rows that changed. kitty pictures are sent once and placed by id (`kitty`).
    public static func pictureBytes(
        _ screen: Screen, last: Screen?, full: Bool, touched: Set<Int>, depth: ColorDepth, direct: Bool,
        kitty: inout KittyImages, through tmux: TmuxPassthrough? = nil
    ) -> [UInt8] {
        let now = screen.pictures
        let before = full ? [] : (last?.pictures ?? [])
        var out: [UInt8] = []
        // A frame drawn whole follows a clear, which takes kitty's pictures off the screen (and
        // perhaps their data): they are freed, and sent again when shown.
        if full { for id in kitty.takeAll() { out += passed(KittyImages.free(id), tmux) } }
        guard !now.isEmpty || !before.isEmpty else { return out }
        let gone = before.filter { !now.contains($0) }
        // kitty keeps its pictures apart from the text: each placement is the picture's at one
        // place (the same photo may be on screen twice), deleted when that place no longer shows
        // it; one that moved is placed again below.
        let kittyKeys = Set(now.filter { isKitty($0.bytes) }.map(\.key))
        for p in gone where isKitty(p.bytes) {
            if let id = kitty.id(of: p.key) { out += passed(KittyImages.unplace(id, at: p.rect), tmux) }
        }
        for p in gone {
            for y in p.rect.y..<min(screen.height, p.rect.maxY) {
                out += rowBytes(screen, y: y, from: p.rect.x, to: min(screen.width, p.rect.maxX), depth: depth, direct: direct)
            }
        }
        for p in now {
            let rows = p.rect.y..<min(screen.height, p.rect.maxY)
            if p.isGraphic {
                if isKitty(p.bytes) {
                    guard full || !before.contains(p) else { continue }
                    // A sequence of another form than Linnet's own is written as it is.
                    guard KittyImages.isOwn(p.bytes) else {
                        out += placed(p.bytes, p.rect, tmux)
                        continue
                    }
                    let (id, fresh, evicted) = kitty.place(p.key, size: p.bytes.count, keep: kittyKeys)
                    for old in evicted { out += passed(KittyImages.free(old), tmux) }
                    if fresh, let send = KittyImages.transmit(p.bytes, id: id) { out += passed(send, tmux) }
                    out += placed(KittyImages.place(id, at: p.rect), p.rect, tmux)
                    continue
                }
                // Text written under sixel or iTerm2 pixels paints over them.
                let damaged = rows.contains { touched.contains($0) }
                guard full || !before.contains(p) || damaged else { continue }
                out += placed(p.bytes, p.rect, tmux)
            } else {
                for y in rows where full || touched.contains(y) || !before.contains(p) {
                    out += rowBytes(screen, y: y, from: p.rect.x, to: min(screen.width, p.rect.maxX), depth: depth, direct: direct)
                }
            }
        }
        return out
    }

    /// A sequence written at a cell, the cursor saved before and put back after.
    static func placed(_ bytes: [UInt8], _ at: Rect, _ tmux: TmuxPassthrough?) -> [UInt8] {
        if let tmux { return tmux.wrap(bytes, x: at.x, y: at.y) }
        return Array("\u{1B}7\u{1B}[\(at.y + 1);\(at.x + 1)H".utf8) + bytes + Array("\u{1B}8".utf8)
    }

    /// A sequence with no place of its own (kitty's sending and deleting).
    static func passed(_ bytes: [UInt8], _ tmux: TmuxPassthrough?) -> [UInt8] { tmux?.wrap(bytes) ?? bytes }

    /// Every kitty picture sent deleted with its data: when Linnet leaves or hands the terminal
    /// to another program (through tmux they are on the outer screen, over whatever comes next).
    func freeKittyImages() {
        guard !kittyImages.isEmpty else { return }
        Self.writeAll(kittyImages.takeAll().flatMap { Self.passed(KittyImages.free($0), tmux) })
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
