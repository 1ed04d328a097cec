import CChafa

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
    ) -> RenderedPicture {
        // kitty and iTerm2 take files, made here (PictureFiles); libchafa would send raw pixels
        // (kitty) or an uncompressed TIFF (iTerm2), twice to twenty times the bytes.
        switch mode {
        case .kitty: return kitty(b, columns: columns, rows: rows, cell: cell)
        case .iterm: return iterm(b, columns: columns, rows: rows, cell: cell)
        default: break
        }
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_cell_geometry(config, Int32(max(1, cell.width)), Int32(max(1, cell.height)))
        chafa_canvas_config_set_pixel_mode(config, mode == .sixel ? CHAFA_PIXEL_MODE_SIXELS : CHAFA_PIXEL_MODE_SYMBOLS)
        switch (mode, colors) {
        case (.symbols, .none): chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_FGBG)
        case (.symbols, .indexed16): chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_INDEXED_16)
        default: chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        }
        if mode == .symbols {
            let map = cc_block_symbols()
            chafa_canvas_config_set_symbol_map(config, map)
            chafa_symbol_map_unref(map)
        }
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        b.rgba.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(
                canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, Int32(b.width), Int32(b.height), Int32(b.width * 4))
        }
        guard mode == .symbols else {
            // Sixel, as libchafa's terminal database writes it for a terminal that draws it.
            var n = 0
            let p = cc_print(canvas, "mlterm", nil, &n)
            guard let p else { return RenderedPicture(mode: mode, columns: columns, rows: rows, cells: [], bytes: []) }
            defer { free(p) }
            let bytes = p.withMemoryRebound(to: UInt8.self, capacity: n) { Array(UnsafeBufferPointer(start: $0, count: n)) }
            return RenderedPicture(mode: mode, columns: columns, rows: rows, cells: [], bytes: bytes)
        }
        var cells: [PictureCell] = []
        cells.reserveCapacity(columns * rows)
        for y in 0..<rows {
            for x in 0..<columns {
                let c = chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))
                var fg: Int32 = -1
                var bg: Int32 = -1
                chafa_canvas_get_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                let plain = colors == .none
                cells.append(
                    PictureCell(
                        scalar: Unicode.Scalar(c) ?? " ", fg: plain || fg < 0 ? nil : UInt32(fg) & 0xFF_FFFF,
                        bg: plain || bg < 0 ? nil : UInt32(bg) & 0xFF_FFFF))
            }
        }
        return RenderedPicture(mode: mode, columns: columns, rows: rows, cells: cells, bytes: [])
    }
}
