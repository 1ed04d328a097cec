import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Polls in `includes.polls`: `id` and `options` always (X's defaults), the rest as
/// `poll.fields` asks.
extension V2Encoder {
    func pollJSON(_ p: SimPoll) -> J {
        let options: [J] = p.choices.enumerated().map { i, label in
            .object([("position", .int(i + 1)), ("label", .string(label)), ("votes", .int(i < p.votes.count ? p.votes[i] : 0))])
        }
        var out: [(String, J)] = [("id", .string(String(p.id))), ("options", .array(options))]
        let f = fields.poll
        if f.contains("duration_minutes") { out.append(("duration_minutes", .int(p.durationMinutes))) }
        if f.contains("end_datetime") { out.append(("end_datetime", .string(Self.iso(p.endMs)))) }
        if f.contains("voting_status") {
            let open = Double(p.endMs) / 1000 > Date().timeIntervalSince1970
            out.append(("voting_status", .string(open ? "open" : "closed")))
        }
        return .object(out)
    }
}
