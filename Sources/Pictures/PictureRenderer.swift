import CImageCodecs

/// How a terminal is asked to draw pictures.
public enum PictureMode: String, Sendable, CaseIterable {
    /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// iTerm2's inline images (OSC 1337), also WezTerm's and mintty's.
    case iterm
    /// DEC sixel (xterm -ti vt340, foot, mlterm, WezTerm, Windows Terminal).
    case sixel
    /// Block characters in colour: any terminal, tmux and ssh included.
    case symbols

    /// Whether the terminal draws pixels over the cells (the cells themselves are left blank).
    public var isGraphic: Bool { self != .symbols }
}

/// The colours symbols are drawn in: the terminal's depth, or none (`NO_COLOR`: shapes only).
public enum PictureColors: Sendable {
    case truecolor, indexed256, indexed16, none
}

/// One cell of a picture drawn with symbols: a block character and its two colours
/// (0xRRGGBB, or nil for the terminal's default).
public struct PictureCell: Sendable, Equatable {
    public var scalar: Unicode.Scalar
    public var fg: UInt32?
    public var bg: UInt32?
}

/// A picture made for a place on the screen: `columns` × `rows` cells, drawn either as cells
/// (`symbols`) or by the escape sequence in `bytes`, written at the top-left cell.
public struct RenderedPicture: Sendable, Equatable {
    public let mode: PictureMode
    public let columns: Int
    public let rows: Int
    /// Row by row, `columns` × `rows` of them (symbols only).
    public let cells: [PictureCell]
    /// The sequence that draws it (kitty, iTerm2, sixel).
    public let bytes: [UInt8]
}

/// Pictures made into cells or terminal sequences with libchafa.
public enum PictureRenderer {
    /// The cells a picture of `width` × `height` pixels takes at its largest inside
    /// `columns` × `rows` cells of `cell` pixels each, keeping its shape.
    public static func fit(
        width: Int, height: Int, columns: Int, rows: Int, cell: (width: Int, height: Int)
    ) -> (columns: Int, rows: Int) {
        guard width > 0, height > 0, columns > 0, rows > 0 else { return (0, 0) }
        let cw = Double(max(1, cell.width))
        let ch = Double(max(1, cell.height))
        let scale = min(Double(columns) * cw / Double(width), Double(rows) * ch / Double(height))
        let c = Int((Double(width) * scale / cw).rounded())
        let r = Int((Double(height) * scale / ch).rounded())
        return (min(columns, max(1, c)), min(rows, max(1, r)))
    }

    /// The picture drawn into exactly `columns` × `rows` cells (see `fit`).
    public static func render(
        _ b: Bitmap, columns: Int, rows: Int, mode: PictureMode, colors: PictureColors, cell: (width: Int, height: Int)
    ) throws(PictureFailure) -> RenderedPicture {
        // kitty and iTerm2 take files, made here (PictureFiles); libchafa would send raw pixels
        // (kitty) or an uncompressed TIFF (iTerm2), twice to twenty times the bytes.
        switch mode {
        case .kitty: return kitty(b, columns: columns, rows: rows, cell: cell)
        case .iterm: return iterm(b, columns: columns, rows: rows, cell: cell)
        default: break
        }
        let cellSize = (width: Int32(max(1, cell.width)), height: Int32(max(1, cell.height)))
        guard mode == .symbols else {
            // Sixel, as libchafa's terminal database writes it for a terminal that draws it.
            var n = 0
            let p = b.rgba.withUnsafeBufferPointer {
                lc_chafa_sixel(
                    $0.baseAddress, Int32(b.width), Int32(b.height), Int32(columns), Int32(rows), cellSize.width, cellSize.height, &n)
            }
            guard let p else { throw chafaFailure() }
            defer { lc_free(p) }
            let bytes = p.withMemoryRebound(to: UInt8.self, capacity: n) { Array(UnsafeBufferPointer(start: $0, count: n)) }
            return RenderedPicture(mode: mode, columns: columns, rows: rows, cells: [], bytes: bytes)
        }
        let canvas: Int32
        switch colors {
        case .none: canvas = Int32(LC_CHAFA_CANVAS_MODE_FGBG)
        case .indexed16: canvas = Int32(LC_CHAFA_CANVAS_MODE_INDEXED_16)
        default: canvas = Int32(LC_CHAFA_CANVAS_MODE_TRUECOLOR)
        }
        let count = columns * rows
        var chars = [UInt32](repeating: 0, count: count)
        var fgs = [Int32](repeating: -1, count: count)
        var bgs = [Int32](repeating: -1, count: count)
        let drawn = b.rgba.withUnsafeBufferPointer { px in
            lc_chafa_cells(
                px.baseAddress, Int32(b.width), Int32(b.height), Int32(columns), Int32(rows), cellSize.width, cellSize.height, canvas,
                &chars, &fgs, &bgs)
        }
        guard drawn == 1 else { throw chafaFailure() }
        let plain = colors == .none
        let cells = (0..<count).map { i in
            PictureCell(
                scalar: Unicode.Scalar(chars[i]) ?? " ", fg: plain || fgs[i] < 0 ? nil : UInt32(fgs[i]) & 0xFF_FFFF,
                bg: plain || bgs[i] < 0 ? nil : UInt32(bgs[i]) & 0xFF_FFFF)
        }
        return RenderedPicture(mode: mode, columns: columns, rows: rows, cells: cells, bytes: [])
    }

    /// libchafa missing (said as the loader found it), or refusing the canvas.
    private static func chafaFailure() -> PictureFailure {
        PictureFailure(lc_chafa_load().map { String(cString: $0) } ?? "libchafa could not draw the picture")
    }
}
