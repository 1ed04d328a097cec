import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Media upload on v1.1 (`upload.twitter.com`), in segments, with alt text.
extension TwitterClient {
    /// v1.1's chunked upload: INIT, APPEND (base64 segments as form fields, so the request is
    /// signed like any other), FINALIZE.
    public func v1UploadMedia(_ data: Data, mimeType: String, progress: UploadProgress? = nil) async throws -> String {
        let base = endpoints.uploadBase
        func id(_ answer: Data) throws -> String {
            guard let v = try JSONValue.parse(answer)["media_id_string"]?.stringValue else {
                throw DecodeError("the upload answer has no media_id_string")
            }
            return v
        }
        let media = try id(
            try await call(
                "POST", "media/upload",
                [
                    ("command", "INIT"), ("total_bytes", String(data.count)), ("media_type", mimeType),
                    ("media_category", Self.mediaCategory(mimeType)),
                ], base: base))
        var index = 0
        var offset = 0
        repeat {
            let segment = data[data.startIndex + offset..<data.startIndex + min(data.count, offset + Self.mediaSegmentBytes)]
            _ = try await call(
                "POST", "media/upload",
                [
                    ("command", "APPEND"), ("media_id", media), ("segment_index", String(index)),
                    ("media_data", Data(segment).base64EncodedString()),
                ], base: base)
            offset += segment.count
            index += 1
            progress?(offset, data.count)
        } while offset < data.count
        _ = try id(try await call("POST", "media/upload", [("command", "FINALIZE"), ("media_id", media)], base: base))
        return media
    }

    /// `POST media/metadata/create` (JSON body): the alt text of an uploaded file.
    public func v1SetAltText(_ mediaID: String, _ text: String) async throws {
        let body = JSONValue.object([("media_id", .string(mediaID)), ("alt_text", .object([("text", .string(text))]))])
        _ = try await call("POST", "media/metadata/create", [], json: Data(body.serialized.utf8), base: endpoints.uploadBase)
    }
}
