/// Finds a known top-level domain at a position, with twitter-text's rule that a TLD must not
/// run on into `[A-Za-z0-9@+-]`.
struct TLDMatcher: Sendable {
    static let shared = TLDMatcher()

    private let generic: Set<[UInt32]>
    private let country: Set<[UInt32]>
    private let maxLength: Int
    /// Every scalar of every TLD (folded): ASCII as bits, the rest in a set.
    private let asciiLetters: (UInt64, UInt64)
    private let otherLetters: Set<UInt32>

    init() {
        func load(_ list: String) -> Set<[UInt32]> {
            Set(
                list.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { word in
                    word.lowercased().unicodeScalars.map(\.value)
                })
        }
        generic = load(TLDList.generic)
        country = load(TLDList.country)
        let all = generic.union(country)
        maxLength = all.map(\.count).max() ?? 0
        var ascii: (UInt64, UInt64) = (0, 0)
        var other = Set<UInt32>()
        for v in all.joined() {
            if v < 64 {
                ascii.0 |= 1 << UInt64(v)
            } else if v < 128 {
                ascii.1 |= 1 << UInt64(v - 64)
            } else {
                other.insert(v)
            }
        }
        asciiLetters = ascii
        otherLetters = other
    }

    /// The end of the longest TLD starting at `start` (generic before country, as twitter-text
    /// tries them), or of an `xn--` punycode TLD.
    func match(_ s: [UInt32], at start: Int, limit: Int? = nil) -> Int? {
        let n = limit ?? s.count
        let reach = self.reach(s, start, n)
        if let end = longest(in: generic, s, start, reach, n) ?? longest(in: country, s, start, reach, n) {
            return end
        }
        // xn--[-0-9a-z]+
        if start + 4 < n, CharacterClasses.asciiLower(s[start]) == 0x78,
            CharacterClasses.asciiLower(s[start + 1]) == 0x6E, s[start + 2] == 0x2D,
            s[start + 3] == 0x2D
        {
            var i = start + 4
            while i < n, CharacterClasses.isASCIIAlnum(s[i]) || s[i] == 0x2D { i += 1 }
            if i > start + 4 { return i }
        }
        return nil
    }

    /// How many scalars from `start` a TLD could take: none holds a scalar no TLD has, so
    /// prose (a full stop then a space) is not looked up at every length.
    private func reach(_ s: [UInt32], _ start: Int, _ n: Int) -> Int {
        var i = start
        let limit = min(n, start + maxLength)
        while i < limit {
            let v = Self.fold(s[i])
            let known =
                v < 64
                ? asciiLetters.0 & (1 << UInt64(v)) != 0
                : v < 128 ? asciiLetters.1 & (1 << UInt64(v - 64)) != 0 : otherLetters.contains(v)
            guard known else { break }
            i += 1
        }
        return i - start
    }

    /// The longest TLD of `set` within `reach` scalars from `start`, not run on into more.
    private func longest(in set: Set<[UInt32]>, _ s: [UInt32], _ start: Int, _ reach: Int, _ n: Int) -> Int? {
        var len = reach
        var key = [UInt32]()
        key.reserveCapacity(len)
        while len > 0 {
            let end = start + len
            if end == n || !Self.continuesTLD(s[end]) {
                key.removeAll(keepingCapacity: true)
                for i in start..<end { key.append(Self.fold(s[i])) }
                if set.contains(key) { return end }
            }
            len -= 1
        }
        return nil
    }

    @inline(__always) private static func continuesTLD(_ v: UInt32) -> Bool {
        CharacterClasses.isASCIIAlnum(v) || v == 0x40 || v == 0x2B || v == 0x2D
    }

    @inline(__always) private static func fold(_ v: UInt32) -> UInt32 {
        if v < 0x80 { return CharacterClasses.asciiLower(v) }
        guard let scalar = Unicode.Scalar(v) else { return v }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? (lower.first?.value ?? v) : v
    }
}
