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
    @Test func symbolsCarryThePicturesColours() {
        let p = PictureRenderer.render(scene(400, 300), columns: 40, rows: 15, mode: .symbols, colors: .truecolor, cell: (10, 20))
        #expect(p.cells.count == 600 && p.bytes.isEmpty)
        func rgb(_ v: UInt32?) -> [Int] { v.map { [Int($0 >> 16), Int($0 >> 8 & 0xFF), Int($0 & 0xFF)] } ?? [] }
        let centre = p.cells[7 * 40 + 20]
        let corner = p.cells[0]
        #expect(near(rgb(centre.bg), [230, 20, 20], 30) || near(rgb(centre.fg), [230, 20, 20], 30))
        #expect(near(rgb(corner.bg), [40, 110, 210], 30) || near(rgb(corner.fg), [40, 110, 210], 30))
        // Every symbol takes one cell (no wide or ambiguous ones).
        #expect(p.cells.allSatisfy { Screen.width(of: Character($0.scalar)) == 1 })
        let plain = PictureRenderer.render(scene(400, 300), columns: 40, rows: 15, mode: .symbols, colors: .none, cell: (10, 20))
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
        let p = PictureRenderer.render(
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
        let pictured = PictureRenderer.render(scene(200, 150), columns: 20, rows: 8, mode: .kitty, colors: .truecolor, cell: (10, 20))
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
        let big = PictureRenderer.render(scene(1200, 900), columns: 20, rows: 8, mode: .kitty, colors: .truecolor, cell: (10, 20))
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
        let p = PictureRenderer.render(scene(200, 150), columns: 20, rows: 8, mode: .iterm, colors: .truecolor, cell: (10, 20))
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
        let seeThrough = PictureRenderer.render(
            Bitmap(width: 40, height: 30, rgba: clear), columns: 4, rows: 2, mode: .iterm, colors: .truecolor, cell: (10, 20))
        let b64 = String(decoding: seeThrough.bytes, as: UTF8.self).split(separator: ":", maxSplits: 1)[1].dropLast()
        #expect(Array(try #require(Data(base64Encoded: String(b64))).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    }

    /// Sixel: DCS `ESC P … q` … `ESC \` with colour registers (`#n;2;r;g;b`).
    @Test func sixelBytesAreADeviceControlString() {
        let p = PictureRenderer.render(scene(200, 150), columns: 20, rows: 8, mode: .sixel, colors: .truecolor, cell: (10, 20))
        let text = String(decoding: p.bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}P"))
        #expect(text.contains("q"))
        #expect(text.hasSuffix("\u{1B}\\"))
        #expect(text.contains(";2;"))
    }
}

extension CursesTerminal {
    /// Between two frames, no kitty picture sent before.
    static func pictureBytes(_ screen: Screen, last: Screen?, full: Bool, touched: Set<Int>, depth: ColorDepth, direct: Bool) -> [UInt8] {
        var kitty = KittyImages()
        return pictureBytes(screen, last: last, full: full, touched: touched, depth: depth, direct: direct, kitty: &kitty)
    }
}

/// What the terminal is sent for pictures between two frames.
@Suite struct PictureFrameTests {
    func frame(_ placements: [PicturePlacement], symbols: Bool) -> Screen {
        var s = Screen(width: 30, height: 10)
        for p in placements {
            if symbols {
                for y in p.rect.y..<p.rect.maxY {
                    s.put(
                        String(repeating: "▀", count: p.rect.width), x: p.rect.x, y: y,
                        style: Style(fg: .rgb(230, 20, 20), bg: .rgb(40, 110, 210)))
                }
            }
            s.place(p)
        }
        return s
    }

    func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }

    @Test func symbolsAreWrittenInTruecolorAndRepaintedWhenGone() {
        let p = PicturePlacement(rect: Rect(x: 2, y: 1, width: 5, height: 3), key: "a")
        let shown = frame([p], symbols: true)
        let first = text(CursesTerminal.pictureBytes(shown, last: nil, full: true, touched: [], depth: .full, direct: true))
        #expect(first.components(separatedBy: "▀").count - 1 == 15)
        #expect(first.contains("38;2;230;20;20") && first.contains("48;2;40;110;210"))
        // Without COLORTERM: the nearest of the 256 colours.
        let indexed = text(CursesTerminal.pictureBytes(shown, last: nil, full: true, touched: [], depth: .full, direct: false))
        #expect(!indexed.contains(";2;230") && indexed.contains("38;5;"))
        // Unchanged rows are not sent again.
        #expect(CursesTerminal.pictureBytes(shown, last: shown, full: false, touched: [], depth: .full, direct: true).isEmpty)
        // Gone: its cells are written again from the new frame (blanks), every one.
        let gone = text(
            CursesTerminal.pictureBytes(
                frame([], symbols: false), last: shown, full: false, touched: [1, 2, 3], depth: .full, direct: true))
        #expect(!gone.contains("▀"))
        for row in 2...4 { #expect(gone.contains("\u{1B}[\(row);3H")) }
        #expect(gone.filter { $0 == " " }.count == 15)
    }

    /// A card's picture scrolled up two rows: written at its new place, and the rows it left
    /// written again from the new frame.
    @Test func aMovedPictureLeavesNothingBehind() {
        let before = PicturePlacement(rect: Rect(x: 2, y: 4, width: 5, height: 3), key: "a")
        let after = PicturePlacement(rect: Rect(x: 2, y: 2, width: 5, height: 3), key: "a")
        let old = frame([before], symbols: true)
        let new = frame([after], symbols: true)
        let out = text(CursesTerminal.pictureBytes(new, last: old, full: false, touched: [2, 3, 4, 5, 6], depth: .full, direct: true))
        for row in 3...5 { #expect(out.contains("\u{1B}[\(row);3H")) }
        // Row 7 (index 6) was the old picture's last: written again, blank now.
        let repaint = out.components(separatedBy: "\u{1B}[7;3H").dropFirst().first ?? ""
        #expect(!repaint.isEmpty && !repaint.prefix(40).contains("▀"))
        // kitty: sent once, then only placed again where it moved (no delete, nothing sent again).
        let kittyBefore = PicturePlacement(rect: before.rect, key: "k", bytes: Array("\u{1B}_Ga=T,f=100;AAAA\u{1B}\\".utf8))
        let kittyAfter = PicturePlacement(rect: after.rect, key: "k", bytes: kittyBefore.bytes)
        var kitty = KittyImages()
        let first = text(
            CursesTerminal.pictureBytes(
                frame([kittyBefore], symbols: false), last: nil, full: true, touched: [], depth: .full, direct: true, kitty: &kitty))
        // Placement ids by place: row << 16 | column, plus one.
        #expect(first.contains("\u{1B}_Ga=t,i=1,f=100;AAAA\u{1B}\\"))
        #expect(first.contains("\u{1B}[5;3H\u{1B}_Ga=p,i=1,p=262147,c=5,r=3,C=1,q=2"))
        let moved = text(
            CursesTerminal.pictureBytes(
                frame([kittyAfter], symbols: false), last: frame([kittyBefore], symbols: false), full: false,
                touched: [], depth: .full, direct: true, kitty: &kitty))
        #expect(!moved.contains("AAAA"))
        #expect(moved.hasPrefix("\u{1B}_Ga=d,d=i,i=1,p=262147,q=2\u{1B}\\"))
        #expect(moved.contains("\u{1B}7\u{1B}[3;3H\u{1B}_Ga=p,i=1,p=131075,c=5,r=3,C=1,q=2\u{1B}\\\u{1B}8"))
    }

    /// The same picture twice on screen (a post and a repost of it): sent once, placed twice,
    /// and one going leaves the other.
    @Test func onePictureInTwoPlacesIsTwoPlacements() {
        let bytes = Array("\u{1B}_Ga=T,f=100;AAAA\u{1B}\\".utf8)
        let top = PicturePlacement(rect: Rect(x: 1, y: 0, width: 4, height: 2), key: "k", bytes: bytes)
        let low = PicturePlacement(rect: Rect(x: 1, y: 5, width: 4, height: 2), key: "k", bytes: bytes)
        var kitty = KittyImages()
        let both = text(
            CursesTerminal.pictureBytes(
                frame([top, low], symbols: false), last: nil, full: true, touched: [], depth: .full, direct: true, kitty: &kitty))
        #expect(both.components(separatedBy: "AAAA").count - 1 == 1)
        #expect(both.contains("a=p,i=1,p=2,") && both.contains("a=p,i=1,p=327682,"))
        let one = text(
            CursesTerminal.pictureBytes(
                frame([low], symbols: false), last: frame([top, low], symbols: false), full: false, touched: [], depth: .full,
                direct: true, kitty: &kitty))
        #expect(one.hasPrefix("\u{1B}_Ga=d,d=i,i=1,p=2,q=2\u{1B}\\") && !one.contains("a=p"))
    }

    @Test func graphicsAreDrawnOnceAndDeletedWhenGone() {
        let kitty = PicturePlacement(
            rect: Rect(x: 1, y: 1, width: 4, height: 2), key: "k", bytes: Array("\u{1B}_Ga=T,f=100;AAAA\u{1B}\\".utf8))
        let shown = frame([kitty], symbols: false)
        let none = frame([], symbols: false)
        var images = KittyImages()
        func between(_ screen: Screen, _ last: Screen?, full: Bool = false, touched: Set<Int> = []) -> String {
            text(CursesTerminal.pictureBytes(screen, last: last, full: full, touched: touched, depth: .full, direct: true, kitty: &images))
        }
        let place = "\u{1B}7\u{1B}[2;2H\u{1B}_Ga=p,i=1,p=65538,c=4,r=2,C=1,q=2\u{1B}\\\u{1B}8"
        #expect(between(shown, nil, full: true) == "\u{1B}_Ga=t,i=1,f=100;AAAA\u{1B}\\" + place)
        #expect(between(shown, shown, touched: [5]).isEmpty)
        // Gone: its placement deleted, its data kept; shown again: placed, not sent.
        #expect(between(none, shown).hasPrefix("\u{1B}_Ga=d,d=i,i=1,p=65538,q=2\u{1B}\\"))
        #expect(between(shown, none) == place)
        // kitty keeps pictures apart from text: a changed row under one does not send it again.
        #expect(between(shown, shown, touched: [1, 2]).isEmpty)
        // A frame drawn whole (after a clear): freed, sent again under a new id.
        #expect(between(shown, shown, full: true).hasPrefix("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\\u{1B}_Ga=t,i=2,"))
        // A sequence of another form is written where it goes, as it is.
        let other = PicturePlacement(rect: kitty.rect, key: "o", bytes: Array("\u{1B}_Ga=T;BBBB\u{1B}\\".utf8))
        #expect(between(frame([other], symbols: false), nil, full: true).hasSuffix("\u{1B}[2;2H\u{1B}_Ga=T;BBBB\u{1B}\\\u{1B}8"))
        // Text beside a graphic leaves it; text written over it takes it off the screen model.
        var beside = shown
        beside.put("ab", x: 10, y: 1, style: .plain)
        #expect(beside.pictures.count == 1)
        var covered = shown
        covered.put("help", x: 0, y: 2, style: .plain)
        #expect(covered.pictures.isEmpty)
    }

    /// Past the bound, the pictures least recently placed are freed, never one on screen.
    @Test func kittyPicturesAreBoundedInTheTerminal() {
        var images = KittyImages()
        let size = 20 << 20
        _ = images.place("a", size: size, keep: ["a"])
        _ = images.place("b", size: size, keep: ["b"])
        let third = images.place("c", size: size, keep: ["c"])
        #expect(third.fresh && third.evicted == [1] && images.id(of: "a") == nil)
        // "b" on screen: kept though older than "c".
        let fourth = images.place("d", size: size, keep: ["b", "d"])
        #expect(fourth.evicted == [3] && images.id(of: "b") == 2)
        #expect(!images.place("b", size: size, keep: ["b"]).fresh)
    }
}
