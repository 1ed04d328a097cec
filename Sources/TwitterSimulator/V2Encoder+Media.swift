/// Files in `includes.media`: `media_key` and `type` always (X's defaults), the rest as
/// `media.fields` asks.
extension V2Encoder {
    func mediaJSON(_ m: SimAttachment) -> J {
        let f = fields.media
        var out: [(String, J)] = [("media_key", .string(m.key)), ("type", .string(m.kind))]
        // A photo's file, or a video's or GIF's poster (X's `preview_image_url`).
        let file = J.string("https://pbs.twimg.invalid/media/\(m.key).\(m.kind == "photo" ? m.ext ?? "jpg" : "jpg")")
        let fileField = m.kind == "photo" ? "url" : "preview_image_url"
        if f.contains(fileField) { out.append((fileField, file)) }
        if f.contains("width") { out.append(("width", .int(m.width ?? 1200))) }
        if f.contains("height") { out.append(("height", .int(m.height ?? 800))) }
        if f.contains("alt_text"), let alt = m.altText { out.append(("alt_text", .string(alt))) }
        if f.contains("duration_ms"), m.kind == "video", let d = m.durationMs { out.append(("duration_ms", .int(Int64(d)))) }
        return .object(out)
    }
}
