import Foundation

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

    private func decodedMedia(_ body: [String: Any]) -> Result<Data, SimResponse> {
        guard let text = body["media"] as? String, let data = Data(base64Encoded: text), !data.isEmpty else {
            return .failure(Self.invalidRequest("media", "The `media` field must hold the file in base64"))
        }
        return .success(data)
    }

    /// `POST /2/media/upload`: the whole file at once.
    func v2UploadMedia(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let uid = identity.userID else { return Self.v2Forbidden("Uploading needs a user's token.") }
        let body: [String: Any]
        switch Self.jsonBody(r) {
        case .failure(let e): return e
        case .success(let b): body = b
        }
        guard body["media_category"] is String else {
            return Self.invalidRequest("media_category", "The `media_category` field is required")
        }
        switch decodedMedia(body) {
        case .failure(let e): return e
        case .success(let data):
            var m = SimMedia(id: nextID(), owner: uid, type: body["media_type"] as? String ?? "image/png", totalBytes: data.count)
            m.segments[0] = data.count
            m.finalized = true
            media[m.id] = m
            return mediaAnswer(m)
        }
    }

    /// `POST /2/media/upload/initialize {"media_type","total_bytes","media_category"}`.
    func v2InitializeUpload(_ r: SimRequest, _ identity: Identity) -> SimResponse {
        guard let uid = identity.userID else { return Self.v2Forbidden("Uploading needs a user's token.") }
        let body: [String: Any]
        switch Self.jsonBody(r) {
        case .failure(let e): return e
        case .success(let b): body = b
        }
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
    func v2AppendUpload(_ r: SimRequest, _ identity: Identity, id: String) -> SimResponse {
        guard let uid = identity.userID, let v = UInt64(id), var m = media[v], m.owner == uid, !m.finalized else {
            return Self.problem(
                404, "Not Found Error", "Could not find an open upload with id: [\(id)].",
                type: "https://api.twitter.com/2/problems/resource-not-found")
        }
        let body: [String: Any]
        switch Self.jsonBody(r) {
        case .failure(let e): return e
        case .success(let b): body = b
        }
        guard let index = body["segment_index"] as? Int, (0...999).contains(index) else {
            return Self.invalidRequest("segment_index", "The `segment_index` field must be between 0 and 999")
        }
        switch decodedMedia(body) {
        case .failure(let e): return e
        case .success(let data):
            m.segments[index] = data.count
            guard m.segments.values.reduce(0, +) <= m.totalBytes else {
                return Self.invalidRequest("media", "More bytes were appended than total_bytes announced")
            }
            media[v] = m
            return .json(200, .object([("data", .object([("expires_at", .int(now + Self.mediaExpires))])), ("meta", .object([]))]))
        }
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
}
