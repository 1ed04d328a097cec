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
