import Foundation
import Pictures
import Screen
import Testing

@testable import CursesTerminal

@Suite struct PictureRendererTests {
    @Test func fitKeepsTheShape() {
        // 1200x800 in 100x40 cells of 10x20 pixels: 1000x400 px of room, height binds.
        let f = PictureRenderer.fit(width: 1200, height: 800, columns: 100, rows: 40, cell: (10, 20))
        // 1200x800 in 100x40 cells of 10x20: 1000x800 px of room, the width binds at 1000x667.
        #expect(f.columns == 100 && f.rows == 33)
        let tall = PictureRenderer.fit(width: 800, height: 1200, columns: 100, rows: 40, cell: (10, 20))
        #expect(tall.columns == 53 && tall.rows == 40)
        let wide = PictureRenderer.fit(width: 2000, height: 100, columns: 50, rows: 40, cell: (10, 20))
        #expect(wide.columns == 50 && wide.rows == 1)
        #expect(PictureRenderer.fit(width: 0, height: 10, columns: 5, rows: 5, cell: (10, 20)) == (0, 0))
    }

    /// Symbols: cells of the picture's colours where the picture has them.
    @Test func symbolsCarryThePicturesColours() throws {
        let p = try PictureRenderer.render(scene(400, 300), columns: 40, rows: 15, mode: .symbols, colors: .truecolor, cell: (10, 20))
        #expect(p.cells.count == 600 && p.bytes.isEmpty)
        func rgb(_ v: UInt32?) -> [Int] { v.map { [Int($0 >> 16), Int($0 >> 8 & 0xFF), Int($0 & 0xFF)] } ?? [] }
        let centre = p.cells[7 * 40 + 20]
        let corner = p.cells[0]
        #expect(near(rgb(centre.bg), [230, 20, 20], 30) || near(rgb(centre.fg), [230, 20, 20], 30))
        #expect(near(rgb(corner.bg), [40, 110, 210], 30) || near(rgb(corner.fg), [40, 110, 210], 30))
        // Every symbol takes one cell (no wide or ambiguous ones).
        #expect(p.cells.allSatisfy { Screen.width(of: Character($0.scalar)) == 1 })
        let plain = try PictureRenderer.render(scene(400, 300), columns: 40, rows: 15, mode: .symbols, colors: .none, cell: (10, 20))
        #expect(plain.cells.allSatisfy { $0.fg == nil && $0.bg == nil })
    }

    /// kitty's graphics protocol: APC `ESC _ G keys ; base64 ESC \`, chunks of at most 4096
    /// bytes of base64, `m=1` on every chunk but the last (sw.kovidgoyal.net/kitty/graphics-protocol).
    @Test func kittyBytesAreTheDocumentedForm() throws {
        // Noise: a PNG of it is larger than one chunk.
        var seed: UInt32 = 7
        let noise = (0..<200 * 150).flatMap { _ -> [UInt8] in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return [
                UInt8(truncatingIfNeeded: seed >> 24), UInt8(truncatingIfNeeded: seed >> 16), UInt8(truncatingIfNeeded: seed >> 8), 255,
            ]
        }
        let p = try PictureRenderer.render(
            Bitmap(width: 200, height: 150, rgba: noise), columns: 20, rows: 8, mode: .kitty, colors: .truecolor, cell: (10, 20))
        let text = String(decoding: p.bytes, as: UTF8.self)
        let chunks = text.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        #expect(chunks.count >= 2)
        for (i, c) in chunks.enumerated() {
            #expect(c.hasPrefix("\u{1B}_G"), "chunk \(i) begins \(c.prefix(8).debugDescription)")
            let parts = c.dropFirst(3).split(separator: ";", maxSplits: 1)
            let keys = Dictionary(parts[0].split(separator: ",").map { ($0.split(separator: "=")[0], $0.split(separator: "=")[1]) }) {
                a, _ in a
            }
            let payload = parts.count > 1 ? parts[1] : ""
            #expect(payload.count <= 4096)
            #expect(payload.allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) })
            #expect(keys["m"] == (i == chunks.count - 1 ? "0" : "1") || (i == chunks.count - 1 && keys["m"] == nil))
            if i == 0 {
                #expect(keys["a"] == "T")
                #expect(keys["c"] == "20" && keys["r"] == "8")
            }
        }
        // A PNG (f=100), the picture scaled to the cells' pixels (20x8 cells of 10x20: at most
        // 200x160, the shape kept), its colours kept (the disc's red in the middle).
        #expect(text.contains("f=100"))
        let pictured = try PictureRenderer.render(scene(200, 150), columns: 20, rows: 8, mode: .kitty, colors: .truecolor, cell: (10, 20))
        let base64 = String(decoding: pictured.bytes, as: UTF8.self).components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }.map {
            $0.split(separator: ";", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        }.joined()
        let png = try #require(Data(base64Encoded: base64))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let back = try PictureDecoder.decode([UInt8](png))
        #expect(back.width == 200 && back.height == 150)
        let middle = (back.height / 2 * back.width + back.width / 2) * 4
        #expect(back.rgba[middle] > 200 && back.rgba[middle + 1] < 60 && back.rgba[middle + 2] < 60)
        // A larger picture is sent at the cells' pixels, not its own.
        let big = try PictureRenderer.render(scene(1200, 900), columns: 20, rows: 8, mode: .kitty, colors: .truecolor, cell: (10, 20))
        #expect(big.bytes.count < 200 * 160 * 4)
    }

    /// The scale keeps a picture's shape and averages what each pixel covers.
    @Test func scalingDownAveragesAndKeepsTheShape() {
        let half = Bitmap(width: 4, height: 2, rgba: checker())
        let s = half.scaledDown(toFit: 2, 2)
        #expect(s.width == 2 && s.height == 1)
        #expect(s.rgba == [128, 128, 128, 255, 128, 128, 128, 255])
        #expect(half.scaledDown(toFit: 8, 8) == half)
    }

    /// Black and white in a checker, 4x2.
    func checker() -> [UInt8] {
        (0..<8).flatMap { i -> [UInt8] in (i + i / 4) % 2 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
    }

    /// iTerm2's inline images: `ESC ] 1337 ; File=inline=1 … : base64 BEL` (iterm2.com/documentation-images.html).
    @Test func itermBytesAreTheDocumentedForm() throws {
        let p = try PictureRenderer.render(scene(200, 150), columns: 20, rows: 8, mode: .iterm, colors: .truecolor, cell: (10, 20))
        let text = String(decoding: p.bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}]1337;File="))
        let args = try #require(text.split(separator: ":", maxSplits: 1).first)
        #expect(args.contains("inline=1"))
        #expect(text.hasSuffix("\u{07}") || text.hasSuffix("\u{1B}\\"))
        let body = text.split(separator: ":", maxSplits: 1)[1].dropLast(text.hasSuffix("\u{07}") ? 1 : 2)
        let data = try #require(Data(base64Encoded: String(body)))
        // An opaque picture goes as a JPEG made here (iTerm2 reads any format macOS does), of
        // the cells' pixels, its size said.
        #expect(Array(data.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(args.contains("size=\(data.count)"))
        let back = try PictureDecoder.decode([UInt8](data))
        #expect(back.width == 200 && back.height == 150)
        #expect(args.contains("width=20") && args.contains("height=8"))
        // With transparency, a PNG.
        var clear = scene(40, 30).rgba
        clear[3] = 0
        let seeThrough = try PictureRenderer.render(
            Bitmap(width: 40, height: 30, rgba: clear), columns: 4, rows: 2, mode: .iterm, colors: .truecolor, cell: (10, 20))
        let b64 = String(decoding: seeThrough.bytes, as: UTF8.self).split(separator: ":", maxSplits: 1)[1].dropLast()
        #expect(Array(try #require(Data(base64Encoded: String(b64))).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    }

    /// Sixel: DCS `ESC P … q` … `ESC \` with colour registers (`#n;2;r;g;b`).
    @Test func sixelBytesAreADeviceControlString() throws {
        let p = try PictureRenderer.render(scene(200, 150), columns: 20, rows: 8, mode: .sixel, colors: .truecolor, cell: (10, 20))
        let text = String(decoding: p.bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}P"))
        #expect(text.contains("q"))
        #expect(text.hasSuffix("\u{1B}\\"))
        #expect(text.contains(";2;"))
    }
}
