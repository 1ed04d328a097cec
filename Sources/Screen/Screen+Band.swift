extension Screen {
    /// Lays a band's style over cells already written (a selected card): the band's colours
    /// where it sets them, the cell's elsewhere, both their attributes, the cell's link. The
    /// same as `restyle` with `band.over($0).linked($0.link)`, without a call a cell (46
    /// instructions a cell through the closure).
    public mutating func lay(_ band: Style, over rect: Rect) {
        let w = width
        let (left, right) = (max(0, rect.x), min(w, rect.maxX))
        guard left < right, max(0, rect.y) < min(height, rect.maxY) else { return }
        forget(rows: rect.y, to: rect.maxY)
        if Cell.isTwoWords {
            // As words (`Cell.isTwoWords`): the band's colours replace the cell's where set, its
            // attributes are or'ed in, the code and link stay (10 instructions a cell field by
            // field, a selection's move lays a card's rows).
            let fgKeep: UInt64 = band.fgBits == 0 ? ~0 : 0xFFFF_FFFF
            let fgSet = UInt64(band.fgBits) << 32
            let bgKeep: UInt64 = band.bgBits == 0 ? ~0 : ~0xFFFF_FFFF
            let bgSet = UInt64(band.bgBits) | UInt64(band.attributes.rawValue) << 32
            cells.withUnsafeMutableBytes { raw in
                for y in max(0, rect.y)..<min(height, rect.maxY) {
                    let row = raw.baseAddress! + (y &* w &+ left) &* 16
                    for i in 0..<(right - left) {
                        let first = row.loadUnaligned(fromByteOffset: i &* 16, as: UInt64.self)
                        let second = row.loadUnaligned(fromByteOffset: i &* 16 &+ 8, as: UInt64.self)
                        row.storeBytes(of: first & fgKeep | fgSet, toByteOffset: i &* 16, as: UInt64.self)
                        row.storeBytes(of: second & bgKeep | bgSet, toByteOffset: i &* 16 &+ 8, as: UInt64.self)
                    }
                }
            }
            return
        }
        cells.withUnsafeMutableBufferPointer { c in
            for y in max(0, rect.y)..<min(height, rect.maxY) {
                for x in left..<right {
                    let s = c[y &* w &+ x].style
                    var n = band
                    if n.fgBits == 0 { n.fgBits = s.fgBits }
                    if n.bgBits == 0 { n.bgBits = s.bgBits }
                    n.attributes.formUnion(s.attributes)
                    n.link = s.link
                    c[y &* w &+ x].style = n
                }
            }
        }
    }
}
