import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `search/tweets`: the query language, result types, paging and `search_metadata`.
extension World {
    func candidate(_ t: SimTweet) -> SearchQuery.Candidate {
        let text = searchableText(t)
        let words = Set(text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init))
        return SearchQuery.Candidate(
            text: text, words: words, author: users[t.userID]?.screenName.lowercased() ?? "",
            mentions: mentionsByTweet[t.id] ?? [], hashtags: hashtagsByTweet[t.id] ?? [])
    }

    func search(_ r: SimRequest, _ identity: Identity) throws(SimResponse) -> SimResponse {
        guard let q = r.param("q"), !q.trimmed().isEmpty else {
            return .error(400, code: 25, "Query parameters are missing.")
        }
        guard q.count <= 500 else { return .error(403, code: 195, "Missing or invalid url parameter.") }
        let options = try readOptions(r, defaultCount: 15, maxCount: 100)
        let started = Date()
        let query = SearchQuery(q)
        var hits = liveTweetsNewestFirst().filter { query.matches(candidate($0)) }
        let resultType = r.param("result_type") ?? "mixed"
        if resultType == "popular" {
            hits = hits.filter { !$0.favoritedBy.isEmpty || !$0.retweetedBy.isEmpty }
        }
        let found = page(hits, options)
        let enc = encoder(viewer: identity.userID, options)
        let statuses: [J] = found.map { t in
            guard case .object(var fields) = enc.tweet(t) else { return enc.tweet(t) }
            fields.insert(("metadata", .object([("result_type", .string("recent")), ("iso_language_code", .string(t.lang))])), at: 0)
            return .object(fields)
        }
        let maxID = found.first?.id ?? options.maxID ?? 0
        let sinceID = options.sinceID ?? 0
        let encodedQ = FormCoding.encode(q)
        var meta: [(String, J)] = [
            ("completed_in", .double((Date().timeIntervalSince(started) * 1000).rounded() / 1000)),
            ("max_id", .uint(maxID)), ("max_id_str", .string(String(maxID))),
        ]
        if let oldest = found.last, found.count == options.count, hits.contains(where: { $0.id < oldest.id }) {
            meta.append(
                (
                    "next_results",
                    .string("?max_id=\(oldest.id - 1)&q=\(encodedQ)&count=\(options.count)&include_entities=1&result_type=\(resultType)")
                ))
        }
        meta += [
            ("query", .string(encodedQ)),
            ("refresh_url", .string("?since_id=\(maxID)&q=\(encodedQ)&result_type=\(resultType)&include_entities=1")),
            ("count", .int(options.count)), ("since_id", .uint(sinceID)), ("since_id_str", .string(String(sinceID))),
        ]
        return .json(200, .object([("statuses", .array(statuses)), ("search_metadata", .object(meta))]))
    }
}
