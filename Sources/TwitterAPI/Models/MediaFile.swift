import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A file to attach to a post: what it is (read from its first bytes, not its name), how big,
/// and its alt text.
public struct MediaFile: Equatable, Sendable, Codable {
    public enum Kind: String, Equatable, Sendable, Codable {
        case photo, gif, video
    }

    public var path: String
    public var kind: Kind
    public var mimeType: String
    public var bytes: Int
    /// Read aloud by screen readers; up to 1,000 characters. Empty: none.
    public var altText: String

    public init(path: String, kind: Kind, mimeType: String, bytes: Int, altText: String = "") {
        self.path = path
        self.kind = kind
        self.mimeType = mimeType
        self.bytes = bytes
        self.altText = altText
    }

    /// X's limits: photos 5 MB, GIFs 15 MB, videos 512 MB; alt text 1,000 characters.
    public static func limit(_ kind: Kind) -> Int {
        switch kind {
        case .photo: 5 * 1024 * 1024
        case .gif: 15 * 1024 * 1024
        case .video: 512 * 1024 * 1024
        }
    }
    public static let altTextLimit = 1000

    /// What the first bytes of a file say it is: JPEG, PNG, WebP, GIF, or an MP4/QuickTime video.
    public static func sniff(_ head: Data) -> (Kind, String)? {
        let b = [UInt8](head.prefix(12))
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return (.photo, "image/jpeg") }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return (.photo, "image/png") }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return (.gif, "image/gif") }
        if b.count >= 12, b[0..<4].elementsEqual("RIFF".utf8), b[8..<12].elementsEqual("WEBP".utf8) { return (.photo, "image/webp") }
        if b.count >= 12, b[4..<8].elementsEqual("ftyp".utf8) {
            return (.video, b[8..<10].elementsEqual("qt".utf8) ? "video/quicktime" : "video/mp4")
        }
        return nil
    }

    /// The file at `path` as an attachment, or why it cannot be one, in words.
    public static func inspect(path: String) -> Result<MediaFile, MediaError> {
        let expanded = Path.expandingTilde(path)
        var st = stat()
        guard stat(expanded, &st) == 0 else { return .failure(MediaError("\(path): no such file")) }
        guard st.st_mode & S_IFMT == S_IFREG else { return .failure(MediaError("\(path) is not a regular file")) }
        let fd = open(expanded, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(MediaError("\(path) cannot be read")) }
        defer { close(fd) }
        let head = Data(Stream.readAll(fd, limit: 16) ?? [])
        guard let (kind, mime) = sniff(head) else {
            return .failure(MediaError("\(path) is not a photo (JPEG, PNG, WebP), a GIF or an MP4 video"))
        }
        let size = Int(st.st_size)
        guard size <= limit(kind) else {
            return .failure(
                MediaError("\(path) is \(size / 1024 / 1024) MB; X takes a \(kind.rawValue) of at most \(limit(kind) / 1024 / 1024) MB"))
        }
        return .success(MediaFile(path: expanded, kind: kind, mimeType: mime, bytes: size))
    }

    /// Why `file` cannot join `attached`: up to four photos, or one GIF, or one video.
    public static func refusal(adding file: MediaFile, to attached: [MediaFile]) -> String? {
        if attached.isEmpty { return nil }
        if file.kind != .photo || attached.contains(where: { $0.kind != .photo }) {
            return "A post carries up to four photos, or one GIF, or one video, not both."
        }
        if attached.count >= 4 { return "A post carries at most four photos." }
        return nil
    }
}

/// Why a file cannot be attached, or an upload failed, in words.
public struct MediaError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
