import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// API v2 media upload: one request for a small file, or initialize, append (segments in any
/// order) and finalize; then a post names the media ids it carries. Bodies are JSON with the
/// media in base64 (multipart is not served).
extension World {
    struct SimMedia {
        var id: UInt64
        var owner: UInt64
        var type: String
        var totalBytes: Int
        var segments: [Int: Int] = [:]
        var finalized = false
        var altText: String?
        /// The start of the file (of its first segment), where its format and size are.
        var head: [UInt8] = []
        var key: String { "3_\(id)" }
        var kind: String { type.hasPrefix("video/") ? "video" : type == "image/gif" ? "animated_gif" : "photo" }
    }

    static let mediaExpires: Int64 = 86_400

    private func mediaAnswer(_ m: SimMedia) -> SimResponse {
        var data: [(String, J)] = [
            ("id", .string(String(m.id))), ("media_key", .string(m.key)), ("expires_after_secs", .int(Self.mediaExpires)),
        ]
        if m.finalized { data.append(("size", .int(Int64(m.totalBytes)))) }
        // Media is ready at once here, so no `processing_info` (whose schema in the contract
        // requires a `type` it does not define).
        // The contract (2.159) requires a `meta` object on these answers, with nothing in it.
        return .json(200, .object([("data", .object(data)), ("meta", .object([]))]))
    }

    private func decodedMedia(_ body: [String: Any]) throws(SimResponse) -> Data {
        guard let text = body["media"] as? String, let data = Data(base64Encoded: text), !data.isEmpty else {
            throw Self.invalidRequest("media", "The `media` field must hold the file in base64")
        }
        return data
    }

    /// `POST /2/media/upload`: the whole file at once.
    func v2UploadMedia(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        guard let uid = identity.userID else { return Self.v2Forbidden("Uploading needs a user's token.") }
        let body = try Self.jsonBody(r)
        guard body["media_category"] is String else {
            return Self.invalidRequest("media_category", "The `media_category` field is required")
        }
        let data = try decodedMedia(body)
        var m = SimMedia(id: nextID(), owner: uid, type: body["media_type"] as? String ?? "image/png", totalBytes: data.count)
        m.segments[0] = data.count
        m.head = Array(data.prefix(MediaHeader.readBytes))
        m.finalized = true
        media[m.id] = m
        return mediaAnswer(m)
    }

    /// `POST /2/media/upload/initialize {"media_type","total_bytes","media_category"}`.
    func v2InitializeUpload(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        guard let uid = identity.userID else { return Self.v2Forbidden("Uploading needs a user's token.") }
        let body = try Self.jsonBody(r)
        guard let total = body["total_bytes"] as? Int, total > 0, total <= 512 << 20 else {
            return Self.invalidRequest("total_bytes", "The `total_bytes` field must be between 1 and 536870912")
        }
        guard let type = body["media_type"] as? String else {
            return Self.invalidRequest("media_type", "The `media_type` field is required")
        }
        let m = SimMedia(id: nextID(), owner: uid, type: type, totalBytes: total)
        media[m.id] = m
        return mediaAnswer(m)
    }

    /// `POST /2/media/upload/:id/append {"media","segment_index"}`.
    func v2AppendUpload(_ r: SimRequest, _ identity: Identity, id: String) throws(SimResponse) -> SimResponse {
        guard let uid = identity.userID, let v = UInt64(id), var m = media[v], m.owner == uid, !m.finalized else {
            return Self.problem(
                404, "Not Found Error", "Could not find an open upload with id: [\(id)].",
                type: "https://api.twitter.com/2/problems/resource-not-found")
        }
        let body = try Self.jsonBody(r)
        guard let index = body["segment_index"] as? Int, (0...999).contains(index) else {
            return Self.invalidRequest("segment_index", "The `segment_index` field must be between 0 and 999")
        }
        let data = try decodedMedia(body)
        m.segments[index] = data.count
        if index == 0 { m.head = Array(data.prefix(MediaHeader.readBytes)) }
        guard m.segments.values.reduce(0, +) <= m.totalBytes else {
            return Self.invalidRequest("media", "More bytes were appended than total_bytes announced")
        }
        media[v] = m
        return .json(200, .object([("data", .object([("expires_at", .int(now + Self.mediaExpires))])), ("meta", .object([]))]))
    }

    /// `POST /2/media/upload/:id/finalize`: the segments must add up to `total_bytes`.
    func v2FinalizeUpload(_ r: SimRequest, _ identity: Identity, id: String) -> SimResponse {
        guard let uid = identity.userID, let v = UInt64(id), var m = media[v], m.owner == uid else {
            return Self.problem(
                404, "Not Found Error", "Could not find an upload with id: [\(id)].",
                type: "https://api.twitter.com/2/problems/resource-not-found")
        }
        let received = m.segments.values.reduce(0, +)
        let contiguous = m.segments.keys.sorted() == Array(0..<m.segments.count)
        guard received == m.totalBytes, contiguous else {
            return Self.invalidRequest(
                "media", "File size mismatch: \(received) bytes in \(m.segments.count) segments, \(m.totalBytes) announced")
        }
        m.finalized = true
        media[v] = m
        return mediaAnswer(m)
    }

    /// `POST /2/media/metadata {"id", "metadata": {"alt_text": {"text"}}}`.
    func v2MediaMetadata(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        let body = try Self.jsonBody(r)
        let alt = ((body["metadata"] as? [String: Any])?["alt_text"] as? [String: Any])?["text"] as? String
        let m: SimMedia
        do { m = try setAltText(identity, id: body["id"] as? String, text: alt) } catch {
            return error.hasPrefix("Could not find")
                ? Self.problem(404, "Not Found Error", error.description, type: "https://api.twitter.com/2/problems/resource-not-found")
                : Self.invalidRequest("metadata.alt_text.text", error.description)
        }
        return .json(
            200,
            .object([
                (
                    "data",
                    .object([
                        ("id", .string(String(m.id))),
                        ("associated_metadata", .object([("alt_text", .object([("text", .string(m.altText ?? ""))]))])),
                    ])
                )
            ]))
    }

    /// Alt text for an uploaded file of this user: at most 1,000 characters.
    func setAltText(_ identity: Identity, id: String?, text: String?) throws(SimError) -> SimMedia {
        guard let uid = identity.userID, let v = id.flatMap(UInt64.init), var m = media[v], m.owner == uid else {
            throw SimError("Could not find media with id: [\(id ?? "")].")
        }
        guard let text, !text.isEmpty, text.count <= 1000 else {
            throw SimError("The alt text must hold 1 to 1000 characters")
        }
        m.altText = text
        media[v] = m
        return m
    }

    /// The attachments a post names by media id: this user's finished uploads, at most four.
    func attachments(_ ids: [String], owner: UInt64) -> [SimAttachment]? {
        guard ids.count <= 4 else { return nil }
        var out: [SimAttachment] = []
        for text in ids {
            guard let v = UInt64(text), let m = media[v], m.owner == owner, m.finalized else { return nil }
            // Its real size and format, read from the file's own header, as X reports them.
            let size = MediaHeader.size(m.head)
            out.append(
                SimAttachment(
                    key: m.key, kind: m.kind, altText: m.altText, width: size?.width, height: size?.height,
                    ext: MediaHeader.fileExtension(m.head, type: m.type)))
        }
        return out
    }

    // MARK: v1.1 (upload.twitter.com), on every access level

    /// `POST /1.1/media/upload.json`: `command=INIT|APPEND|FINALIZE|STATUS`, segments as
    /// `media_data` (base64) form fields.
    func v1Upload(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let uid = identity.userID else { return Self.forbiddenForApps }
        func answer(_ m: SimMedia) -> SimResponse {
            var fields: [(String, J)] = [
                ("media_id", .int(Int64(bitPattern: m.id))), ("media_id_string", .string(String(m.id))),
                ("media_key", .string(m.key)), ("expires_after_secs", .int(Self.mediaExpires)),
            ]
            if m.finalized { fields.append(("size", .int(Int64(m.totalBytes)))) }
            return .json(m.finalized ? 201 : 202, .object(fields))
        }
        switch r.param("command") ?? "" {
        case "INIT":
            guard let total = r.param("total_bytes").flatMap(Int.init), total > 0, total <= 512 << 20 else {
                return .error(400, code: 324, "total_bytes must be between 1 and 536870912.")
            }
            guard let type = r.param("media_type") else { return .error(400, code: 38, "media_type parameter is missing.") }
            let m = SimMedia(id: nextID(), owner: uid, type: type, totalBytes: total)
            media[m.id] = m
            return answer(m)
        case "APPEND":
            guard let v = r.param("media_id").flatMap(UInt64.init), var m = media[v], m.owner == uid, !m.finalized else {
                return .error(400, code: 324, "Invalid media_id.")
            }
            guard let index = r.param("segment_index").flatMap(Int.init), (0...999).contains(index) else {
                return .error(400, code: 324, "segment_index must be between 0 and 999.")
            }
            guard let data = r.param("media_data").flatMap({ Data(base64Encoded: $0) }), !data.isEmpty else {
                return .error(400, code: 324, "media_data must hold the segment in base64.")
            }
            m.segments[index] = data.count
            if index == 0 { m.head = Array(data.prefix(MediaHeader.readBytes)) }
            guard m.segments.values.reduce(0, +) <= m.totalBytes else {
                return .error(400, code: 324, "More bytes were appended than total_bytes announced.")
            }
            media[v] = m
            return SimResponse(status: 204, headers: [], body: .bytes(Data()))
        case "FINALIZE":
            guard let v = r.param("media_id").flatMap(UInt64.init), var m = media[v], m.owner == uid else {
                return .error(400, code: 324, "Invalid media_id.")
            }
            let received = m.segments.values.reduce(0, +)
            guard received == m.totalBytes, m.segments.keys.sorted() == Array(0..<m.segments.count) else {
                return .error(400, code: 324, "File size mismatch: \(received) bytes received, \(m.totalBytes) announced.")
            }
            m.finalized = true
            media[v] = m
            return answer(m)
        case "STATUS":
            guard let v = r.param("media_id").flatMap(UInt64.init), let m = media[v], m.owner == uid else {
                return .error(400, code: 324, "Invalid media_id.")
            }
            return answer(m)
        default:
            return .error(400, code: 38, "command parameter is missing or not INIT, APPEND, FINALIZE or STATUS.")
        }
    }

    /// `POST /1.1/media/metadata/create.json {"media_id", "alt_text": {"text"}}`.
    func v1MediaMetadata(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let body = ContractValue.object(r.body) else {
            return .error(400, code: 38, "The body must be JSON with media_id and alt_text.")
        }
        let alt = (body["alt_text"] as? [String: Any])?["text"] as? String
        do { _ = try setAltText(identity, id: body["media_id"] as? String, text: alt) } catch {
            return .error(400, code: 324, error.description)
        }
        return SimResponse(status: 200, headers: [], body: .bytes(Data()))
    }
}

/// A refusal in words, for answers built in each face's own shape.
struct SimError: Error, CustomStringConvertible, Sendable {
    var description: String
    init(_ description: String) { self.description = description }
    func hasPrefix(_ p: String) -> Bool { description.hasPrefix(p) }
}
