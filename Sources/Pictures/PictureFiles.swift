import FoundationEssentials

/// kitty and iTerm2 take a picture as a file: it is made here from Linnet's own decoding,
/// scaled to the pixels it is drawn in and encoded afresh (PNG for kitty, JPEG for iTerm2 where
/// the picture is opaque), so nothing the server sent reaches the terminal's decoder and a
/// photo costs about half the bytes of raw pixels (kitty) or a twentieth (iTerm2).
extension PictureRenderer {
    /// kitty's graphics protocol: transmit and display (`a=T`) a PNG (`f=100`) over `columns` x
    /// `rows` cells, base64 in chunks of at most 4096 bytes, `m=1` on all but the last, no
    /// answer wanted (`q=2`).
    static func kitty(_ b: Bitmap, columns: Int, rows: Int, cell: (width: Int, height: Int)) -> RenderedPicture {
        let scaled = b.scaledDown(toFit: columns * max(1, cell.width), rows * max(1, cell.height))
        guard let png = PictureEncoder.png(scaled, alpha: !scaled.isOpaque) else { return empty(.kitty, columns, rows) }
        let payload = Array(Data(png).base64EncodedString().utf8)
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + payload.count / 4096 * 16 + 64)
        var start = 0
        repeat {
            let end = min(payload.count, start + 4096)
            let more = end < payload.count ? 1 : 0
            let keys = start == 0 ? "a=T,f=100,q=2,c=\(columns),r=\(rows),m=\(more)" : "m=\(more)"
            out += Array("\u{1B}_G\(keys);".utf8) + payload[start..<end] + [0x1B, 0x5C]
            start = end
        } while start < payload.count
        return RenderedPicture(mode: .kitty, columns: columns, rows: rows, cells: [], bytes: out)
    }

    /// iTerm2's inline images (`ESC ] 1337 ; File=inline=1;size=…;width=…;height=… : base64 BEL`),
    /// the picture stretched over `columns` x `rows` cells as the other protocols draw it.
    static func iterm(_ b: Bitmap, columns: Int, rows: Int, cell: (width: Int, height: Int)) -> RenderedPicture {
        let scaled = b.scaledDown(toFit: columns * max(1, cell.width), rows * max(1, cell.height))
        guard let file = scaled.isOpaque ? PictureEncoder.jpeg(scaled, quality: 90) : PictureEncoder.png(scaled) else {
            return empty(.iterm, columns, rows)
        }
        let head = "\u{1B}]1337;File=inline=1;size=\(file.count);width=\(columns);height=\(rows);preserveAspectRatio=0:"
        return RenderedPicture(
            mode: .iterm, columns: columns, rows: rows, cells: [],
            bytes: Array(head.utf8) + Array(Data(file).base64EncodedString().utf8) + [0x07])
    }

    static func empty(_ mode: PictureMode, _ columns: Int, _ rows: Int) -> RenderedPicture {
        RenderedPicture(mode: mode, columns: columns, rows: rows, cells: [], bytes: [])
    }
}
