/// Finds URLs in text with and without a protocol, following the grammar of twitter-text's
/// conformance suite: domain labels, a known TLD, optional port, path and query, with the
/// same rules for where a URL may start and which trailing characters it leaves out.
struct URLExtractor {
    private let s: [UInt32]
    private let tlds = TLDMatcher.shared
    private static let maxURLLength = 4096
    private static let maxTcoSlugLength = 40

    /// Where the run of label characters (domain characters, `-`, `_`) that starts at each
    /// index ends. Computed once, so trying a URL at every position of a long run (4,000 flags,
    /// 10,000 combining marks) costs one step each instead of a scan to the run's end.
    private let labelRunEnd: [Int]
    /// TLD matches by start index, found once: a domain of many labels is tried from each of
    /// its dots, and every try asks about the same labels.
    private let tldMemo: TLDMemo

    private final class TLDMemo {
        /// -2: not asked yet; -1: no TLD; otherwise where it ends.
        var ends: [Int]
        init(count: Int) { ends = [Int](repeating: -2, count: count + 1) }
    }

    init(_ scalars: [UInt32]) {
        s = scalars
        var ends = [Int](repeating: 0, count: scalars.count + 1)
        ends[scalars.count] = scalars.count
        var i = scalars.count - 1
        while i >= 0 {
            let v = scalars[i]
            ends[i] = CharacterClasses.isDomainChar(v) || v == 0x2D || v == 0x5F ? ends[i + 1] : i
            i -= 1
        }
        labelRunEnd = ends
        tldMemo = TLDMemo(count: scalars.count)
    }

    private func tld(at start: Int) -> Int? {
        let known = tldMemo.ends[start]
        if known != -2 { return known < 0 ? nil : known }
        let end = tlds.match(s, at: start)
        tldMemo.ends[start] = end ?? -1
        return end
    }

    private struct Match {
        var start: Int
        var hasProtocol: Bool
        var domain: Range<Int>
        var hasPath: Bool
        var end: Int
    }

    /// Code-point ranges of every URL, in order.
    func extract() -> [Range<Int>] {
        var found: [Range<Int>] = []
        let n = s.count
        var pos = 0
        while pos < n {
            var match: Match?
            var before: UInt32?
            if isValidPreceding(s[pos]) {
                match = matchURL(at: pos + 1)
                before = s[pos]
            }
            if match == nil && pos == 0 {
                match = matchURL(at: 0)
                before = nil
            }
            guard let m = match else {
                pos += 1
                continue
            }
            accept(m, before: before, into: &found)
            pos = m.end
        }
        return found
    }

    private func accept(_ m: Match, before: UInt32?, into found: inout [Range<Int>]) {
        var end = m.end
        if m.hasProtocol {
            if let tcoEnd = tcoEnd(m) {
                guard tcoEnd >= 0 else { return }
                end = tcoEnd
            }
            let protocolLength = m.domain.lowerBound - m.start
            guard isValid(m, urlEnd: end, protocolLength: protocolLength) else { return }
            found.append(m.start..<end)
            return
        }
        guard isValid(m, urlEnd: end, protocolLength: 8) else { return }
        if let b = before, b == 0x2D || b == 0x5F || b == 0x2E || b == 0x2F { return }
        let ascii = asciiDomains(in: m.domain)
        guard let last = ascii.last else { return }
        found.append(contentsOf: ascii.dropLast())
        found.append(m.hasPath ? last.lowerBound..<end : last)
    }

    // MARK: - Grammar

    private func isValidPreceding(_ v: UInt32) -> Bool {
        !(CharacterClasses.isASCIIAlnum(v) || v == 0x40 || v == 0xFF20 || v == 0x24 || v == 0x23
            || v == 0xFF03 || CharacterClasses.isInvalid(v))
    }

    private func matchURL(at start: Int) -> Match? {
        if let p = protocolEnd(at: start), let m = matchRest(start: start, domainStart: p) {
            return m
        }
        return matchRest(start: start, domainStart: nil)
    }

    private func protocolEnd(at i: Int) -> Int? {
        let lower: (Int) -> UInt32 = { CharacterClasses.asciiLower(self.s[$0]) }
        guard i + 7 <= s.count, lower(i) == 0x68, lower(i + 1) == 0x74, lower(i + 2) == 0x74,
            lower(i + 3) == 0x70
        else { return nil }
        var j = i + 4
        if lower(j) == 0x73 { j += 1 }
        guard j + 3 <= s.count, s[j] == 0x3A, s[j + 1] == 0x2F, s[j + 2] == 0x2F else { return nil }
        return j + 3
    }

    private func matchRest(start: Int, domainStart: Int?) -> Match? {
        let d = domainStart ?? start
        guard let domainEnd = matchDomain(at: d) else { return nil }
        let n = s.count
        var e = domainEnd
        // :port
        if e + 1 < n, s[e] == 0x3A, isDigit(s[e + 1]) {
            e += 1
            while e < n, isDigit(s[e]) { e += 1 }
        }
        var hasPath = false
        if e < n, s[e] == 0x2F {
            hasPath = true
            e = pathEnd(from: e + 1)
        }
        if e < n, s[e] == 0x3F, let q = queryEnd(from: e + 1) { e = q }
        return Match(
            start: start, hasProtocol: domainStart != nil, domain: d..<domainEnd, hasPath: hasPath,
            end: e)
    }

    @inline(__always) private func isDigit(_ v: UInt32) -> Bool { v >= 0x30 && v <= 0x39 }

    /// Subdomains (greedy), a domain name, then a TLD: returns where the TLD ends.
    private func matchDomain(at start: Int) -> Int? {
        // A domain is two labels at least: a first one not followed by a full stop is none,
        // found before any array is made (prose has one such word after another).
        let firstEnd = labelRunEnd[start]
        guard firstEnd < s.count, s[firstEnd] == 0x2E else { return nil }
        var labels: [Range<Int>] = []
        var i = start
        let n = s.count
        while true {
            let labelStart = i
            i = labelRunEnd[i]
            labels.append(labelStart..<i)
            if i < n, s[i] == 0x2E, labels.count < 128 {
                i += 1
            } else {
                break
            }
        }
        // A label followed by '.' is any label but the last one.
        var maxSubdomains = 0
        while maxSubdomains < labels.count - 1, isLabel(labels[maxSubdomains], allowUnderscore: true) {
            maxSubdomains += 1
        }
        var k = min(maxSubdomains, labels.count - 2)
        while k >= 0 {
            if isLabel(labels[k], allowUnderscore: false), let end = tld(at: labels[k + 1].lowerBound) {
                return end
            }
            k -= 1
        }
        return nil
    }

    private func isLabel(_ r: Range<Int>, allowUnderscore: Bool) -> Bool {
        guard !r.isEmpty, CharacterClasses.isDomainChar(s[r.lowerBound]),
            CharacterClasses.isDomainChar(s[r.upperBound - 1])
        else { return false }
        return allowUnderscore || !s[r].contains(0x5F)
    }

    // MARK: - Path and query

    private func isPathGeneral(_ v: UInt32) -> Bool {
        if CharacterClasses.isASCIIAlnum(v) || CharacterClasses.isCyrillic(v)
            || CharacterClasses.isLatinAccent(v) || v == 0x2013
        {
            return true
        }
        switch v {
        case 0x21, 0x2A, 0x27, 0x3B, 0x3A, 0x3D, 0x2B, 0x2C, 0x2E, 0x24, 0x2F, 0x25, 0x23, 0x5B,
            0x5D, 0x2D, 0x5F, 0x7E, 0x26, 0x7C, 0x40:
            return true
        default:
            return false
        }
    }

    private func isPathEnding(_ v: UInt32) -> Bool {
        CharacterClasses.isASCIIAlnum(v) || CharacterClasses.isCyrillic(v)
            || CharacterClasses.isLatinAccent(v) || v == 0x2B || v == 0x2D || v == 0x3D
            || v == 0x5F || v == 0x23 || v == 0x2F
    }

    /// The end of a path body starting after its `/`: the longest run of path characters and
    /// balanced parentheses that ends on a character allowed at the end.
    private func pathEnd(from start: Int) -> Int {
        var i = start
        var goodEnd = start
        let n = s.count
        while i < n {
            if isPathGeneral(s[i]) {
                i += 1
                if isPathEnding(s[i - 1]) { goodEnd = i }
            } else if s[i] == 0x28, let close = balancedParens(at: i) {
                i = close
                goodEnd = i
            } else {
                break
            }
        }
        return goodEnd
    }

    /// `(general+)` or `(general* (general+) general*)`.
    private func balancedParens(at open: Int) -> Int? {
        let n = s.count
        var i = open + 1
        while i < n, isPathGeneral(s[i]) { i += 1 }
        if i < n, s[i] == 0x29, i > open + 1 { return i + 1 }
        guard i < n, s[i] == 0x28 else { return nil }
        let innerStart = i + 1
        i = innerStart
        while i < n, isPathGeneral(s[i]) { i += 1 }
        guard i > innerStart, i < n, s[i] == 0x29 else { return nil }
        i += 1
        while i < n, isPathGeneral(s[i]) { i += 1 }
        guard i < n, s[i] == 0x29 else { return nil }
        return i + 1
    }

    private func isQueryChar(_ v: UInt32) -> Bool {
        if CharacterClasses.isASCIIAlnum(v) { return true }
        switch v {
        case 0x21, 0x3F, 0x2A, 0x27, 0x40, 0x28, 0x29, 0x3B, 0x3A, 0x26, 0x3D, 0x2B, 0x24, 0x2F,
            0x25, 0x23, 0x5B, 0x5D, 0x2D, 0x5F, 0x2E, 0x2C, 0x7E, 0x7C:
            return true
        default:
            return false
        }
    }

    private func isQueryEnding(_ v: UInt32) -> Bool {
        CharacterClasses.isASCIIAlnum(v) || v == 0x2D || v == 0x5F || v == 0x26 || v == 0x3D
            || v == 0x23 || v == 0x2F
    }

    /// The end of a query starting after its `?`, or nil when no character may end it.
    private func queryEnd(from start: Int) -> Int? {
        var i = start
        var goodEnd: Int?
        while i < s.count, isQueryChar(s[i]) {
            if isQueryEnding(s[i]) { goodEnd = i + 1 }
            i += 1
        }
        return goodEnd
    }

    // MARK: - Checks after the match

    /// For `http(s)://t.co/slug` URLs: the end after the slug and query, -1 when the slug is
    /// too long, nil when this is not a t.co URL.
    private func tcoEnd(_ m: Match) -> Int? {
        let d = m.domain
        guard d.count == 4, CharacterClasses.asciiLower(s[d.lowerBound]) == 0x74,
            s[d.lowerBound + 1] == 0x2E, CharacterClasses.asciiLower(s[d.lowerBound + 2]) == 0x63,
            CharacterClasses.asciiLower(s[d.lowerBound + 3]) == 0x6F, d.upperBound < m.end,
            s[d.upperBound] == 0x2F
        else { return nil }
        var i = d.upperBound + 1
        while i < m.end, CharacterClasses.isASCIIAlnum(s[i]) { i += 1 }
        let slug = i - d.upperBound - 1
        guard slug > 0 else { return nil }
        if slug > Self.maxTcoSlugLength { return -1 }
        if i < m.end, s[i] == 0x3F, let q = queryEnd(from: i + 1) { i = min(q, m.end) }
        return i
    }

    /// Each label must encode to 1...63 ASCII characters and the whole URL to at most 4096.
    private func isValid(_ m: Match, urlEnd: Int, protocolLength: Int) -> Bool {
        let domain = Array(s[m.domain])
        if domain.count >= 4, domain[0] == 0x78, domain[1] == 0x6E, domain[2] == 0x2D,
            domain[3] == 0x2D, asciiDomains(in: m.domain).isEmpty
        {
            return false
        }
        var encodedLength = 0
        for (index, label) in domain.split(separator: 0x2E, omittingEmptySubsequences: false).enumerated() {
            guard let ascii = Punycode.toASCII(label: Array(label)) else { return false }
            let length = ascii.utf8.count
            if length < 1 || length > 63 { return false }
            encodedLength += length + (index > 0 ? 1 : 0)
        }
        let urlLength = (urlEnd - m.start) + encodedLength - domain.count
        return protocolLength + urlLength <= Self.maxURLLength
    }

    /// ASCII (and accented Latin) domains inside a domain that may hold other scripts.
    private func asciiDomains(in range: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var i = range.lowerBound
        while i < range.upperBound {
            if let end = asciiDomain(at: i, limit: range.upperBound) {
                result.append(i..<end)
                i = end
            } else {
                i += 1
            }
        }
        return result
    }

    /// `([-a-z0-9accents]+\.)+TLD` at `start`, greedy over the labels.
    private func asciiDomain(at start: Int, limit: Int) -> Int? {
        func isChar(_ v: UInt32) -> Bool {
            CharacterClasses.isASCIIAlnum(v) || v == 0x2D || CharacterClasses.isLatinAccent(v)
        }
        var labelEnds: [Int] = []
        var i = start
        while true {
            let labelStart = i
            while i < limit, isChar(s[i]) { i += 1 }
            guard i > labelStart, i < limit, s[i] == 0x2E else { break }
            i += 1
            labelEnds.append(i)
        }
        for tldStart in labelEnds.reversed() {
            if let end = tlds.match(s, at: tldStart, limit: limit) { return end }
        }
        return nil
    }
}
