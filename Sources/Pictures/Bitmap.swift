import CImageCodecs

/// A decoded picture: 8-bit RGBA, rows top to bottom.
public struct Bitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let rgba: [UInt8]
    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4)
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// Whether every pixel is opaque.
    public var isOpaque: Bool {
        var i = 3
        while i < rgba.count {
            if rgba[i] != 255 { return false }
            i += 4
        }
        return true
    }

    /// This picture at `width` x `height` where that is smaller (each pixel the average of those
    /// it covers); itself where it is not.
    public func scaledDown(toFit width: Int, _ height: Int) -> Bitmap {
        let scale = min(1, Double(width) / Double(self.width), Double(height) / Double(self.height))
        let w = max(1, Int((Double(self.width) * scale).rounded()))
        let h = max(1, Int((Double(self.height) * scale).rounded()))
        guard w < self.width || h < self.height,
            let p = rgba.withUnsafeBufferPointer({
                lc_scale_down($0.baseAddress, Int32(self.width), Int32(self.height), Int32(w), Int32(h))
            })
        else { return self }
        defer { lc_free(p) }
        return Bitmap(width: w, height: h, rgba: Array(UnsafeBufferPointer(start: p, count: w * h * 4)))
    }
}

/// Why a picture is not shown, in words for the status bar.
public struct PictureFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// JPEG, PNG, WebP and a GIF's first frame, decoded with Debian's libraries. The size is read
/// from the header first: a file claiming more than `maxPixels` is refused before any pixel is
/// made, so one picture holds at most `maxFileBytes` of file and `maxPixels` × 4 bytes of pixels.
public enum PictureDecoder {
    /// 16 MiB: X serves no photo larger than 5 MB.
    public static let maxFileBytes = 16 << 20
    /// 4096 × 4096, X's largest photo: 64 MiB of RGBA.
    public static let maxPixels = 4096 * 4096

    public enum Format: Int, Sendable {
        case jpeg = 1
        case png
        case webp
        case gif
    }

    /// The format and size the header states, without decoding.
    public static func probe(_ bytes: [UInt8]) throws(PictureFailure) -> (format: Format, width: Int, height: Int) {
        try checkLength(bytes)
        var w: Int32 = 0
        var h: Int32 = 0
        var why = [CChar](repeating: 0, count: 128)
        let f = bytes.withUnsafeBufferPointer { lc_probe($0.baseAddress, $0.count, &w, &h, &why) }
        guard let format = Format(rawValue: Int(f)) else { throw PictureFailure(text(why)) }
        return (format, Int(w), Int(h))
    }

    /// The pixels. A JPEG is decoded at the smallest scale that still covers `atLeast`
    /// (pixels), when given; other formats at their size.
    public static func decode(_ bytes: [UInt8], atLeast: (width: Int, height: Int)? = nil) throws(PictureFailure) -> Bitmap {
        try checkLength(bytes)
        var w: Int32 = 0
        var h: Int32 = 0
        var why = [CChar](repeating: 0, count: 128)
        let minW = Int32(clamping: atLeast?.width ?? 0)
        let minH = Int32(clamping: atLeast?.height ?? 0)
        let pixels = bytes.withUnsafeBufferPointer { lc_decode($0.baseAddress, $0.count, maxPixels, minW, minH, &w, &h, &why) }
        guard let pixels else { throw PictureFailure(text(why)) }
        defer { lc_free(pixels) }
        let count = Int(w) * Int(h) * 4
        return Bitmap(width: Int(w), height: Int(h), rgba: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    private static func checkLength(_ bytes: [UInt8]) throws(PictureFailure) {
        if bytes.isEmpty { throw PictureFailure("the server sent an empty file") }
        if bytes.count > maxFileBytes { throw PictureFailure("a file of \(bytes.count >> 20) MiB, more than Linnet reads (16 MiB)") }
        // The codecs' libraries, opened now if not yet: without them, what is missing, whole.
        if let problem = lc_codecs_load() { throw PictureFailure(String(cString: problem)) }
    }

    private static func text(_ why: [CChar]) -> String {
        let s = why.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return s.isEmpty ? "a picture that cannot be read" : s
    }
}

/// PNG and JPEG files from pixels (the simulator's photos).
public enum PictureEncoder {
    /// `alpha: false` leaves alpha out (for an opaque picture).
    public static func png(_ b: Bitmap, alpha: Bool = true) -> [UInt8]? {
        var n = 0
        let encode = alpha ? lc_encode_png : lc_encode_png_rgb
        guard let p = b.rgba.withUnsafeBufferPointer({ encode($0.baseAddress, Int32(b.width), Int32(b.height), &n) }) else {
            return nil
        }
        defer { lc_free(p) }
        return Array(UnsafeBufferPointer(start: p, count: n))
    }

    public static func jpeg(_ b: Bitmap, quality: Int = 85) -> [UInt8]? {
        var n = 0
        let p = b.rgba.withUnsafeBufferPointer {
            lc_encode_jpeg($0.baseAddress, Int32(b.width), Int32(b.height), Int32(quality), &n)
        }
        guard let p else { return nil }
        defer { lc_free(p) }
        return Array(UnsafeBufferPointer(start: p, count: n))
    }
}
