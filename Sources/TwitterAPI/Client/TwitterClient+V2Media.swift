import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Media upload: API v2's `/2/media/upload` (one request, or initialize, append and finalize),
/// and v1.1's chunked `media/upload` on upload.twitter.com; alt text through each API's
/// metadata call.
extension TwitterClient {
    /// Files up to this size go in one request; larger ones in segments of this size (X takes
    /// segments for any size; with the file in base64 in a JSON body each request stays under a
    /// megabyte).
    public static let mediaSegmentBytes = 512 * 1024

    /// Bytes sent so far of the file's total, after each request.
    public typealias UploadProgress = @Sendable (_ sent: Int, _ total: Int) -> Void

    /// Uploads a file through this client's API with its alt text; returns the media id to
    /// attach to a post.
    public func uploadMedia(_ data: Data, mimeType: String, altText: String = "", progress: UploadProgress? = nil) async throws -> String {
        let id =
            api == .v2
            ? try await v2UploadMedia(data, mimeType: mimeType, progress: progress)
            : try await v1UploadMedia(data, mimeType: mimeType, progress: progress)
        if !altText.isEmpty {
            if api == .v2 { try await v2SetAltText(id, altText) } else { try await v1SetAltText(id, altText) }
        }
        return id
    }

    static func mediaCategory(_ mimeType: String) -> String {
        mimeType.hasPrefix("video/") ? "tweet_video" : mimeType == "image/gif" ? "tweet_gif" : "tweet_image"
    }

    /// Uploads a photo, GIF or video; returns the media id to attach to a post.
    public func v2UploadMedia(_ data: Data, mimeType: String, progress: UploadProgress? = nil) async throws -> String {
        let category = Self.mediaCategory(mimeType)
        func id(_ answer: Data) throws -> String {
            guard let v = try JSONValue.parse(answer)["data"]?["id"]?.stringValue else {
                throw DecodeError("the upload answer has no media id")
            }
            return v
        }
        if data.count <= Self.mediaSegmentBytes {
            let body = JSONValue.object([
                ("media", .string(data.base64EncodedString())), ("media_category", .string(category)), ("media_type", .string(mimeType)),
            ])
            let media = try id(try await call("POST", "/2/media/upload", [], json: Data(body.serialized.utf8)))
            progress?(data.count, data.count)
            return media
        }
        let start = JSONValue.object([
            ("media_type", .string(mimeType)), ("total_bytes", .number(String(data.count))), ("media_category", .string(category)),
        ])
        let media = try id(try await call("POST", "/2/media/upload/initialize", [], json: Data(start.serialized.utf8)))
        var index = 0
        var offset = 0
        while offset < data.count {
            let segment = data[data.startIndex + offset..<data.startIndex + min(data.count, offset + Self.mediaSegmentBytes)]
            let body = JSONValue.object([
                ("media", .string(Data(segment).base64EncodedString())), ("segment_index", .number(String(index))),
            ])
            _ = try await call("POST", "/2/media/upload/\(media)/append", [], json: Data(body.serialized.utf8))
            offset += segment.count
            index += 1
            progress?(offset, data.count)
        }
        _ = try await call("POST", "/2/media/upload/\(media)/finalize", [], json: Data("{}".utf8))
        return media
    }

    /// `POST /2/media/metadata`: the alt text of an uploaded file.
    public func v2SetAltText(_ mediaID: String, _ text: String) async throws {
        let body = JSONValue.object([
            ("id", .string(mediaID)), ("metadata", .object([("alt_text", .object([("text", .string(text))]))])),
        ])
        _ = try await call("POST", "/2/media/metadata", [], json: Data(body.serialized.utf8))
    }
}
