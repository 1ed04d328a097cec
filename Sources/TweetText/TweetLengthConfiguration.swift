/// The weighting rules of twitter-text's configuration files (`config/v2.json`, `v3.json`).
public struct TweetLengthConfiguration: Equatable, Sendable {
    /// A range of code points and the weight each one adds.
    public struct WeightRange: Equatable, Sendable {
        public var range: ClosedRange<UInt32>
        public var weight: Int

        public init(_ range: ClosedRange<UInt32>, weight: Int) {
            self.range = range
            self.weight = weight
        }
    }

    public var version: Int
    public var maxWeightedTweetLength: Int
    public var scale: Int
    public var defaultWeight: Int
    public var emojiParsingEnabled: Bool
    public var transformedURLLength: Int
    public var ranges: [WeightRange]

    public init(
        version: Int, maxWeightedTweetLength: Int, scale: Int, defaultWeight: Int,
        emojiParsingEnabled: Bool, transformedURLLength: Int, ranges: [WeightRange]
    ) {
        self.version = version
        self.maxWeightedTweetLength = maxWeightedTweetLength
        self.scale = scale
        self.defaultWeight = defaultWeight
        self.emojiParsingEnabled = emojiParsingEnabled
        self.transformedURLLength = transformedURLLength
        self.ranges = ranges
    }

    private static let latinAndPunctuation: [WeightRange] = [
        WeightRange(0...4351, weight: 100), WeightRange(8192...8205, weight: 100),
        WeightRange(8208...8223, weight: 100), WeightRange(8242...8247, weight: 100),
    ]

    /// Version 2: weighted ranges, every emoji scalar counted on its own.
    public static let v2 = TweetLengthConfiguration(
        version: 2, maxWeightedTweetLength: 280, scale: 100, defaultWeight: 200,
        emojiParsingEnabled: false, transformedURLLength: 23, ranges: latinAndPunctuation)

    /// Version 3, the default: as v2, but an emoji sequence counts once, as 2.
    public static let v3 = TweetLengthConfiguration(
        version: 3, maxWeightedTweetLength: 280, scale: 100, defaultWeight: 200,
        emojiParsingEnabled: true, transformedURLLength: 23, ranges: latinAndPunctuation)

    /// The configuration Twitter uses today.
    public static let `default` = v3

    func weight(of v: UInt32) -> Int {
        for r in ranges where r.range.contains(v) { return r.weight }
        return defaultWeight
    }
}
