import Foundation

/// API v2 media upload.
extension TwitterClient {
    /// Files up to this size go in one request; larger ones in segments of this size (X takes
    /// segments for any size; with the file in base64 in a JSON body each request stays under a
    /// megabyte).
    public static let mediaSegmentBytes = 512 * 1024

    /// Uploads a photo, GIF or video; returns the media id to attach to a post.
    public func v2UploadMedia(_ data: Data, mimeType: String) async throws -> String {
        let category = mimeType.hasPrefix("video/") ? "tweet_video" : mimeType == "image/gif" ? "tweet_gif" : "tweet_image"
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
            return try id(try await call("POST", "/2/media/upload", [], json: Data(body.serialized.utf8)))
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
        }
        _ = try await call("POST", "/2/media/upload/\(media)/finalize", [], json: Data("{}".utf8))
        return media
    }
}
