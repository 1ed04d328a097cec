import Pictures
import Screen
import Testing

@testable import CursesTerminal

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
