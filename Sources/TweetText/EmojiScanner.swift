/// Recognises emoji sequences (UTS #51): keycaps, flags, modifier and tag sequences, and
/// ZWJ sequences of those, so each counts once in a tweet's length and width.
enum EmojiScanner {
    /// The end of the emoji sequence that starts at `start`, or nil when none starts there.
    static func sequenceEnd(_ s: [Unicode.Scalar], at start: Int) -> Int? {
        let n = s.count
        let c = s[start]
        // Keycap: [0-9#*] FE0F? 20E3
        if c.value < 0x80 {
            guard c.properties.isEmoji else { return nil }
            var i = start + 1
            if i < n, s[i].value == 0xFE0F { i += 1 }
            return i < n && s[i].value == 0x20E3 ? i + 1 : nil
        }
        // Flag: two regional indicators.
        if isRegionalIndicator(c) {
            return start + 1 < n && isRegionalIndicator(s[start + 1]) ? start + 2 : nil
        }
        guard var i = elementEnd(s, at: start) else { return nil }
        while i + 1 < n, s[i].value == 0x200D, let next = elementEnd(s, at: i + 1) {
            i = next
        }
        return i
    }

    /// One emoji element: a pictograph with its presentation selector, skin tone and tags.
    private static func elementEnd(_ s: [Unicode.Scalar], at start: Int) -> Int? {
        let n = s.count
        let p = s[start].properties
        guard p.isEmoji, s[start].value >= 0x80 else { return nil }
        var i = start + 1
        var presented = p.isEmojiPresentation
        if i < n, s[i].value == 0xFE0F {
            presented = true
            i += 1
        } else if i < n, s[i].value == 0xFE0E {
            return nil
        }
        if i < n, s[i].properties.isEmojiModifier {
            presented = true
            i += 1
        }
        // Tag sequence: E0020-E007E ... E007F
        var j = i
        while j < n, (0xE0020...0xE007E).contains(s[j].value) { j += 1 }
        if j > i, j < n, s[j].value == 0xE007F { i = j + 1 }
        if !presented, i < n, s[i].value == 0x200D, i + 1 < n, s[i + 1].properties.isEmoji {
            presented = true
        }
        return presented ? i : nil
    }

    @inline(__always) static func isRegionalIndicator(_ c: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(c.value)
    }
}
