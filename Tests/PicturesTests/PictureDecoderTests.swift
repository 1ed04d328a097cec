import Foundation
import Pictures
import Spawn
import Testing

/// A picture of known colours: blue above, green below, a red disc in the middle.
func scene(_ w: Int, _ h: Int) -> Bitmap {
    var px = [UInt8](repeating: 255, count: w * h * 4)
    for y in 0..<h {
        for x in 0..<w {
            let dx = Double(x) - Double(w) / 2
            let dy = Double(y) - Double(h) / 2
            let inDisc = dx * dx + dy * dy <= pow(Double(min(w, h)) / 4, 2)
            let c: [UInt8] = inDisc ? [230, 20, 20] : y < h * 3 / 5 ? [40, 110, 210] : [40, 160, 60]
            let i = (y * w + x) * 4
            px[i] = c[0]
            px[i + 1] = c[1]
            px[i + 2] = c[2]
        }
    }
    return Bitmap(width: w, height: h, rgba: px)
}

func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [Int] {
    let i = (y * b.width + x) * 4
    return b.rgba[i..<(i + 3)].map(Int.init)
}

func near(_ a: [Int], _ b: [Int], _ tolerance: Int = 24) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= tolerance } }

/// A scratch folder removed at the end of the test.
func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-pictures-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    return try body(dir)
}

@Suite struct PictureDecoderTests {
    @Test func pngRoundTripsExactly() throws {
        let b = scene(120, 80)
        let png = try #require(PictureEncoder.png(b))
        let header = try PictureDecoder.probe(png)
        #expect(header.format == .png && header.width == 120 && header.height == 80)
        #expect(try PictureDecoder.decode(png) == b)
    }

    @Test func jpegKeepsItsColoursAndScalesByDCT() throws {
        let jpeg = try #require(PictureEncoder.jpeg(scene(1200, 800)))
        let full = try PictureDecoder.decode(jpeg)
        #expect(full.width == 1200 && full.height == 800)
        #expect(near(pixel(full, 600, 400), [230, 20, 20]))
        #expect(near(pixel(full, 10, 10), [40, 110, 210]))
        #expect(near(pixel(full, 10, 790), [40, 160, 60]))
        // Asked for 150x100 at least: decoded at 1/8, never smaller than asked.
        let small = try PictureDecoder.decode(jpeg, atLeast: (150, 100))
        #expect(small.width == 150 && small.height == 100)
        let mid = try PictureDecoder.decode(jpeg, atLeast: (400, 100))
        #expect(mid.width >= 400 && mid.width < 1200)
    }

    /// GIF and WebP files made by ImageMagick (Debian's), read back with their colours.
    @Test func gifAndWebPFromImageMagick() throws {
        try withFolder { dir in
            let png = dir.appendingPathComponent("scene.png")
            try Data(try #require(PictureEncoder.png(scene(90, 60)))).write(to: png)
            for (ext, format) in [("gif", PictureDecoder.Format.gif), ("webp", .webp)] {
                let out = dir.appendingPathComponent("scene.\(ext)").path
                let r = try ChildProcess.run("/usr/bin/convert", [png.path, out])
                try #require(r.status == 0, "convert: \(r.text)")
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
                #expect(try PictureDecoder.probe(bytes).format == format)
                let b = try PictureDecoder.decode(bytes)
                #expect(b.width == 90 && b.height == 60)
                #expect(near(pixel(b, 45, 30), [230, 20, 20], 40), "\(ext) centre \(pixel(b, 45, 30))")
                #expect(near(pixel(b, 3, 3), [40, 110, 210], 40), "\(ext) corner \(pixel(b, 3, 3))")
            }
        }
    }

    func failure(_ bytes: [UInt8]) -> String {
        do {
            _ = try PictureDecoder.decode(bytes)
            return "decoded"
        } catch {
            return error.description
        }
    }

    @Test func badFilesAreSaidInPlainWords() throws {
        let jpeg = try #require(PictureEncoder.jpeg(scene(400, 300)))
        let png = try #require(PictureEncoder.png(scene(40, 30)))
        // A 0-byte answer, a page of HTML served as image/jpeg.
        #expect(failure([]) == "the server sent an empty file")
        #expect(failure(Array("<!DOCTYPE html><html><body>Not here</body></html>".utf8)).hasPrefix("not a picture"))
        // Truncated files: a JPEG cut in half, a PNG cut after its header.
        #expect(failure(Array(jpeg.prefix(jpeg.count / 2))).contains("ends before the picture does"))
        #expect(failure(Array(png.prefix(40))).hasPrefix("a PNG that cannot be"))
        #expect(failure(Array(jpeg.prefix(3))).hasPrefix("a JPEG whose header cannot be read"))
    }

    /// A header claiming 65,535 x 65,535 (a decompression bomb's shape) is refused from the
    /// header, before a pixel is made; a header that lies about a small size fails to decode.
    @Test func sizesAreCheckedBeforeDecoding() throws {
        var png = try #require(PictureEncoder.png(scene(40, 30)))
        var bomb = png
        for i in 16..<24 { bomb[i] = i % 4 < 2 ? 0 : 0xFF }
        #expect(try PictureDecoder.probe(bomb).width == 65535)
        #expect(failure(bomb).contains("more than Linnet decodes"))
        png[19] = 200  // width 200, the rows hold 40
        #expect(failure(png).hasPrefix("a PNG that cannot be"))
        #expect(failure([UInt8](repeating: 0xFF, count: PictureDecoder.maxFileBytes + 1)).contains("more than Linnet reads"))
    }
}
