/// What a picture's first bytes say of it: its format and its size in pixels (PNG's IHDR, GIF's
/// logical screen, JPEG's first start-of-frame), as a server reads them before anything else.
enum MediaHeader {
    /// Bytes kept of an upload's start: enough for a JPEG's frame header after its EXIF.
    static let readBytes = 65_536

    static func size(_ b: [UInt8]) -> (width: Int, height: Int)? {
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        if b.count >= 24, b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), b[12..<16].elementsEqual("IHDR".utf8) {
            return (be32(16), be32(20))
        }
        if b.count >= 10, b.starts(with: Array("GIF8".utf8)) {
            return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
        }
        if b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 {
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF {
                    i += 1
                    continue
                }
                // Start of frame (baseline, progressive, …), not DHT, JPG or DAC.
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return (be16(i + 7), be16(i + 5)) }
                i += 2 + be16(i + 2)
            }
        }
        return nil
    }

    static func fileExtension(_ b: [UInt8], type: String) -> String {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if b.starts(with: Array("GIF8".utf8)) { return "gif" }
        if b.starts(with: [0xFF, 0xD8]) { return "jpg" }
        switch type {
        case "image/png": return "png"
        case "image/gif": return "gif"
        case "image/webp": return "webp"
        case "video/mp4": return "mp4"
        default: return "jpg"
        }
    }
}
