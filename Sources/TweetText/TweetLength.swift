import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The weighted length of a tweet and where it stops being valid, as twitter-text computes it.
///
/// Ranges are UTF-16 offsets into the text as given (before normalisation), as in the
/// conformance suite; `validCodePointEnd` gives the same boundary in code points.
public struct TweetLength: Equatable, Sendable {
    /// Weighted length in characters (URLs count 23, most CJK and emoji 2).
    public var weightedLength: Int
    /// Within the limit, not empty, and free of invalid characters.
    public var isValid: Bool
    /// Thousandths of the limit used.
    public var permillage: Int
    /// UTF-16 range of the whole text (inclusive ends).
    public var displayRange: ClosedRange<Int>
    /// UTF-16 range of the part that fits (inclusive ends).
    public var validRange: ClosedRange<Int>
    /// Code points of the original text that fit within the limit.
    public var validCodePointCount: Int

    /// Characters left before the limit; negative when over.
    public func remaining(_ configuration: TweetLengthConfiguration = .default) -> Int {
        configuration.maxWeightedTweetLength - weightedLength
    }

    /// Measures `text` under `configuration`.
    public init(_ text: String, configuration: TweetLengthConfiguration = .default) {
        // NFC, as twitter-text counts: the standard library's own normaliser (the one String
        // comparison uses), not ICU's through Foundation.
        let normalized = String(decoding: text._nfcCodeUnits, as: UTF8.self)
        let scalars = Array(normalized.unicodeScalars)
        let values = scalars.map(\.value)
        var urlEnds = [Int: Int]()
        for r in URLExtractor(values).extract() { urlEnds[r.lowerBound] = r.upperBound }

        let limit = configuration.maxWeightedTweetLength * configuration.scale
        var total = 0
        var valid = true
        var validUTF16End = 0
        var validScalarEnd = 0
        var utf16 = 0
        var i = 0
        while i < scalars.count {
            var end = i + 1
            if let urlEnd = urlEnds[i] {
                total += configuration.transformedURLLength * configuration.scale
                end = urlEnd
            } else if configuration.emojiParsingEnabled,
                let emojiEnd = EmojiScanner.sequenceEnd(scalars, at: i)
            {
                total += configuration.defaultWeight
                end = emojiEnd
            } else {
                total += configuration.weight(of: values[i])
            }
            for k in i..<end { utf16 += scalars[k].utf16.count }
            if valid, CharacterClasses.isInvalid(values[end - 1]) { valid = false }
            if valid && total <= limit {
                validUTF16End = utf16 - 1
                validScalarEnd = end
            }
            i = end
        }
        // Offsets refer to the text as given, so add back what NFC removed.
        let originalUTF16 = text.utf16.count
        let offset = originalUTF16 - utf16
        let originalScalars = text.unicodeScalars.count
        weightedLength = total / configuration.scale
        isValid = valid && weightedLength > 0 && weightedLength <= configuration.maxWeightedTweetLength
        permillage = weightedLength * 1000 / configuration.maxWeightedTweetLength
        displayRange = 0...max(0, originalUTF16 - 1)
        validRange = 0...max(0, validUTF16End + offset)
        validCodePointCount =
            validScalarEnd == scalars.count
            ? originalScalars : min(originalScalars, validScalarEnd + (originalScalars - scalars.count))
    }
}
