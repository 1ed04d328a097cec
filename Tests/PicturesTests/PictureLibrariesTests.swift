import CChafa
import CImageCodecs
import Foundation
import Pictures
import Spawn
import Testing

/// The pictures' libraries are opened when the first picture needs them, not bound before
/// `main`; what they draw is what libchafa linked (as this test binary has it) draws.
@Suite struct PictureLibrariesTests {
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build/debug/linnet").standardized.path

    /// The dynamic loader's own account of what `linnet --version` opened.
    @Test func aCommandWithoutPicturesOpensNoPictureLibrary() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "\(Self.binary) is missing: build it first")
        let r = try await ChildProcess.output(
            Self.binary, ["--version"], environment: ["LD_DEBUG": "libs", "PATH": "/usr/bin:/bin"], stderr: .stdout)
        #expect(r.status == 0)
        #expect(r.text.contains("libncursesw.so.6"), "LD_DEBUG=libs said nothing: \(r.text.prefix(200))")
        for name in ["libchafa", "libglib", "libjpeg", "libpng", "libwebp", "libgif"] {
            #expect(!r.text.contains(name), "\(name) was opened")
        }
    }

    @Test func aMissingLibraryOrCallIsSaidInWords() {
        func probe(_ file: String, _ call: String) -> String? {
            var text = [CChar](repeating: 0, count: 512)
            return text.withUnsafeMutableBufferPointer { b in
                lc_library_probe(file, call, b.baseAddress, b.count).map { String(cString: $0) }
            }
        }
        #expect(probe("libjpeg.so.62", "jpeg_std_error") == nil)
        #expect(probe("libchafa.so.0", "g_string_free") == nil)
        let missing = probe("libjpeg-none-such.so.62", "jpeg_std_error") ?? ""
        #expect(missing.hasPrefix("pictures are off: libjpeg-none-such.so.62 could not be loaded (libjpeg-none-such.so.62: cannot open"))
        #expect(probe("libc.so.6", "jpeg_std_error") == "pictures are off: libc.so.6 has no jpeg_std_error; install it as Debian ships it")
        #expect(lc_codecs_load() == nil && lc_chafa_load() == nil)
    }

    /// The values the loader passes are chafa.h's own.
    @Test func chafasValuesAreItsHeaders() {
        #expect(Int(LC_CHAFA_PIXEL_MODE_SYMBOLS) == Int(CHAFA_PIXEL_MODE_SYMBOLS.rawValue))
        #expect(Int(LC_CHAFA_PIXEL_MODE_SIXELS) == Int(CHAFA_PIXEL_MODE_SIXELS.rawValue))
        #expect(Int(LC_CHAFA_CANVAS_MODE_TRUECOLOR) == Int(CHAFA_CANVAS_MODE_TRUECOLOR.rawValue))
        #expect(Int(LC_CHAFA_CANVAS_MODE_INDEXED_16) == Int(CHAFA_CANVAS_MODE_INDEXED_16.rawValue))
        #expect(Int(LC_CHAFA_CANVAS_MODE_FGBG) == Int(CHAFA_CANVAS_MODE_FGBG.rawValue))
        #expect(Int(LC_CHAFA_PIXEL_RGBA8_UNASSOCIATED) == Int(CHAFA_PIXEL_RGBA8_UNASSOCIATED.rawValue))
        #expect(Int(LC_CHAFA_SYMBOL_TAG_SPACE) == Int(CHAFA_SYMBOL_TAG_SPACE.rawValue))
        #expect(Int(LC_CHAFA_SYMBOL_TAG_BLOCK) == Int(CHAFA_SYMBOL_TAG_BLOCK.rawValue))
        #expect(Int(LC_CHAFA_SYMBOL_TAG_WIDE) == Int(CHAFA_SYMBOL_TAG_WIDE.rawValue))
        #expect(Int(LC_CHAFA_SYMBOL_TAG_AMBIGUOUS) == Int(CHAFA_SYMBOL_TAG_AMBIGUOUS.rawValue))
    }

    /// Cells in each colour mode, and sixel, as libchafa called directly draws them.
    @Test(arguments: [PictureColors.truecolor, .indexed16, .none])
    func theLoadedLibraryDrawsWhatTheLinkedOneDraws(colors: PictureColors) throws {
        let b = Self.scene(300, 200)
        let p = try PictureRenderer.render(b, columns: 30, rows: 10, mode: .symbols, colors: colors, cell: (10, 20))
        let mode =
            colors == .none ? CHAFA_CANVAS_MODE_FGBG : colors == .indexed16 ? CHAFA_CANVAS_MODE_INDEXED_16 : CHAFA_CANVAS_MODE_TRUECOLOR
        let canvas = Self.linkedCanvas(b, columns: 30, rows: 10, pixels: CHAFA_PIXEL_MODE_SYMBOLS, canvas: mode)
        defer { chafa_canvas_unref(canvas) }
        #expect(p.cells.count == 300)
        var differing = 0
        for y in 0..<10 {
            for x in 0..<30 {
                var fg: Int32 = -1
                var bg: Int32 = -1
                chafa_canvas_get_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                let cell = p.cells[y * 30 + x]
                let want = (Unicode.Scalar(chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))) ?? " ", fg, bg)
                let plain = colors == .none
                let got = (cell.scalar, cell.fg.map(Int32.init) ?? -1, cell.bg.map(Int32.init) ?? -1)
                if got.0 != want.0 || got.1 != (plain || want.1 < 0 ? -1 : want.1 & 0xFF_FFFF)
                    || got.2 != (plain || want.2 < 0 ? -1 : want.2 & 0xFF_FFFF)
                {
                    differing += 1
                }
            }
        }
        #expect(differing == 0)
        let sixel = try PictureRenderer.render(b, columns: 30, rows: 10, mode: .sixel, colors: colors, cell: (10, 20))
        let direct = Self.linkedCanvas(b, columns: 30, rows: 10, pixels: CHAFA_PIXEL_MODE_SIXELS, canvas: CHAFA_CANVAS_MODE_TRUECOLOR)
        defer { chafa_canvas_unref(direct) }
        var n = 0
        let printed = try #require(cc_print(direct, "mlterm", nil, &n))
        defer { free(printed) }
        #expect(sixel.bytes == printed.withMemoryRebound(to: UInt8.self, capacity: n) { Array(UnsafeBufferPointer(start: $0, count: n)) })
        #expect(sixel.bytes.count > 100)
    }

    static func linkedCanvas(
        _ b: Bitmap, columns: Int32, rows: Int32, pixels: ChafaPixelMode, canvas mode: ChafaCanvasMode
    ) -> OpaquePointer? {
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, columns, rows)
        chafa_canvas_config_set_cell_geometry(config, 10, 20)
        chafa_canvas_config_set_pixel_mode(config, pixels)
        chafa_canvas_config_set_canvas_mode(config, mode)
        if pixels == CHAFA_PIXEL_MODE_SYMBOLS {
            let map = cc_block_symbols()
            chafa_canvas_config_set_symbol_map(config, map)
            chafa_symbol_map_unref(map)
        }
        let canvas = chafa_canvas_new(config)
        b.rgba.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(
                canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, Int32(b.width), Int32(b.height), Int32(b.width * 4))
        }
        return canvas
    }

    /// A blue field, a red disc and a green band: shapes and colours enough for every symbol kind.
    static func scene(_ w: Int, _ h: Int) -> Bitmap {
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let dx = Double(x - w / 2)
                let dy = Double(y - h / 2)
                let c: [UInt8] =
                    dx * dx + dy * dy < Double(h * h) / 9 ? [230, 20, 20, 255] : y > h * 4 / 5 ? [30, 160, 60, 255] : [40, 110, 210, 255]
                px.replaceSubrange((y * w + x) * 4..<(y * w + x) * 4 + 4, with: c)
            }
        }
        return Bitmap(width: w, height: h, rgba: px)
    }
}
