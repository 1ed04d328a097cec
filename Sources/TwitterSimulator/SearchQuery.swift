/// A `search/tweets` query: words ANDed, "exact phrases", `from:name`, `@name`, `#tag`, `OR`
/// between terms, and `-term` to exclude.
struct SearchQuery {
    enum Term: Equatable {
        case word(String)
        case phrase(String)
        case from(String)
        case mention(String)
        case hashtag(String)
    }

    struct Clause {
        /// Any of these may match.
        var alternatives: [Term]
        var negated: Bool
    }

    var clauses: [Clause]

    init(_ query: String) {
        var tokens: [(String, quoted: Bool)] = []
        var current = ""
        var inQuote = false
        for ch in query {
            if ch == "\"" {
                if inQuote {
                    tokens.append((current, true))
                    current = ""
                } else if !current.isEmpty {
                    tokens.append((current, false))
                    current = ""
                }
                inQuote.toggle()
            } else if ch.isWhitespace && !inQuote {
                if !current.isEmpty { tokens.append((current, false)) }
                current = ""
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { tokens.append((current, inQuote)) }

        var clauses: [Clause] = []
        var joinNext = false
        for (raw, quoted) in tokens {
            if !quoted && raw == "OR" {
                joinNext = !clauses.isEmpty
                continue
            }
            var text = raw
            var negated = false
            if !quoted, text.hasPrefix("-"), text.count > 1 {
                negated = true
                text.removeFirst()
            }
            let term = Self.term(text.lowercased(), quoted: quoted)
            if joinNext, !negated, var last = clauses.popLast() {
                last.alternatives.append(term)
                clauses.append(last)
            } else {
                clauses.append(Clause(alternatives: [term], negated: negated))
            }
            joinNext = false
        }
        self.clauses = clauses
    }

    private static func term(_ t: String, quoted: Bool) -> Term {
        if quoted { return .phrase(t) }
        if t.hasPrefix("from:") { return .from(String(t.dropFirst(5)).trimmingPrefix("@")) }
        if t.hasPrefix("@"), t.count > 1 { return .mention(String(t.dropFirst())) }
        if t.hasPrefix("#"), t.count > 1 { return .hashtag(String(t.dropFirst())) }
        return .word(t)
    }

    /// What a tweet offers to be matched against.
    struct Candidate {
        var text: String
        var words: Set<String>
        var author: String
        var mentions: [String]
        var hashtags: [String]
    }

    func matches(_ c: Candidate) -> Bool {
        guard !clauses.isEmpty else { return false }
        return clauses.allSatisfy { clause in
            let hit = clause.alternatives.contains { term in
                switch term {
                case .word(let w): return w.allSatisfy(\.isASCII) ? c.words.contains(w) : c.text.contains(w)
                case .phrase(let p): return c.text.contains(p)
                case .from(let name): return c.author == name
                case .mention(let name): return c.mentions.contains(name)
                case .hashtag(let tag): return c.hashtags.contains(tag)
                }
            }
            return clause.negated ? !hit : hit
        }
    }
}

extension String {
    fileprivate func trimmingPrefix(_ p: String) -> String { hasPrefix(p) ? String(dropFirst(p.count)) : self }
}
